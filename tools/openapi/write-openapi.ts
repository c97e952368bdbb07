/**
 * `npm run openapi`: writes each app's OpenAPI document to docs/openapi/<app>.json. The npm script then
 * generates the typed client (test/client/<app>.schema.ts) from them. A test fails when the served
 * documents and the committed ones differ, so every API change shows in review.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DOCUMENTED_APPS, openApiDocumentOf, serialize } from './openapi-documents';

async function main(): Promise<void> {
  for (const definition of DOCUMENTED_APPS) {
    const file = resolve(__dirname, '..', '..', 'docs', 'openapi', `${definition.name}.json`);
    writeFileSync(file, serialize(await openApiDocumentOf(definition)));
    console.log(`wrote ${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

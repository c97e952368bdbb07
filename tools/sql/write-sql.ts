/**
 * `npm run sql`: writes the statements of every repository to docs/sql/<repository>.sql, as immich's sync-sql writes
 * its `@GenerateSql` queries. A test fails when the committed files and the code differ, so every change of a
 * statement shows in review.
 */
import 'reflect-metadata';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sqlDocuments } from './sql-documents';

async function main(): Promise<void> {
  const folder = resolve(__dirname, '..', '..', 'docs', 'sql');
  mkdirSync(folder, { recursive: true });
  for (const stale of readdirSync(folder).filter((file) => file.endsWith('.sql'))) rmSync(resolve(folder, stale));
  for (const [file, text] of await sqlDocuments()) {
    writeFileSync(resolve(folder, file), text);
    console.log(`wrote docs/sql/${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

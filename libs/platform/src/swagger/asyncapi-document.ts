import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where an app serves its AsyncAPI document: beside `/{label}/docs` and `/{label}/docs-json`. */
export const asyncApiDocumentPath = (label: string): string => `/${label}/docs-asyncapi`;

/**
 * The text of `docs/asyncapi/<file>`. The built app finds it beside its bundle, where the build puts it
 * (apps/transactional-service/webpack.config.js), so neither the image nor dist/ needs the repository's docs/; run from
 * the sources (ts-node, jest), it is read from docs/asyncapi. Missing in both is a broken build: the start stops saying so.
 */
export function readAsyncApiDocument(file: string): string {
  const places = [join(__dirname, file), join(__dirname, '..', '..', '..', '..', 'docs', 'asyncapi', file)];
  const found = places.find((place) => existsSync(place));
  if (!found)
    throw new Error(
      `The AsyncAPI document ${file} is neither beside the bundle nor in docs/asyncapi (looked at ${places.join(', ')}): npm run build copies it`,
    );
  return readFileSync(found, 'utf8');
}

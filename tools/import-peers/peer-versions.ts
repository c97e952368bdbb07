import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The installed version of each peer reader, as the report names them. */
export function peerVersions(): Record<string, string> {
  return Object.fromEntries(
    ['openapi-to-postmanv2', 'postman-collection', 'curlconverter'].map((name) => [
      name,
      (JSON.parse(readFileSync(join(__dirname, '../../node_modules', name, 'package.json'), 'utf8')) as { version: string }).version,
    ]),
  );
}

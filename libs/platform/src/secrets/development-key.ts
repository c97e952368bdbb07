import { randomBytes } from 'node:crypto';
import { readOrCreateDevelopmentFile } from './development-file';

/** Outside production without SECRETS_KEY: a random key created once beside the embedded database. */
export function readOrCreateDevelopmentKey(file: string): Buffer {
  return Buffer.from(
    readOrCreateDevelopmentFile(file, () => randomBytes(32).toString('base64')),
    'base64',
  );
}

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Outside production without SECRETS_KEY: a random key created once beside the embedded database. */
export function readOrCreateDevelopmentKey(file: string): Buffer {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch {
      // Another app of the platform created it first.
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

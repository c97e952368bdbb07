import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Outside production with nothing configured: a value kept in `file` beside the embedded database (the JWT
 * secret, the secrets key), made by `make` on first use and the same for every process of the platform after.
 *
 * The file holds the value alone, without a trailing newline, so that a tool reading it raw signs or decrypts
 * with exactly what the platform uses. It is read trimmed all the same: a file written by hand (or by an older
 * version, which ended it with a newline) means the value without the line break.
 *
 * The three apps of `npm start` start at once and may all find the file missing: the value is written whole to a
 * file of this process first, then linked into place, which fails if another process got there first; its value
 * is then the one read. No process can read a half-written file.
 */
export function readOrCreateDevelopmentFile(file: string, make: () => string): string {
  const existing = readValue(file);
  if (existing !== undefined) return existing;
  mkdirSync(dirname(file), { recursive: true });
  const draft = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}`);
  writeFileSync(draft, make(), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another app of the platform created it first: its value is the one in use.
  } finally {
    unlinkSync(draft);
  }
  return readValue(file)!;
}

function readValue(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const value = text.trim();
  if (value === '') throw new Error(`${file} is empty: delete it and a new one is made at the next start`);
  return value;
}

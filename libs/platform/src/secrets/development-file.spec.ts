import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOrCreateDevelopmentSecret } from '../auth/development-secret';
import { readOrCreateDevelopmentFile } from './development-file';
import { readOrCreateDevelopmentKey } from './development-key';

const neverMade = () => {
  throw new Error('the value was made again although the file holds one');
};

describe(readOrCreateDevelopmentFile.name, () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'platform-dev-file-'))));

  it('writes the value alone, without a trailing newline, readable by its owner only, and leaves no draft behind', () => {
    const file = join(dir, 'data', 'dev-value');

    const value = readOrCreateDevelopmentFile(file, () => 'fresh-value');

    expect(value).toBe('fresh-value');
    expect(readFileSync(file, 'utf8')).toBe('fresh-value');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'data'))).toEqual(['dev-value']);
  });

  it('reads a file that ends in a newline (written by hand, or by an older version) without it', () => {
    const file = join(dir, 'dev-value');
    writeFileSync(file, 'kept-value\r\n');

    expect(readOrCreateDevelopmentFile(file, neverMade)).toBe('kept-value');
    expect(readFileSync(file, 'utf8')).toBe('kept-value\r\n');
  });

  it('keeps the value of a process that wrote the file first, and answers that value, not its own', () => {
    const file = join(dir, 'dev-value');

    const value = readOrCreateDevelopmentFile(file, () => {
      writeFileSync(file, 'first-value\n');
      return 'second-value';
    });

    expect(value).toBe('first-value');
    expect(readFileSync(file, 'utf8')).toBe('first-value\n');
    expect(readdirSync(dir)).toEqual(['dev-value']);
  });

  it('refuses an empty file, naming it and saying how to get a new one', () => {
    const file = join(dir, 'dev-value');
    writeFileSync(file, '\n');

    expect(() => readOrCreateDevelopmentFile(file, neverMade)).toThrow(`${file} is empty: delete it and a new one is made at the next start`);
  });
});

describe('the development JWT secret and secrets key', () => {
  it('are written without a trailing newline, so that the file signs exactly as the platform does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-dev-file-'));

    const secret = readOrCreateDevelopmentSecret(join(dir, 'dev-jwt-secret'));
    const key = readOrCreateDevelopmentKey(join(dir, 'dev-secrets-key'));

    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(readFileSync(join(dir, 'dev-jwt-secret'), 'utf8')).toBe(secret);
    expect(key).toHaveLength(32);
    expect(readFileSync(join(dir, 'dev-secrets-key'), 'utf8')).toBe(key.toString('base64'));
  });
});

import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runNode } from '../support/run-command';

const CLI = join(ROOT, 'dist', 'tools', 'cli', 'main.js');
/** platform-environment's port: the middle one, so the check cannot be passing by luck of order. */
const TAKEN = 3002;

/** A second `npm start` while one runs: one line naming the port, exit 1, and nothing started. */
describe('npm start when a port of the platform is taken', () => {
  let listener: Server;

  beforeAll(async () => {
    listener = createServer();
    await new Promise<void>((done, fail) => listener.once('error', fail).listen(TAKEN, '127.0.0.1', done));
  });
  afterAll(() => new Promise<void>((done) => listener.close(() => done())));

  it('says in one line which port is taken and by which app, exits non-zero, prints no banner or token', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds before running jest`);
    const database = join(mkdtempSync(join(tmpdir(), 'platform-port-taken-')), 'platform.sqlite');

    const result = await runNode([CLI, 'platform'], { DATABASE_URL: `sqlite:${database}` });

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Port ${TAKEN} (platform-environment) is already in use, perhaps by a running npm start: stop it or free the port.\n`);
    expect(existsSync(database)).toBe(false);
  });
});

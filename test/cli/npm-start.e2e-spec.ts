import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/run-command';

const CLI = join(ROOT, 'dist', 'tools', 'cli', 'main.js');
const ACME = '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01';
const ACME_PRODUCTION = '1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02';

/**
 * What a newcomer sees after `npm ci && npm start` (npm start builds, then runs this command):
 * a fresh SQLite file, migrated, the demo data, three apps, their URLs and a working token.
 */
describe('npm start on a fresh machine', () => {
  it('starts the three apps on a new SQLite file with demo data and prints the URLs and a token', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds before running jest`);
    const cwd = mkdtempSync(join(tmpdir(), 'platform-start-'));
    const child = spawn(process.execPath, [CLI, 'platform'], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((done) => child.on('exit', done));

    try {
      const deadline = Date.now() + 60_000;
      while (!output.includes('Press Ctrl+C to stop.') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(output).toContain('http://localhost:3001/platform-transactional-service/docs');
      expect(output).toContain('http://localhost:3002/platform-environment/docs');
      expect(output).toContain('http://localhost:3003/platform-bot-admin/docs');
      expect(existsSync(join(cwd, 'data', 'platform.sqlite'))).toBe(true);

      const token = /Development token[^\n]*\n\n(\S+)\n/.exec(output)?.[1];
      expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      const res = await fetch(`http://127.0.0.1:3003/platform-bot-admin/org/${ACME}/env/${ACME_PRODUCTION}/bots-admin`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { bots: Array<{ name: string }> }).bots.map((b: { name: string }) => b.name)).toEqual(['Sales assistant', 'Support assistant']);
      const docs = await fetch('http://127.0.0.1:3002/platform-environment/docs-json');
      expect(docs.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});

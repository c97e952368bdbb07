import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
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
async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !condition(); i++) await new Promise((r) => setTimeout(r, 100));
  expect(condition()).toBe(true);
}

/** Whether a TCP connection to host:port (loopback addresses only) is accepted. */
function connectsTo(host: '127.0.0.1' | '127.0.0.2', port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

describe('npm start on a fresh machine', () => {
  it('starts the three apps on a new SQLite file with demo data, on loopback only, reading .env, prints the URLs, a token and a command that works, and says goodbye on Ctrl+C', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds before running jest`);
    const cwd = mkdtempSync(join(tmpdir(), 'platform-start-'));
    // What a newcomer puts beside .env.example: read, as the README says.
    writeFileSync(join(cwd, '.env'), 'LOG_LEVEL=info\n');
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
      expect(((await res.json()) as { bots: Array<{ name: string }> }).bots.map((b: { name: string }) => b.name)).toEqual([
        'Sales assistant',
        'Support assistant',
      ]);
      const docs = await fetch('http://127.0.0.1:3002/platform-environment/docs-json');
      expect(docs.status).toBe(200);

      // The banner's command runs as printed: TOKEN is set on the line before it.
      expect(output).toContain(`Try:\n  TOKEN=${token}\n  curl -H "Authorization: Bearer $TOKEN" http://localhost:3003/`);
      expect(output).toContain('listening on: 127.0.0.1 only (HOST=0.0.0.0 to open it to your network)');
      // .env's LOG_LEVEL=info reached the apps: the request above has its log line.
      expect(output).toContain('request logs: LOG_LEVEL=info');
      await waitFor(() => /"url":"\/platform-environment\/docs-json"|platform-environment\/docs-json/.test(output));
      // Bound to 127.0.0.1: another loopback address of this machine is refused.
      await expect(connectsTo('127.0.0.2', 3003)).resolves.toBe(false);
      await expect(connectsTo('127.0.0.1', 3003)).resolves.toBe(true);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(output).toContain('Stopping the platform');
      expect(output).toMatch(/Stopped\.\n/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});

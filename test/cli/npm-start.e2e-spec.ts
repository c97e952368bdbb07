import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST_CONNECTOR_TEST_EXAMPLES, SAVED_REST_CONNECTOR_TEST_EXAMPLES } from '@app/domain';
import { APP_NODE_FLAGS, PLATFORM_APPS } from '@app/platform';
import { DEMO_IDS } from '@app/seed-data';
import { startNatsServer } from '../support/nats-server';
import { ROOT, runNode } from '../support/run-command';

/**
 * npm start listens on the fixed ports 3001-3003: every test that starts it is in this file, so that jest's workers,
 * which run files side by side, never run two of them at once.
 */
const CLI = join(ROOT, 'dist', 'tools', 'cli', 'main.js');
const ACME = '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01';
const ACME_PRODUCTION = '1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02';
const BANNER_FIRST_LINE = 'Bot Platform Management API is running';
const BANNER_LAST_LINE = 'Press Ctrl+C to stop.';

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

/** `node dist/tools/cli/main.js platform` (what npm start runs after its build) in `cwd`, its output as it comes. */
class Launch {
  output = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(cwd: string, env: NodeJS.ProcessEnv = {}, cli = CLI) {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds before running jest`);
    this.child = spawn(process.execPath, [cli, 'platform'], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    this.child.stdout.on('data', (chunk) => (this.output += chunk));
    this.child.stderr.on('data', (chunk) => (this.output += chunk));
    this.exited = new Promise((done) => this.child.on('exit', done));
  }

  /** The output up to the moment `text` appeared in it (checked every 100 ms); fails after 60 s. */
  async until(text: string): Promise<string> {
    const deadline = Date.now() + 60_000;
    while (!this.output.includes(text) && this.child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (!this.output.includes(text)) throw new Error(`"${text}" did not appear; the output:\n${this.output}`);
    return this.output;
  }

  /** The pid of one of the apps the launcher started (its children, found by their command line). */
  appPid(app: string): number {
    const children = readFileSync(`/proc/${this.child.pid}/task/${this.child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    const pid = children.find((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(`dist/apps/${app}/main.js`));
    if (pid === undefined) throw new Error(`no ${app} among the launcher's children ${children.join(', ')}`);
    return pid;
  }

  /** One app's node flags (those before its main.js) and the value of one variable of its environment. */
  appProcess(app: string, variable: string): { flags: string[]; value: string | undefined } {
    const pid = this.appPid(app);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const main = args.findIndex((arg) => arg.endsWith(`dist/apps/${app}/main.js`));
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const value = environment.find((entry) => entry.startsWith(`${variable}=`))?.slice(variable.length + 1);
    return { flags: args.slice(1, main), value };
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  async close(): Promise<void> {
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** Each app's "listening" line comes before the banner, and the banner is the last thing written. */
function expectBannerLast(output: string): void {
  const banner = output.indexOf(BANNER_FIRST_LINE);
  for (const label of ['platform-transactional-service', 'platform-environment', 'platform-bot-admin']) {
    const listening = output.indexOf(`"msg":"${label} listening on 127.0.0.1`);
    expect({ label, listening: listening >= 0 && listening < banner }).toEqual({ label, listening: true });
  }
  expect(output.slice(banner)).not.toContain('{"level"');
  expect(output.endsWith(`${BANNER_LAST_LINE}\n`)).toBe(true);
}

describe('npm start on a fresh machine', () => {
  it('starts the three apps on a new SQLite file with demo data, on loopback only, reading .env, prints the URLs, a token and a command that works, and says goodbye on Ctrl+C', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'platform-start-'));
    // What a newcomer puts beside .env.example: read, as the README says.
    writeFileSync(join(cwd, '.env'), 'LOG_LEVEL=info\n');
    const sut = new Launch(cwd);

    try {
      const atStart = await sut.until(BANNER_LAST_LINE);
      // LOG_LEVEL=info: every start-up line is written, and the banner after all of them.
      expectBannerLast(atStart);
      expect(atStart).toContain('http://localhost:3001/platform-transactional-service/docs');
      expect(atStart).toContain('http://localhost:3002/platform-environment/docs');
      expect(atStart).toContain('http://localhost:3003/platform-bot-admin/docs');
      // Development defaults: the demo echo target alone is admitted, and served.
      expect(atStart).toContain('\n  test runs reach: public addresses, and 127.0.0.2/32 (OUTBOUND_ALLOWED_CIDRS)\n');
      expect(atStart).toContain('\n  demo echo target: http://127.0.0.2:3004 (the demo connectors and the test-run examples call it)\n');
      expect(atStart).toContain('\n  NATS: no broker: events via the feed only (NATS_URL publishes them to NATS JetStream)\n');
      expect(existsSync(join(cwd, 'data', 'platform.sqlite'))).toBe(true);
      // Started as the image starts each app: its node flags, and two malloc arenas where the environment sets no bound.
      for (const app of Object.values(PLATFORM_APPS)) {
        expect({ app: app.name, ...sut.appProcess(app.name, 'MALLOC_ARENA_MAX') }).toEqual({ app: app.name, flags: [...APP_NODE_FLAGS], value: '2' });
      }

      const token = /Development token[^\n]*\n\n(\S+)\n/.exec(atStart)?.[1];
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

      // Swagger UI's test-run examples, as they are, succeed on the demo data: they call the demo echo target.
      const runs = [
        ...Object.entries(REST_CONNECTOR_TEST_EXAMPLES).map(([name, example]) => ({ name, path: 'test', example })),
        ...Object.entries(SAVED_REST_CONNECTOR_TEST_EXAMPLES).map(([name, example]) => ({ name, path: `${DEMO_IDS.weatherConnector}/test`, example })),
      ];
      const outcomes: Record<string, string> = {};
      for (const { name, path, example } of runs) {
        const run = await fetch(
          `http://127.0.0.1:3001/platform-transactional-service/org/${ACME}/env/${ACME_PRODUCTION}/bot/${DEMO_IDS.supportBot}/rest-connectors/${path}`,
          {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify((example as { value: object }).value),
          },
        );
        const answer = (await run.json()) as { outcome: string; output: { values: unknown[] | null } | null };
        outcomes[name] = `${run.status} ${answer.outcome} ${JSON.stringify(answer.output?.values)}`;
      }
      expect(outcomes).toEqual({
        noAuth: '200 SUCCESS ["Lisbon"]',
        bearer: '200 SUCCESS ["/api/stock/SKU-1042"]',
        clientCredentials: '200 SUCCESS ["Ana Lima"]',
        asStored: expect.stringMatching(/^200 SUCCESS \[\{"method":"GET","path":"\/v1\/forecast","query":\{"city":"Lisbon"\}/),
        withEdits: '200 SUCCESS [{"city":"Porto","lang":"en"}]',
      });

      // The banner's command runs as printed: TOKEN is set on the line before it.
      expect(atStart).toContain(`Try:\n  TOKEN=${token}\n  curl -H "Authorization: Bearer $TOKEN" http://localhost:3003/`);
      expect(atStart).toContain('listening on: 127.0.0.1 only (HOST=0.0.0.0 to open it to your network)');
      // .env's LOG_LEVEL=info reached the apps: the request above has its log line.
      expect(atStart).toContain('request logs: LOG_LEVEL=info');
      await waitFor(() => /"url":"\/platform-environment\/docs-json"|platform-environment\/docs-json/.test(sut.output));
      // Bound to 127.0.0.1: another loopback address of this machine is refused.
      await expect(connectsTo('127.0.0.2', 3003)).resolves.toBe(false);
      await expect(connectsTo('127.0.0.1', 3003)).resolves.toBe(true);

      sut.signal('SIGINT');
      expect(await sut.exited).toBe(0);
      expect(sut.output).toContain('Stopping the platform');
      expect(sut.output).toMatch(/Stopped\.\n/);
    } finally {
      await sut.close();
    }
  }, 90_000);

  it('shows the NATS servers and the admitted ranges in the banner, after the broker said it is connected', async () => {
    const nats = await startNatsServer({ name: 'npm-start' });
    const cwd = mkdtempSync(join(tmpdir(), 'platform-start-'));
    const sut = new Launch(cwd, {
      LOG_LEVEL: 'info',
      NATS_URL: nats.url,
      NATS_STREAM: 'NPM_START_BANNER',
      OUTBOUND_ALLOWED_CIDRS: '127.0.0.2/32',
      MALLOC_ARENA_MAX: '3',
    });

    try {
      const atStart = await sut.until(BANNER_LAST_LINE);
      // A bound the environment sets is the apps' own.
      expect(sut.appProcess('bot-admin', 'MALLOC_ARENA_MAX').value).toBe('3');

      expectBannerLast(atStart);
      expect(atStart).toContain(`\n  NATS: ${nats.url}, stream NPM_START_BANNER\n`);
      expect(atStart).toContain('\n  test runs reach: public addresses, and 127.0.0.2/32 (OUTBOUND_ALLOWED_CIDRS)\n');
      expect(atStart.indexOf('connector events: connected to NATS, publishing to stream NPM_START_BANNER')).toBeGreaterThan(-1);
      expect(atStart.indexOf('connector events: connected to NATS')).toBeLessThan(atStart.indexOf(BANNER_FIRST_LINE));
    } finally {
      await sut.close();
      await nats.close();
    }
  }, 90_000);

  it('when an app dies, names it and how it ended, stops the other two and exits non-zero', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'platform-start-'));
    const sut = new Launch(cwd);

    try {
      await sut.until(BANNER_LAST_LINE);
      process.kill(sut.appPid('environment'), 'SIGKILL');

      expect(await sut.exited).toBe(1);
      expect(sut.output).toContain('\nplatform-environment stopped (killed by SIGKILL): stopping the other apps.\n');
      expect(sut.output.endsWith('\nThe platform stopped because platform-environment stopped (killed by SIGKILL).\n')).toBe(true);
      await expect(connectsTo('127.0.0.1', 3001)).resolves.toBe(false);
      await expect(connectsTo('127.0.0.1', 3003)).resolves.toBe(false);
    } finally {
      await sut.close();
    }
  }, 90_000);

  it('when an app fails at start, names it with its exit code, stops the other two, prints no banner and exits non-zero', async () => {
    // The built launcher beside the built apps, but an environment app that fails at once.
    const layout = mkdtempSync(join(tmpdir(), 'platform-start-layout-'));
    mkdirSync(join(layout, 'dist', 'tools', 'cli'), { recursive: true });
    mkdirSync(join(layout, 'dist', 'apps', 'environment'), { recursive: true });
    copyFileSync(CLI, join(layout, 'dist', 'tools', 'cli', 'main.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(layout, 'node_modules'));
    for (const app of ['transactional-service', 'bot-admin']) symlinkSync(join(ROOT, 'dist', 'apps', app), join(layout, 'dist', 'apps', app), 'dir');
    writeFileSync(join(layout, 'dist', 'apps', 'environment', 'main.js'), "process.stderr.write('environment: cannot start\\n'); process.exit(3);\n");
    const sut = new Launch(mkdtempSync(join(tmpdir(), 'platform-start-')), {}, join(layout, 'dist', 'tools', 'cli', 'main.js'));

    try {
      expect(await sut.exited).toBe(1);
      expect(sut.output).toContain('environment: cannot start\nplatform-environment stopped during start (exit code 3): stopping the other apps.\n');
      expect(sut.output).not.toContain(BANNER_FIRST_LINE);
      await expect(connectsTo('127.0.0.1', 3001)).resolves.toBe(false);
      await expect(connectsTo('127.0.0.1', 3003)).resolves.toBe(false);
    } finally {
      await sut.close();
    }
  }, 90_000);
});

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

import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { aConnectorBody, ALICE, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { freePort } from '../support/free-port';
import { ROOT } from '../support/run-command';
import { TEST_JWT_SECRET } from '../support/test-config';
import { bearer, signToken } from '../support/tokens';

/** The flags the production image starts the apps with (docker/Dockerfile's CMD). */
const PRODUCTION_NODE_FLAGS = ['--max-old-space-size=128', '--no-allocation-site-pretenuring'];

/**
 * The payloads of an outside probe that stopped a replica (issue 26), against the built transactional service
 * started as the production image starts it: each run answers 200 with `output.error` or bounded values, and the
 * process keeps answering, its health included, the whole time.
 */
describe('Hostile output expressions and answers, against the built app under the production heap flags', () => {
  let app: ChildProcess;
  let exited: Promise<number | null>;
  let stderr = '';
  let base: string;
  let tenant: Tenant;
  let token: string;
  let side: FarSide;
  /** What the far side answers, by path. */
  const answers: Record<string, string> = {};

  beforeAll(async () => {
    const main = join(ROOT, 'dist', 'apps', 'transactional-service', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: npm test builds before running jest`);
    const dataSource = await new PlatformDataSource(
      buildDataSourceOptions(parseServerUrl(process.env.TEST_DATABASE_URL!), { migrationsRun: false }),
    ).initialize();
    tenant = await seedTenant(dataSource);
    await dataSource.destroy();
    side = await farSide((received, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(answers[received.url] ?? '{}');
    });
    const port = await freePort();
    app = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, main], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PORT: String(port),
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
        OUTBOUND_ALLOWED_CIDRS: '127.0.0.2/32',
        CONNECTOR_TEST_PER_MINUTE: '1000',
        RATE_LIMIT_PER_MINUTE: '100000',
        LOG_LEVEL: 'warn',
      },
    });
    app.stderr!.on('data', (chunk) => (stderr += chunk));
    exited = new Promise((done) => app.on('exit', done));
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if ((await fetch(`${base}/health/ready`).catch(() => undefined))?.ok) break;
      await new Promise((wait) => setTimeout(wait, 150));
    }
    token = await signToken(ALICE);
  });
  afterAll(async () => {
    app.kill('SIGTERM');
    await exited;
    await side.close();
  });

  /** One test run of an unsaved connector whose far side answers `answer` and whose output is `output`. */
  async function run(name: string, output: string, answer: string) {
    answers[`/${name}`] = answer;
    const res = await fetch(`${base}${tenantPath(tenant)}/test`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ connector: aConnectorBody({ url: `${side.url}/${name}`, output }) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { outcome: string; durationMs: number; output: { values: unknown[] | null; valuesTruncated: boolean; error: string | null } },
    };
  }

  /** The app still answers, and has not exited. */
  async function stillServing() {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect(app.exitCode).toBeNull();
  }

  it('a descendant query that multiplies on a 60-byte answer: values bounded, the process alive', async () => {
    const { status, body } = await run('descendants', '$..*..*..*..*..*..*..*..*', `${'['.repeat(28)}1${']'.repeat(28)}`);
    expect(status).toBe(200);
    expect(body.output).toMatchObject({ valuesTruncated: true, error: null });
    expect(body.output.values).toHaveLength(1000);
    await stillServing();
  });

  it('a descendant query that multiplies and selects nothing: stopped at its time budget', async () => {
    const { status, body } = await run('endless', '$..*..*..*..*..*..*..*..nothing', `${'['.repeat(28)}1${']'.repeat(28)}`);
    expect(status).toBe(200);
    expect(body.output).toEqual(
      expect.objectContaining({ values: null, error: 'output was not evaluated: the answer took longer than 500 ms to read, and was stopped' }),
    );
    await stillServing();
  });

  it('a union of 3,000 selectors over a 50 KB answer: refused as too large a query', async () => {
    const { status, body } = await run('union', `$[${Array(3000).fill('0').join(',')}]`, JSON.stringify(['x'.repeat(50_000)]));
    expect(status).toBe(200);
    expect(body.output.error).toMatch(/^output is too large a query for a test run/);
    await stillServing();
  });

  it('a pattern that backtracks exponentially: answered at once, in linear time', async () => {
    const { status, body } = await run('regex', "$[?match(@,'(x+)+y')]", JSON.stringify(['x'.repeat(32)]));
    expect(status).toBe(200);
    expect(body.output).toMatchObject({ values: [], error: null });
    await stillServing();
  });

  it('a far side whose JSON nests 5,000 deep, selected by $[0]: not read as JSON, never a 500', async () => {
    const { status, body } = await run('deep', '$[0]', '['.repeat(5_000) + ']'.repeat(5_000));
    expect(status).toBe(200);
    expect(body.output.error).toBe('the answer nests arrays and objects deeper than 64 levels: a test run does not read it as JSON');
    await stillServing();
  });

  it('wrote no fatal error', () => {
    expect(stderr).not.toMatch(/FATAL|heap out of memory|RangeError/);
  });
});

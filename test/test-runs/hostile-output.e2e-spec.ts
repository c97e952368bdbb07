import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { aConnectorBody, ALICE, tenantPath } from '../rest-connectors/connector-factories';
import { APP_START_TIMEOUT_MS, AppProcess, startApp } from '../support/app-process';
import { seedTenant, Tenant } from '../support/fixtures';
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
  let app: AppProcess;
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
    app = await startApp({
      args: [...PRODUCTION_NODE_FLAGS, main],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
        OUTBOUND_ALLOWED_CIDRS: '127.0.0.2/32',
        CONNECTOR_TEST_PER_MINUTE: '1000',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    token = await signToken(ALICE);
  }, APP_START_TIMEOUT_MS + 30_000);
  afterAll(async () => {
    await app?.stop('SIGTERM');
    await side?.close();
  });

  /** A request to the app; a failure to reach it says why, with what the app wrote. */
  async function request(path: string, init?: RequestInit): Promise<Response> {
    try {
      return await fetch(`${app.base}${path}`, init);
    } catch (error) {
      const state =
        app.child.exitCode === null && app.child.signalCode === null ? 'still running' : `exited (code ${app.child.exitCode}, signal ${app.child.signalCode})`;
      throw new Error(`${path} could not reach the built app (${state}): ${(error as Error).cause ?? error}\n${app.tail()}`, { cause: error });
    }
  }

  /** One test run of an unsaved connector whose far side answers `answer` and whose output is `output`. */
  async function run(name: string, output: string, answer: string) {
    answers[`/${name}`] = answer;
    const res = await request(`${tenantPath(tenant)}/test`, {
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
    expect((await request('/health/live')).status).toBe(200);
    expect(app.child.exitCode).toBeNull();
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
    expect(app.stderr).not.toMatch(/FATAL|heap out of memory|RangeError/);
  });
});

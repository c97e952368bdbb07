import { buildDataSourceOptions, DatabaseConfig, PlatformDataSource } from '@app/domain';
import { DRAIN_TIMEOUT_MS, parseServerUrl } from '@app/platform';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { APP_START_TIMEOUT_MS, AppProcess, startApp } from '../support/app-process';
import { seedTenant, Tenant } from '../support/fixtures';
import { ROOT } from '../support/run-command';
import { TEST_JWT_SECRET } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { signToken } from '../support/tokens';
import { getAlone as get, openRaw, Outcome, parseRawResponse } from '../support/raw-http';
import { until } from '../support/connector-events';

/** What a waiting long poll must get at SIGTERM: a whole 200 with no event, a cursor, and `Connection: close`. */
const answeredAtDrain = {
  status: 200,
  headers: expect.objectContaining({ connection: 'close' }),
  body: expect.stringMatching(/^\{"events":\[\],"cursor":"[A-Za-z0-9_-]{48}"\}$/),
};

const ENGINES: Array<[string, () => Promise<{ url: string; tenant: Tenant; drop(): Promise<void> }>]> = [
  [
    'MariaDB',
    async () => {
      const database = uniqueDatabaseName('platform_feed_stop');
      const url = await createMigratedDatabase(database);
      return { url, tenant: await seeded(parseServerUrl(url)), drop: () => dropDatabase(database) };
    },
  ],
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'platform-feed-stop-'));
      const path = join(dir, 'platform.sqlite');
      return { url: `sqlite:${path}`, tenant: await seeded({ type: 'sqlite', path }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
];

/** A tenant in `database`, migrated first (SQLite migrates on connect, as the app does). */
async function seeded(database: DatabaseConfig): Promise<Tenant> {
  const dataSource = new PlatformDataSource(buildDataSourceOptions(database));
  await dataSource.initialize();
  try {
    return await seedTenant(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The built transactional service, as Kubernetes runs it, receives SIGTERM while 50 long polls of the change feed
 * wait (`wait=30`): each is answered at once, whole, with its cursor and `Connection: close`; a poll that arrives
 * during the drain is answered without waiting; readiness says 503; nothing is cut, and the process exits 0 within
 * the drain's bound (docs/operations.md, "Shutdown (SIGTERM)").
 */
describe.each(ENGINES)('SIGTERM with long polls of the change feed waiting (%s)', (_engine, prepare) => {
  let app: AppProcess | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await app?.stop();
    await drop?.();
  });

  it(
    'answers every waiting poll at once and each new one without waiting, then stops cleanly',
    async () => {
      const main = join(ROOT, 'dist', 'apps', 'transactional-service', 'main.js');
      if (!existsSync(main)) throw new Error(`${main} is missing: npm test builds before running jest`);
      const database = await prepare();
      drop = database.drop;
      const { tenant } = database;
      app = await startApp({ args: [main], env: { PATH: process.env.PATH, DATABASE_URL: database.url, AUTH_JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info' } });
      const { port, exited } = app;
      const output = () => app!.output;
      const waitFor = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number) =>
        until(what, check, timeoutMs).catch((error: Error) => {
          throw new Error(`${error.message}; the app's output:\n${output().slice(-5_000)}`);
        });

      const headers = { Authorization: `Bearer ${await signToken({ orgs: [tenant.organization.uuid] })}` };
      const feed = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events?after=now&wait=30`;
      const polls = Array.from({ length: 50 }, () => get(port, feed, headers));
      await waitFor('50 long polls waiting', async () => gauge(await get(port, '/metrics'), 'connector_event_feed_waiting') === 50, 20_000);

      // A create whose body has not all arrived: a request in flight, which keeps the draining app listening until
      // the new poll below has been answered, however slowly this machine gets to send it.
      const held = await openRaw(port);
      const connectors = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bot/${tenant.bot.uuid}/rest-connectors`;
      held.socket.write(
        `POST ${connectors} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await signToken({ orgs: [tenant.organization.uuid], scope: 'connectors:write' })}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{`,
      );
      await waitFor('the create to be in flight', async () => gauge(await get(port, '/metrics'), 'http_requests_in_flight') === 50 + 1 + 1, 20_000);

      app.child.kill('SIGTERM');
      const signalledAt = Date.now();
      await waitFor('the app to say it drains', () => output().includes('SIGTERM: draining'));
      const [readiness, newPoll, answers] = await Promise.all([get(port, '/health/ready'), get(port, feed, headers), Promise.all(polls)]);
      // The create's last byte: answered whole (an empty body is a 400) with `Connection: close`, then the drain ends.
      held.socket.write('}');
      const heldAnswer = parseRawResponse(await held.closed);
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise((done) => (timer = setTimeout(() => done('still running'), 2 * DRAIN_TIMEOUT_MS)))]);
      clearTimeout(timer);
      const stoppedWithinMs = Date.now() - signalledAt;

      expect(answers).toEqual(Array.from({ length: 50 }, () => answeredAtDrain));
      expect(newPoll).toEqual(answeredAtDrain);
      expect(heldAnswer).toMatchObject({ status: 400, headers: expect.objectContaining({ connection: 'close' }) });
      expect(readiness).toMatchObject({ status: 503 });
      expect(code).toBe(0);
      // Generous: the drain's own bound, twice (it ends at once here: nothing holds it).
      expect(stoppedWithinMs).toBeLessThan(2 * DRAIN_TIMEOUT_MS);
      expect(output()).toContain('Stopped cleanly');
      // No error line: readiness's 503 while draining is a refusal with Retry-After, logged as a warning.
      const errors = output()
        .split('\n')
        .filter((line) => /"level":"(error|fatal)"/.test(line));
      expect(errors).toEqual([]);
    },
    APP_START_TIMEOUT_MS + 90_000,
  );
});

/**
 * A gauge's value in a /metrics answer: `connector_event_feed_waiting`, the long polls waiting in the process;
 * `http_requests_in_flight`, the requests it is answering (the /metrics request itself included).
 */
function gauge(metrics: Outcome, name: string): number | undefined {
  if (!('status' in metrics)) return undefined;
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(metrics.body);
  return match ? Number(match[1]) : undefined;
}

import { AppConfig } from '@app/platform';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { jetStreamAdmin, storedMessages, until } from '../support/connector-events';
import { seedTenant } from '../support/fixtures';
import { freePort } from '../support/free-port';
import { TEST_NATS_URL } from '../support/nats-server';
import { sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { signToken } from '../support/tokens';
import { ALICE, createConnector } from '../rest-connectors/connector-factories';

/** The app's log lines name their level (libs/platform/src/logging/logger.ts): a warning, or worse. */
const WARNINGS = ['warn', 'error', 'fatal'];
const WAITING = 3;

/**
 * The transactional service's start with NATS_URL, with events already waiting in the outbox, as `npm start` has them
 * (the demo data's events, on an SQLite file): the relay takes its lease and has something to publish before the
 * publisher's first connection is made. A start that connects says nothing above info; one that cannot connect says so.
 */
describe('The transactional service starting with NATS_URL and events waiting in the outbox', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  /** A database of its own holding WAITING events written while no broker was configured: numbered, never published. */
  async function outboxWithWaitingEvents(): Promise<AppConfig['database']> {
    const { database } = sqliteTestConfig();
    const writer = await startTestApp(TRANSACTIONAL_SERVICE_APP, sqliteTestConfig({ database }));
    try {
      const tenant = await seedTenant(writer.dataSource);
      const token = await signToken(ALICE);
      for (let n = 0; n < WAITING; n++) await createConnector(writer, tenant, token);
    } finally {
      await writer.close();
    }
    return database;
  }

  /** The service on `database`, logging at info, publishing to `natsUrl` on a stream of its own. */
  async function startWithNats(database: AppConfig['database'], natsUrl: string, stream: string): Promise<TestApp> {
    const changeEvents = { natsUrl, stream, retentionDays: 7, maxPublishAttempts: 5, subjectPrefix: `test.${stream.toLowerCase()}` };
    // nestjs-pino keeps, module-wide, the logger of the first app it saw for the lines logged outside a request (the
    // publisher's, the relay's): forgotten here, so that this app's lines reach its own logs, not the writer's.
    __resetOutOfContextForTests();
    const sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, sqliteTestConfig({ database, changeEvents, logLevel: 'info' }));
    apps.push(sut);
    return sut;
  }
  const warnings = (sut: TestApp) => sut.logs.filter((line) => WARNINGS.includes(String(line.level))).map(({ level, msg, err }) => ({ level, msg, err }));
  const publishedThrough = async (sut: TestApp) =>
    Number((await sut.dataSource.query('SELECT published_through AS published FROM connector_event_relay WHERE id = 1'))[0].published);

  it("logs no warning on the way to its first connection to this machine's NATS, and publishes what waited", async () => {
    const database = await outboxWithWaitingEvents();
    const stream = `TEST_START_${randomUUID().slice(0, 8)}`;
    const nats = await jetStreamAdmin(TEST_NATS_URL);
    try {
      const sut = await startWithNats(database, TEST_NATS_URL, stream);
      await until('the waiting events published and marked', async () => (await publishedThrough(sut)) >= WAITING, 30_000);

      expect(await storedMessages(nats.jsm, stream)).toHaveLength(WAITING);
      expect(sut.logs.map(({ msg }) => msg)).toContain(`connector events: connected to NATS, publishing to stream ${stream}`);
      expect(warnings(sut)).toEqual([]);
    } finally {
      await nats.jsm.streams.delete(stream).catch(() => undefined);
      await nats.close();
    }
  });

  it('warns when NATS cannot be reached (nothing listens on its port), and keeps the events in the outbox', async () => {
    const database = await outboxWithWaitingEvents();
    const closed = `nats://127.0.0.1:${await freePort()}`;
    const sut = await startWithNats(database, closed, `TEST_START_${randomUUID().slice(0, 8)}`);

    await until('a warning that NATS is unreachable', () => warnings(sut).some(({ msg }) => String(msg).startsWith('connector events: NATS is unreachable')));
    expect(await publishedThrough(sut)).toBe(0);
    expect((await sut.http.get('/health/ready').expect(200)).body.checks.nats).toBe('down');
  });
});

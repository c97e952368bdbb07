import { buildDataSourceOptions, ConnectorEventRepository, openDatabase, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { metricOf, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/connector-events';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { signToken } from '../support/tokens';
import { ALICE, createConnector, tenantPath } from '../rest-connectors/connector-factories';
import { bearer } from '../support/tokens';
import { FeedConsumer, positionOf } from './feed-consumer';
import { relayTiming } from './relay-timing';

const feedPathOf = (tenant: Tenant) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`;

describe('Connector change events: the relay (MariaDB)', () => {
  let database: string;
  let url: string;
  const apps: TestApp[] = [];
  let token: string;

  /** An app of the transactional service on the suite's own database, quick to follow a lease that moved. */
  const startApp = async (timing = {}) => {
    const app = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ database: parseServerUrl(url) }), {
      providers: [relayTiming({ followerMs: 100, leaseMs: 2_000, ...timing })],
    });
    apps.push(app);
    return app;
  };
  const leaders = async (candidates: TestApp[]) =>
    (await Promise.all(candidates.map((app) => metricOf(app, 'connector_event_relay_leader')))).filter((v) => v === 1).length;

  beforeAll(async () => {
    database = uniqueDatabaseName('platform_relay');
    url = await createMigratedDatabase(database);
    token = await signToken(ALICE);
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await dropDatabase(database);
  });

  it('runs one relay at a time across app instances, and another takes over when the leader stops or its lease expires', async () => {
    const [a, b] = [await startApp(), await startApp()];
    await until('one leader', async () => (await leaders([a, b])) === 1, 30_000);
    const [leader, follower] = (await metricOf(a, 'connector_event_relay_leader')) === 1 ? [a, b] : [b, a];
    const tenant = await seedTenant(follower.dataSource);
    const consumer = await new FeedConsumer(follower, token, feedPathOf(tenant)).fromNow();

    // Written through the follower, numbered by the leader.
    const first = await createConnector(follower, tenant, token);
    expect((await consumer.until(1)).map(({ event }) => event.subject)).toEqual([first]);
    expect(await leaders([a, b])).toBe(1);

    // The leader stops: it gives the lease up, the other takes it.
    await leader.close();
    apps.splice(apps.indexOf(leader), 1);
    await until('the follower leads', async () => (await metricOf(follower, 'connector_event_relay_leader')) === 1, 30_000);
    const second = await createConnector(follower, tenant, token);
    expect((await consumer.until(2)).map(({ event }) => event.subject)).toEqual([first, second]);

    // A relay that stalls past its lease (here: the lease handed to a pod that died) is fenced out: it changes
    // nothing until the lease expires, then one relay takes it and goes on from where the outbox is.
    const c = await startApp();
    await follower.dataSource.query("UPDATE connector_event_relay SET holder = 'a-pod-that-died', lease_until = ? WHERE id = 1", [
      new Date(Date.now() + 1_500),
    ]);
    const third = await createConnector(follower, tenant, token);
    await until('a relay took the expired lease', async () => (await leaders([follower, c])) === 1, 30_000);
    expect((await consumer.until(3)).map(({ event }) => event.subject)).toEqual([first, second, third]);
    const [{ holder }] = await follower.dataSource.query('SELECT holder FROM connector_event_relay WHERE id = 1');
    expect(holder).not.toBe('a-pod-that-died');
    expect(consumer.problems()).toEqual([]);
  });

  it('purges the events older than EVENTS_RETENTION_DAYS; a cursor among them answers 410, the feed goes on', async () => {
    // The only app on the database: its relay leads, and purges every 200 ms.
    for (const app of apps.splice(0)) await app.close();
    const sut = await startApp({ purgeEveryMs: 200 });
    const tenant = await seedTenant(sut.dataSource);
    const consumer = await new FeedConsumer(sut, token, feedPathOf(tenant)).fromNow();
    const old = [await createConnector(sut, tenant, token), await createConnector(sut, tenant, token)];
    const oldEvents = await consumer.until(2);
    const purgedBefore = await metricOf(sut, 'connector_events_purged_total');
    // Everything up to them written 8 days ago, as far as retention can tell (the default keeps 7).
    const oldThrough = await positionOf(sut, oldEvents[1]);
    await sut.dataSource.query('UPDATE connector_events SET created_at = ? WHERE position <= ?', [new Date(Date.now() - 8 * 86_400_000), oldThrough]);
    const recent = await createConnector(sut, tenant, token);
    await consumer.until(3);

    await until(
      'the old events are purged',
      async () => Number((await sut.dataSource.query('SELECT COUNT(*) AS n FROM connector_events WHERE connector_uuid IN (?, ?)', old))[0].n) === 0,
      30_000,
    );
    const [{ purged_through: purgedThrough }] = await sut.dataSource.query('SELECT purged_through FROM connector_event_relay WHERE id = 1');
    expect(Number(purgedThrough)).toBeGreaterThanOrEqual(oldThrough);
    expect(await metricOf(sut, 'connector_events_purged_total')).toBeGreaterThanOrEqual(purgedBefore + 2);
    const gone = await sut.http.get(feedPathOf(tenant)).query({ after: oldEvents[0].cursor }).set(bearer(token)).expect(410);
    expect(gone.body.message).toContain('list the connectors again');
    // The recent one is kept; from the oldest kept, the feed starts after what went.
    const kept = await sut.http.get(feedPathOf(tenant)).set(bearer(token)).expect(200);
    const subjects = kept.body.events.map((item: { event: { subject: string } }) => item.event.subject);
    expect(subjects).toContain(recent);
    expect(subjects).not.toEqual(expect.arrayContaining([old[0]]));
    await sut.close();
    apps.splice(apps.indexOf(sut), 1);
  });

  it('reports what it wrote, that it leads, and no unpublished backlog without NATS; /health/ready names no broker without NATS_URL', async () => {
    const sut = await startApp();
    await until('one leader', async () => (await leaders(apps)) === 1, 30_000);
    const leader = (await Promise.all(apps.map((app) => metricOf(app, 'connector_event_relay_leader')))).indexOf(1);
    const tenant = await seedTenant(sut.dataSource);
    const before = await metricOf(apps[leader], 'connector_events_written_total');
    const consumer = await new FeedConsumer(sut, token, feedPathOf(tenant)).fromNow();
    await createConnector(sut, tenant, token);
    await consumer.until(1);

    expect(await metricOf(apps[leader], 'connector_events_written_total')).toBeGreaterThanOrEqual(before + 1);
    expect(await metricOf(apps[leader], 'connector_events_oldest_unpublished_age_seconds')).toBe(0);
    const ready = await sut.http.get('/health/ready').expect(200);
    expect(ready.body.checks).not.toHaveProperty('nats');
  });
});

describe('Connector change events on the embedded SQLite database', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, sqliteTestConfig());
  });
  afterAll(() => sut.close());

  it('writes, numbers and serves the events without a broker', async () => {
    const tenant = await seedTenant(sut.dataSource);
    const token = await signToken(ALICE);
    const consumer = await new FeedConsumer(sut, token, feedPathOf(tenant)).fromNow();
    const uuid = await createConnector(sut, tenant, token);
    await sut.http
      .delete(`${tenantPath(tenant)}/${uuid}`)
      .set(bearer(token))
      .expect(204);

    const events = await consumer.until(2);
    expect(events.map(({ event }) => [event.subject, event.type, event.data.version])).toEqual([
      [uuid, 'connector.created.v1', 1],
      [uuid, 'connector.deleted.v1', 2],
    ]);
    expect(events[0].event.time).toMatch(/Z$/);
  });
});

/**
 * The lease, on both engines: its end is set and judged on the database's clock, so a pod whose clock is an hour off
 * neither takes a lease that runs nor waits for one that ended.
 */
describe.each([
  [
    'MariaDB',
    async () => {
      const name = uniqueDatabaseName('platform_relay_lease');
      return { config: parseServerUrl(await createMigratedDatabase(name)), drop: () => dropDatabase(name) };
    },
  ],
  ['SQLite', async () => ({ config: sqliteTestConfig().database, drop: async () => undefined })],
])("The relay's lease on %s", (_engine, open) => {
  let dataSource: PlatformDataSource;
  let sut: ConnectorEventRepository;
  let drop: () => Promise<void>;
  const row = async () => {
    const [{ holder, lease_epoch: epoch, lease_taken_at: takenAt }] = await dataSource.query(
      'SELECT holder, lease_epoch, lease_taken_at FROM connector_event_relay WHERE id = 1',
    );
    return { holder, epoch: Number(epoch), takenAt: new Date(typeof takenAt === 'string' ? `${takenAt.replace(' ', 'T')}Z` : takenAt) };
  };
  /** This process's clock `offsetMs` off (Date only: timers and the drivers' I/O run as usual). */
  const skewClock = (offsetMs: number) =>
    jest.useFakeTimers({
      now: Date.now() + offsetMs,
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });

  beforeAll(async () => {
    const target = await open();
    drop = target.drop;
    dataSource = new PlatformDataSource(buildDataSourceOptions(target.config, { migrationsRun: true }));
    await dataSource.initialize();
    sut = new ConnectorEventRepository(openDatabase(dataSource));
  });
  afterEach(() => jest.useRealTimers());
  afterAll(async () => {
    await dataSource?.destroy();
    await drop?.();
  });

  it('is taken when free, refused while it runs on the database clock (a pod an hour ahead), taken once it ended (a pod an hour behind)', async () => {
    const realNow = Date.now();
    await expect(sut.acquire('pod-a', 2_000)).resolves.toEqual({ taken: true });
    const taken = await row();
    expect(taken).toMatchObject({ holder: 'pod-a', epoch: 1 });
    expect(Math.abs(taken.takenAt.getTime() - realNow)).toBeLessThan(60_000);

    skewClock(3_600_000);
    const refused = await sut.acquire('pod-b', 2_000);
    expect(refused).toEqual({ taken: false, endsInMs: expect.any(Number) });
    expect((refused as { endsInMs: number }).endsInMs).toBeGreaterThan(0);
    expect((refused as { endsInMs: number }).endsInMs).toBeLessThanOrEqual(2_000);
    await expect(sut.renew('pod-b', 2_000)).resolves.toBe(false);
    await expect(sut.renew('pod-a', 2_000)).resolves.toBe(true);
    expect(await row()).toMatchObject({ holder: 'pod-a', epoch: 1 });

    // pod-a's lease ended a millisecond ago, as the database tells time.
    await expect(sut.renew('pod-a', -1)).resolves.toBe(true);
    skewClock(-3_600_000);
    await expect(sut.acquire('pod-b', 2_000)).resolves.toEqual({ taken: true });
    expect(await row()).toMatchObject({ holder: 'pod-b', epoch: 2 });
    await expect(sut.renew('pod-a', 2_000)).resolves.toBe(false);
    await expect(sut.markPublished('pod-a', 2_000, 1)).resolves.toBe(false);
    await expect(sut.sequence('pod-a', 2_000, 10)).resolves.toBeNull();
  });
});

import { buildDataSourceOptions, PlatformDataSource, RestConnector } from '@app/domain';
import { AppConfig, parseServerUrl } from '@app/platform';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, tenantPath } from '../rest-connectors/connector-factories';
import { aBot, anEnvironment, anOrganization, importData, Tenant } from '../support/fixtures';
import { ReplicationPair, startReplicationPair } from '../support/mariadb-replication';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_REDIS_URL } from '../support/test-redis';
import { bearer, signToken } from '../support/tokens';

/**
 * DATABASE_READ_URLS on real MariaDB replication (a primary and a GTID replica of their own, on loopback):
 * where reads go, read-your-writes whatever the replica's lag, the Consistency-Token, and the staleness bound.
 */
describe('Read replicas on real replication', () => {
  const organization = anOrganization();
  const environment = anEnvironment(organization.uuid);
  const bot = aBot(environment.uuid, { name: 'Bot of both' });
  const tenant: Tenant = { organization, environment, bot };
  let pair: ReplicationPair;
  let primary: PlatformDataSource;
  let replica: PlatformDataSource;
  let config: AppConfig;
  /** Two replicas of the transactional service sharing Redis, and the bot admin. */
  let connectors: TestApp;
  let otherConnectors: TestApp;
  let bots: TestApp;
  let writer: string;
  let reader: string;

  const base = () => tenantPath(tenant);
  const open = (url: string) => new PlatformDataSource(buildDataSourceOptions(parseServerUrl(url), { migrationsRun: false })).initialize();
  const onReplica = async (uuid: string) => replica.getRepository(RestConnector).countBy({ uuid });
  const apps = () => [connectors, otherConnectors, bots];

  /**
   * Until `app`'s readiness says replica-1 is in `state` and, with `loggedSince`, the app has logged that change since
   * its `loggedSince`-th log line. Readiness works the state out when asked, from the lag at that moment; the log line
   * comes with the replica's next probe (every 500 ms, later on a busy machine), as does a state the probes find (a
   * replica serving again): the state is waited for, not a time.
   */
  async function untilReplicaIs(app: TestApp, state: string, loggedSince?: number): Promise<void> {
    const current = async () => (await app.http.get('/health/ready').expect(200)).body.checks.replicas['replica-1'].state;
    const told = () => loggedSince === undefined || app.logs.slice(loggedSince).some((line) => line.replica === 'replica-1' && line.state === state);
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      if ((await current()) === state && told()) break;
    }
    expect({ state: await current(), told: told() }).toEqual({ state, told: true });
  }

  beforeAll(async () => {
    pair = await startReplicationPair({ name: 'read-replicas' });
    const urls = await pair.createMigratedDatabase('platform');
    primary = await open(urls.primaryUrl);
    replica = await open(urls.replicaUrl);
    await importData(primary, { organizations: [organization], environments: [environment], bots: [bot] });
    await pair.caughtUp();
    // A lag bound far above anything here: the replica serves every plain read, however stale.
    config = mysqlTestConfig({
      database: parseServerUrl(urls.primaryUrl, [urls.replicaUrl], { replicaMaxLagMs: 600_000 }),
      redisUrl: TEST_REDIS_URL,
    });
    [connectors, otherConnectors, bots] = await Promise.all([
      startTestApp(TRANSACTIONAL_SERVICE_APP, config),
      startTestApp(TRANSACTIONAL_SERVICE_APP, config),
      startTestApp(BOT_ADMIN_APP, config),
    ]);
    // Every test starts with the replica serving reads in every app.
    for (const app of apps()) await untilReplicaIs(app, 'up');
    const run = Math.random().toString(36).slice(2);
    writer = await signToken({ sub: `writer-${run}`, scope: 'connectors:write' });
    reader = await signToken({ sub: `reader-${run}`, scope: 'connectors:write' });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(apps().map((app) => app?.close()));
    await primary?.destroy();
    await replica?.destroy();
    await pair?.close();
  });
  afterEach(async () => {
    await pair.startSqlThread();
    await pair.setDelay(0);
    await pair.caughtUp();
    for (const app of apps()) await untilReplicaIs(app, 'up');
  }, 90_000);

  it('sends plain reads to the replica and writes to the primary', async () => {
    // A bot only the replica has (the replica writes no binary log: nothing of it goes anywhere).
    const replicaOnly = aBot(environment.uuid, { name: 'Bot only on the replica' });
    await importData(replica, { bots: [replicaOnly] });
    const botPath = `/platform-bot-admin/org/${organization.uuid}/env/${environment.uuid}/bots-admin/${replicaOnly.uuid}`;

    const read = await bots.http.get(botPath).set(bearer(reader)).expect(200);
    const created = await connectors.http.post(base()).set(bearer(writer)).send(aConnectorBody()).expect(201);

    expect(read.body.name).toBe('Bot only on the replica');
    expect(await primary.getRepository(RestConnector).countBy({ uuid: created.body.uuid })).toBe(1);
  });

  it('registers no global interceptor with replicas either: reads skip Nest\'s interceptor path, each write records itself (docs/performance.md, "Read replicas")', () => {
    const nest = (connectors.app as unknown as { config: { getGlobalInterceptors(): unknown[]; getGlobalRequestInterceptors(): unknown[] } }).config;

    expect([...nest.getGlobalInterceptors(), ...nest.getGlobalRequestInterceptors()]).toEqual([]);
  });

  it('lets a caller read its own create, update, delete and restore at once, while the replica applies nothing', async () => {
    await pair.stopSqlThread();

    const created = await connectors.http
      .post(base())
      .set(bearer(writer))
      .send(aConnectorBody({ name: 'Read your writes' }))
      .expect(201);
    const uuid = created.body.uuid;
    const got = await connectors.http.get(`${base()}/${uuid}`).set(bearer(writer)).expect(200);
    const page = await connectors.http.get(`${base()}/pagination`).query({ linesPerPage: 100 }).set(bearer(writer)).expect(200);
    const list = await connectors.http.get(`${base()}/list`).set(bearer(writer)).expect(200);
    const suggested = await connectors.http.get(`${base()}/quicksearch`).query({ searchTerm: 'Read your' }).set(bearer(writer)).expect(200);
    // Another caller, with no write of its own, still reads the replica: it does not have the connector yet.
    await connectors.http.get(`${base()}/${uuid}`).set(bearer(reader)).expect(404);

    expect(got.body.name).toBe('Read your writes');
    expect(page.body.content.map((c: { uuid: string }) => c.uuid)).toContain(uuid);
    expect(list.body.data.map((c: { uuid: string }) => c.uuid)).toContain(uuid);
    expect(suggested.body).toContain('Read your writes');
    expect(await onReplica(uuid)).toBe(0);

    const updated = await connectors.http
      .put(`${base()}/${uuid}`)
      .set(bearer(writer))
      .send(aConnectorBody({ name: 'Read your update' }))
      .expect(200);
    const afterUpdate = await connectors.http.get(`${base()}/${uuid}`).set(bearer(writer)).expect(200);
    const versions = await connectors.http.get(`${base()}/${uuid}/versions`).set(bearer(writer)).expect(200);
    expect(afterUpdate.body.name).toBe('Read your update');
    expect(afterUpdate.headers.etag).toBe(updated.headers.etag);
    expect(afterUpdate.headers.etag).not.toBe(got.headers.etag);
    expect(versions.body.content.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const second = await connectors.http.get(`${base()}/${uuid}/versions/2`).set(bearer(writer)).expect(200);
    expect(second.body.snapshot.name).toBe('Read your update');

    await connectors.http.delete(`${base()}/${uuid}`).set(bearer(writer)).expect(204);
    await connectors.http.get(`${base()}/${uuid}`).set(bearer(writer)).expect(404);
    const trash = await connectors.http.get(`${base()}/deleted`).set(bearer(writer)).expect(200);
    expect(trash.body.content.map((c: { uuid: string }) => c.uuid)).toContain(uuid);

    await connectors.http.post(`${base()}/${uuid}/restore`).set(bearer(writer)).expect(200);
    await connectors.http.get(`${base()}/${uuid}`).set(bearer(writer)).expect(200);
    expect(await onReplica(uuid)).toBe(0);
  });

  it('lets the caller read its write on another replica of the app (the position is shared in Redis)', async () => {
    await pair.stopSqlThread();

    const uuid = (await connectors.http.post(base()).set(bearer(writer)).send(aConnectorBody()).expect(201)).body.uuid;
    const onOther = await otherConnectors.http.get(`${base()}/${uuid}`).set(bearer(writer));

    expect(onOther.status).toBe(200);
    expect(await onReplica(uuid)).toBe(0);
  });

  it('answers every write with a Consistency-Token that lets anyone who sends it back read that write', async () => {
    await pair.stopSqlThread();

    const created = await connectors.http.post(base()).set(bearer(writer)).send(aConnectorBody()).expect(201);
    const token = created.headers['consistency-token'];
    const uuid = created.body.uuid;
    const withToken = await otherConnectors.http.get(`${base()}/${uuid}`).set(bearer(reader)).set('Consistency-Token', token);
    const withoutToken = await otherConnectors.http.get(`${base()}/${uuid}`).set(bearer(reader));
    const deleted = await connectors.http.delete(`${base()}/${uuid}`).set(bearer(writer)).expect(204);
    const afterDelete = await otherConnectors.http.get(`${base()}/${uuid}`).set(bearer(reader)).set('Consistency-Token', deleted.headers['consistency-token']);

    expect(token).toMatch(/^\d+-\d+-\d+(,\d+-\d+-\d+)*$/);
    expect(withToken.status).toBe(200);
    expect(withoutToken.status).toBe(404);
    expect(deleted.headers['consistency-token']).not.toBe(token);
    expect(afterDelete.status).toBe(404);
  });

  it('refuses a Consistency-Token that is not one, saying what it must be', async () => {
    for (const token of ['yesterday', '0-1-', '0-1-2,0-1-3', `0-1-${'9'.repeat(30)}`]) {
      const res = await connectors.http.get(`${base()}/list`).set(bearer(reader)).set('Consistency-Token', token).expect(400);
      expect(res.body.message).toMatch(/Consistency-Token must be the value of a Consistency-Token header a write of this API answered/);
      // The operations endpoints read nothing a token is about: a probe that forwards headers is never refused.
      await connectors.http.get('/health/ready').set('Consistency-Token', token).expect(200);
      await connectors.http.get('/metrics').set('Consistency-Token', token).expect(200);
    }
  });

  it('reads a write at once while the replica is 2 s behind (MASTER_DELAY)', async () => {
    await pair.setDelay(2);

    for (let round = 0; round < 3; round++) {
      const uuid = (
        await connectors.http
          .post(base())
          .set(bearer(writer))
          .send(aConnectorBody({ name: `Delayed ${round}` }))
          .expect(201)
      ).body.uuid;
      await connectors.http.get(`${base()}/${uuid}`).set(bearer(writer)).expect(200);
      const updated = await connectors.http
        .put(`${base()}/${uuid}`)
        .set(bearer(writer))
        .send(aConnectorBody({ name: `Delayed ${round} bis` }))
        .expect(200);
      const read = await connectors.http.get(`${base()}/${uuid}`).set(bearer(writer)).expect(200);
      expect(read.headers.etag).toBe(updated.headers.etag);
      await connectors.http.delete(`${base()}/${uuid}`).set(bearer(writer)).expect(204);
      await connectors.http.get(`${base()}/${uuid}`).set(bearer(writer)).expect(404);
    }
  }, 90_000);

  describe('with DATABASE_REPLICA_MAX_LAG_MS=1000', () => {
    let bounded: TestApp;

    beforeAll(async () => {
      bounded = await startTestApp(TRANSACTIONAL_SERVICE_APP, {
        ...config,
        database: { ...config.database, replicaMaxLagMs: 1_000 } as AppConfig['database'],
        logLevel: 'info',
      });
      await untilReplicaIs(bounded, 'up');
    }, 60_000);
    afterAll(() => bounded?.close());

    it('serves nobody from a replica further behind than the bound, and serves from it again once it caught up', async () => {
      const beforeStop = bounded.logs.length;
      await pair.stopSqlThread();
      const uuid = (await connectors.http.post(base()).set(bearer(writer)).send(aConnectorBody()).expect(201)).body.uuid;

      await untilReplicaIs(bounded, 'lagging', beforeStop);
      const reads = await Promise.all(Array.from({ length: 10 }, () => bounded.http.get(`${base()}/${uuid}`).set(bearer(reader))));
      // The state the probes settle in; a probe that timed out meanwhile shows 'stalled' until the next one answers.
      const laggingMetric = /db_replica_up\{[^}]*replica="replica-1"[^}]*state="lagging"[^}]*\} 0/;
      let metrics = '';
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && !laggingMetric.test(metrics); await new Promise((r) => setTimeout(r, 100)))
        metrics = (await bounded.http.get('/metrics').expect(200)).text;

      expect(reads.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(metrics).toMatch(laggingMetric);
      expect(metrics).toMatch(/db_replica_lag_seconds\{[^}]*replica="replica-1"[^}]*\} [1-9]/);
      expect(metrics).toMatch(/db_replica_fallback_reads_total\{[^}]*reason="no_healthy_replica"[^}]*\} ([1-9]\d+)/);
      // Each change is logged once, from the state logged before it. On a busy machine a probe may time out on the way
      // ('stalled', then 'lagging' from it): the bound is about reaching 'lagging', not about the way there.
      const changes = bounded.logs.slice(beforeStop).filter((line) => line.replica === 'replica-1' && line.state !== undefined);
      expect(changes.map((line) => line.previous)).toEqual(['up', ...changes.slice(0, -1).map((line) => line.state)]);
      expect(changes.every((line) => line.state !== line.previous)).toBe(true);
      const lagging = changes.filter((line) => line.state === 'lagging');
      expect(lagging.length).toBeGreaterThanOrEqual(1);
      expect(lagging[0]).toMatchObject({ level: 'warn' });

      const beforeStart = bounded.logs.length;
      await pair.startSqlThread();
      await untilReplicaIs(bounded, 'up', beforeStart);
      expect(bounded.logs.filter((line) => line.replica === 'replica-1' && line.state === 'up').length).toBeGreaterThanOrEqual(1);
      await bounded.http.get(`${base()}/${uuid}`).set(bearer(reader)).expect(200);
    }, 90_000);
  });
});

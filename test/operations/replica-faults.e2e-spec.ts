import { PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, tenantPath } from '../rest-connectors/connector-factories';
import { aBot, importData, Tenant } from '../support/fixtures';
import { ReplicationPair } from '../support/mariadb-replication';
import { startReplicatedTenant } from '../support/replicated-tenant';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

const UNAVAILABLE = { statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable; retry later' };

/**
 * The primary and the replica die, stall and come back, for real (SIGKILL, SIGSTOP, restart), under the
 * three apps: no crash, no 5xx for a read while one server can answer it, readiness and metrics that say so,
 * recovery without a restart.
 */
describe('Replica and primary faults on real replication', () => {
  let tenant: Tenant;
  let pair: ReplicationPair;
  let replica: PlatformDataSource;
  let connectors: TestApp;
  let bots: TestApp;
  let environments: TestApp;
  let token: string;
  let uuid: string;

  const connectorPath = () => `${tenantPath(tenant)}/${uuid}`;
  const botPath = (botUuid = tenant.bot.uuid) => `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin/${botUuid}`;
  const environmentPath = () => `/platform-environment/org/${tenant.organization.uuid}/environments/${tenant.environment.uuid}`;

  /** A plain read in each app, by a caller with no write of its own. */
  async function readEverywhere(): Promise<number[]> {
    const reader = await signToken({ sub: `reader-${Math.random()}` });
    const answers = await Promise.all([
      connectors.http.get(connectorPath()).set(bearer(reader)),
      connectors.http.get(`${tenantPath(tenant)}/list`).set(bearer(reader)),
      bots.http.get(botPath()).set(bearer(reader)),
      environments.http.get(environmentPath()).set(bearer(reader)),
    ]);
    return answers.map((answer) => answer.status);
  }

  async function readiness(app: TestApp) {
    const ready = await app.http.get('/health/ready');
    return { status: ready.status, database: ready.body.checks?.database, replica: ready.body.checks?.replicas?.['replica-1']?.state };
  }

  async function until(app: TestApp, state: string): Promise<void> {
    for (let i = 0; i < 100 && (await readiness(app)).replica !== state; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await readiness(app)).replica).toBe(state);
  }

  const stateLines = (app: TestApp, state: string) => app.logs.filter((line) => line.replica === 'replica-1' && line.state === state);

  beforeAll(async () => {
    let primaryUrl: string, replicaUrl: string;
    ({ pair, tenant, replica, primaryUrl, replicaUrl } = await startReplicatedTenant('replica-faults'));
    // Statements bounded at 1 s: a stalled server costs a request at most that, then a 503 or another server.
    const config = mysqlTestConfig({ database: parseServerUrl(primaryUrl, [replicaUrl], { statementTimeoutMs: 1_000 }), logLevel: 'info' });
    [connectors, bots, environments] = await Promise.all([
      startTestApp(TRANSACTIONAL_SERVICE_APP, config),
      startTestApp(BOT_ADMIN_APP, config),
      startTestApp(ENVIRONMENT_APP, config),
    ]);
    token = await signToken({ sub: `writer-${Math.random()}`, scope: 'connectors:write' });
    uuid = (await connectors.http.post(tenantPath(tenant)).set(bearer(token)).send(aConnectorBody()).expect(201)).body.uuid;
    await pair.caughtUp();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([connectors, bots, environments].map((app) => app?.close()));
    await replica?.destroy().catch(() => undefined);
    await pair?.close();
  });

  it('goes on reading from the primary when the replica is killed, says so once, and reads the replica again once it is back', async () => {
    await until(connectors, 'up');
    await pair.replica.kill();

    const statuses = await readEverywhere();
    const again = await readEverywhere();
    const ready = await readiness(connectors);
    const metrics = (await connectors.http.get('/metrics').expect(200)).text;

    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(again).toEqual([200, 200, 200, 200]);
    expect(ready).toEqual({ status: 200, database: 'up', replica: 'down' });
    expect(metrics).toMatch(/db_replica_up\{[^}]*replica="replica-1"[^}]*state="down"[^}]*\} 0/);
    expect(metrics).toMatch(/db_replica_fallback_reads_total\{[^}]*reason="(no_healthy_replica|replica_failed)"[^}]*\} [1-9]/);
    for (const app of [connectors, bots, environments]) expect(stateLines(app, 'down')).toHaveLength(1);

    await pair.replica.start();
    for (const app of [connectors, bots, environments]) await until(app, 'up');
    // A bot only the restarted replica has: the app reads the replica again, without a restart.
    const replicaOnly = aBot(tenant.environment.uuid, { name: 'Only on the replica' });
    await importData(replica, { bots: [replicaOnly] });
    const reader = await signToken({ sub: `reader-${Math.random()}` });
    const read = await bots.http.get(botPath(replicaOnly.uuid)).set(bearer(reader)).expect(200);
    expect(read.body.name).toBe('Only on the replica');
  });

  it('skips a replica that stops answering (SIGSTOP): reads answer 200, and the replica is marked stalled', async () => {
    await until(connectors, 'up');
    await pair.replica.pause();
    try {
      const statuses = await readEverywhere();
      await until(connectors, 'stalled');
      const after = await readEverywhere();
      const ready = await readiness(connectors);

      expect(statuses).toEqual([200, 200, 200, 200]);
      expect(after).toEqual([200, 200, 200, 200]);
      expect(ready).toEqual({ status: 200, database: 'up', replica: 'stalled' });
    } finally {
      pair.replica.resume();
    }
    await until(connectors, 'up');
  });

  it('leaves a read the replica refuses (a table it does not have yet) to the primary, and keeps using the replica', async () => {
    await until(connectors, 'up');
    // As a migration that added a table looks before the replica has applied it.
    await pair.replica.query('RENAME TABLE platform.bots TO platform.bots_not_yet');
    try {
      expect(await readEverywhere()).toEqual([200, 200, 200, 200]);
      expect((await readiness(connectors)).replica).toBe('up');
    } finally {
      await pair.replica.query('RENAME TABLE platform.bots_not_yet TO platform.bots');
    }
  });

  it('keeps serving reads from the replica while the primary is down, answers writes 503 with Retry-After, and recovers by itself', async () => {
    // Every app reads from the replica before the primary goes: each watches it on its own, and one that has not yet
    // seen it back since the stall above would still read from the primary.
    await Promise.all([connectors, bots, environments].map((app) => until(app, 'up')));
    await pair.primary.kill();
    try {
      const statuses = await readEverywhere();
      const write = await connectors.http
        .post(tenantPath(tenant))
        .set(bearer(token))
        .send(aConnectorBody({ name: 'While the primary is down' }));
      const ready = await Promise.all([connectors, bots, environments].map(readiness));

      expect(statuses).toEqual([200, 200, 200, 200]);
      expect(write.status).toBe(503);
      expect(write.body).toMatchObject({ ...UNAVAILABLE, requestId: write.headers['x-request-id'] });
      expect(write.headers['retry-after']).toBe('5');
      for (const app of ready) expect(app).toEqual({ status: 200, database: 'down', replica: 'up' });
    } finally {
      await pair.primary.start();
    }

    let created = 0;
    let answer: { status: number; body: { uuid?: string } } = { status: 0, body: {} };
    for (let i = 0; i < 50 && created !== 201; i++) {
      answer = await connectors.http
        .post(tenantPath(tenant))
        .set(bearer(token))
        .send(aConnectorBody({ name: 'After the primary came back' }));
      created = answer.status;
      if (created !== 201) await new Promise((r) => setTimeout(r, 200));
    }
    expect(created).toBe(201);
    await connectors.http
      .get(`${tenantPath(tenant)}/${answer.body.uuid}`)
      .set(bearer(token))
      .expect(200);
    expect((await readiness(connectors)).database).toBe('up');
  });

  it('bounds a write on a primary that stops answering (SIGSTOP): 503 with Retry-After, while reads go on from the replica', async () => {
    await until(connectors, 'up');
    await pair.primary.pause();
    try {
      const write = await connectors.http
        .post(tenantPath(tenant))
        .set(bearer(token))
        .send(aConnectorBody({ name: 'Into a stalled primary' }));
      const statuses = await readEverywhere();

      expect(write.status).toBe(503);
      expect(write.headers['retry-after']).toBe('5');
      expect(statuses).toEqual([200, 200, 200, 200]);
    } finally {
      pair.primary.resume();
    }
    let created = 0;
    for (let i = 0; i < 50 && created !== 201; i++) {
      created = (await connectors.http.post(tenantPath(tenant)).set(bearer(token)).send(aConnectorBody())).status;
      if (created !== 201) await new Promise((r) => setTimeout(r, 200));
    }
    expect(created).toBe(201);
  });
});

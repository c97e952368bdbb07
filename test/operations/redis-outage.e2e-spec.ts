import Redis from 'ioredis';
import { PlatformDataSource, RestConnector } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, tenantPath } from '../rest-connectors/connector-factories';
import { Tenant } from '../support/fixtures';
import { ReplicationPair } from '../support/mariadb-replication';
import { RedisServer, startRedisServer } from '../support/redis-server';
import { startReplicatedTenant } from '../support/replicated-tenant';
import { TcpProxy } from '../support/tcp-proxy';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/** A read that did not see the caller's own write. */
interface StaleRead {
  phase: string;
  reader: string;
  what: string;
  status: number;
  name?: string;
}

/**
 * Read-your-writes without a Consistency-Token while Redis fails: three replicas of the transactional service (each
 * its own memory), a real primary and GTID replica whose SQL thread is stopped before each write (so the replica
 * never has the write when it is read), and a private redis-server that is cut from the writing app only, killed by
 * its pid, and started again empty. One caller writes on one app and reads on another, before, during and after:
 * every read sees the write.
 */
describe('Read-your-writes while Redis fails', () => {
  let tenant: Tenant;
  let pair: ReplicationPair;
  let replica: PlatformDataSource;
  let redis: RedisServer;
  /** Between `a` and Redis only: cutting it cuts `a` alone from Redis. */
  let proxy: TcpProxy;
  let a: TestApp;
  let b: TestApp;
  /** Gets no request from the moment Redis fails until it is back, empty. */
  let c: TestApp;
  let caller: string;
  const stale: StaleRead[] = [];
  let checks = 0;
  /** Writes the replica still lacked after every read of them: the reads could not have come from it. */
  let missingOnReplica = 0;
  let heldWrites = 0;
  /** Where each app's log stood when an outage began and once it was over. */
  const outages: { what: string; from: Map<TestApp, number>; to?: Map<TestApp, number> }[] = [];
  const outageBegins = (what: string) => outages.push({ what, from: new Map([a, b, c].map((app) => [app, app.logs.length])) });
  const outageEnded = () => (outages[outages.length - 1].to = new Map([a, b, c].map((app) => [app, app.logs.length])));
  /**
   * How many "unreachable" lines `app` logged within each outage because of it: a command of a connection that was open
   * running out of time on a busy machine (`Socket timeout`) is a change of its own, even inside an outage's window
   * (inTurn still holds it to alternate with its recovery).
   */
  const unreachableWithin = (app: TestApp) =>
    outages.map(({ what, from, to }) => ({
      what,
      lines: app.logs
        .slice(from.get(app), to!.get(app))
        .filter((line) => String(line.msg).startsWith('read-your-writes: Redis is unreachable'))
        .filter((line) => !String((line.err as { message?: string } | undefined)?.message).startsWith('Socket timeout')).length,
    }));
  /** Whether `app` logged "unreachable" and "reachable again" in turn: once per change of its connection, never twice in a row. */
  const inTurn = (app: TestApp) =>
    app.logs
      .filter((line) => /^read-your-writes: Redis is (unreachable|reachable again)/.test(String(line.msg)))
      .every((line, i) => String(line.msg).includes(i % 2 === 0 ? 'unreachable' : 'reachable again'));

  const base = () => tenantPath(tenant);
  const nameOf = (app: TestApp) => (app === a ? 'a' : app === b ? 'b' : 'c');
  const unreachableLines = (app: TestApp) => app.logs.filter((line) => String(line.msg).startsWith('read-your-writes: Redis is unreachable'));
  const reachableLines = (app: TestApp) => app.logs.filter((line) => String(line.msg).startsWith('read-your-writes: Redis is reachable again'));
  const lostLines = (app: TestApp) => app.logs.filter((line) => String(line.msg).startsWith("read-your-writes: Redis no longer holds the callers' positions"));

  /** Waits until every app has its two connections to Redis again (rate limits, write positions): ioredis waits up to 2 s between tries. */
  async function reconnected(): Promise<void> {
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      const others = async () =>
        String(await admin.call('CLIENT', 'LIST'))
          .trim()
          .split('\n').length - 1;
      for (let i = 0; i < 200 && (await others()) < 6; i++) await new Promise((done) => setTimeout(done, 50));
      expect(await others()).toBeGreaterThanOrEqual(6);
    } finally {
      admin.disconnect();
    }
  }

  /**
   * The replica applies everything so far, until every reader has probed it since (probes come every 0.5 s) and found it
   * 0 ms behind: it serves their reads, the caller's earlier writes too. Then nothing more: the next write is on the
   * primary only. (The apps write to the primary in the background too, numbering change events: the replica falls
   * behind those as well.)
   */
  async function holdReplica(readers: TestApp[]): Promise<void> {
    await pair.startSqlThread();
    await pair.caughtUp();
    await new Promise((done) => setTimeout(done, 600));
    for (const reader of readers) {
      let seen: unknown;
      for (let i = 0; i < 200; i++) {
        seen = (await reader.http.get('/health/ready')).body.checks?.replicas?.['replica-1'];
        if (JSON.stringify(seen) === JSON.stringify({ state: 'up', lagMs: 0 })) break;
        await new Promise((done) => setTimeout(done, 50));
      }
      expect({ reader: nameOf(reader), replica: seen }).toEqual({ reader: nameOf(reader), replica: { state: 'up', lagMs: 0 } });
    }
    await pair.stopSqlThread();
  }

  /** Reads the connector back on `reader`, by id and in the list, as `name`; counts every read that did not see it. */
  async function readBack(phase: string, reader: TestApp, uuid: string, name: string): Promise<void> {
    const [got, list] = await Promise.all([reader.http.get(`${base()}/${uuid}`).set(bearer(caller)), reader.http.get(`${base()}/list`).set(bearer(caller))]);
    checks += 2;
    if (got.status !== 200 || got.body.name !== name) stale.push({ phase, reader: nameOf(reader), what: 'get', status: got.status, name: got.body.name });
    const listed =
      list.status === 200 && list.body.data.some((connector: { uuid: string; name: string }) => connector.uuid === uuid && connector.name === name);
    if (!listed) stale.push({ phase, reader: nameOf(reader), what: 'list', status: list.status });
  }

  /** Creates a connector on `writer` with the replica held, updates it, and reads each write back on every reader. */
  async function writeThenRead(phase: string, writer: TestApp, readers: TestApp[], options: { update?: boolean } = {}): Promise<void> {
    await holdReplica(readers);
    const name = `${phase} ${Math.random().toString(36).slice(2, 8)}`;
    const uuid = (await writer.http.post(base()).set(bearer(caller)).send(aConnectorBody({ name })).expect(201)).body.uuid;
    for (const reader of readers) await readBack(phase, reader, uuid, name);
    if (options.update) {
      const renamed = `${name} bis`;
      await writer.http
        .put(`${base()}/${uuid}`)
        .set(bearer(caller))
        .send(aConnectorBody({ name: renamed }))
        .expect(200);
      for (const reader of readers) await readBack(`${phase} (update)`, reader, uuid, renamed);
    }
    heldWrites++;
    if ((await replica.getRepository(RestConnector).countBy({ uuid })) === 0) missingOnReplica++;
  }

  beforeAll(async () => {
    let primaryUrl: string, replicaUrl: string;
    [{ pair, tenant, replica, primaryUrl, replicaUrl }, redis] = await Promise.all([
      startReplicatedTenant('redis-outage'),
      startRedisServer({ name: 'redis-outage' }),
    ]);
    proxy = new TcpProxy({ host: '127.0.0.1', port: redis.port });
    await proxy.start();
    // The lowest lag bound: a replica without a write serves it only within a second of it, as an unlucky read would.
    const config = mysqlTestConfig({ database: parseServerUrl(primaryUrl, [replicaUrl], { replicaMaxLagMs: 1_000 }), logLevel: 'info' });
    [a, b, c] = await Promise.all([
      startTestApp(TRANSACTIONAL_SERVICE_APP, { ...config, redisUrl: `redis://127.0.0.1:${proxy.port}` }),
      startTestApp(TRANSACTIONAL_SERVICE_APP, { ...config, redisUrl: redis.url }),
      startTestApp(TRANSACTIONAL_SERVICE_APP, { ...config, redisUrl: redis.url }),
    ]);
    caller = await signToken({ sub: `caller-${Math.random().toString(36).slice(2)}`, scope: 'connectors:write' });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a, b, c].map((app) => app?.close()));
    await replica?.destroy();
    await proxy?.stop();
    await Promise.all([pair?.close(), redis?.close()]);
  });

  it('shows every write to the caller who made it, on any app, whatever Redis does', async () => {
    // Redis answers: the position is shared.
    for (const [writer, reader] of [
      [a, b],
      [b, c],
      [c, a],
      [a, b],
    ])
      await writeThenRead('before', writer, [reader], { update: true });

    // Only the writing app is cut from Redis: the others ask Redis, which has no position for the write.
    outageBegins('a cut off');
    await proxy.cut();
    for (let i = 0; i < 3; i++) await writeThenRead('a cut off', a, [b]);
    await proxy.restore();
    outageEnded();
    await writeThenRead('a back', a, [b]);

    // Redis is killed: nobody reaches it; c gets no request until it is back.
    outageBegins('redis killed');
    await redis.kill();
    for (let i = 0; i < 2; i++) await writeThenRead('redis down', a, [b]);
    await writeThenRead('redis down', b, [a]);

    // A write stored in Redis just before Redis restarts empty, read at once on every app: c's first request since.
    await redis.start();
    await reconnected();
    outageEnded();
    await holdReplica([b, a]);
    const name = `stored then lost ${Math.random().toString(36).slice(2, 8)}`;
    const uuid = (await a.http.post(base()).set(bearer(caller)).send(aConnectorBody({ name })).expect(201)).body.uuid;
    outageBegins('redis killed again');
    await redis.kill();
    await redis.start();
    const until = Date.now() + 1_500;
    do for (const reader of [c, b, a]) await readBack('right after Redis returned empty', reader, uuid, name);
    while (Date.now() < until);
    await reconnected();
    outageEnded();
    heldWrites++;
    if ((await replica.getRepository(RestConnector).countBy({ uuid })) === 0) missingOnReplica++;

    // Redis is back, empty, and stays.
    for (const [writer, reader] of [
      [a, c],
      [c, b],
      [b, a],
      [a, c],
      [c, a],
    ])
      await writeThenRead('after', writer, [reader], { update: true });

    expect(stale).toEqual([]);
    expect(checks).toBeGreaterThanOrEqual(80);
    expect(missingOnReplica).toBe(heldWrites);
    // Once per change of each app's connection, not once per request or write: a once when it was cut, every app once
    // each time Redis was killed. A connection dropped at other times (its second without an answer ran out on a busy
    // machine) is a change of its own: not counted here, and logged once too, in turn with its recovery.
    const once = (what: string[]) => what.map((outage) => ({ what: outage, lines: 1 }));
    expect(unreachableWithin(a)).toEqual(once(['a cut off', 'redis killed', 'redis killed again']));
    expect(unreachableWithin(b).slice(1)).toEqual(once(['redis killed', 'redis killed again']));
    expect(unreachableWithin(c).slice(1)).toEqual(once(['redis killed', 'redis killed again']));
    expect([a, b, c].map(inTurn)).toEqual([true, true, true]);
    // And each outage ended with a line saying so.
    expect([a, b, c].map((app) => reachableLines(app).length >= unreachableWithin(app).filter(({ lines }) => lines > 0).length)).toEqual([true, true, true]);
    expect(unreachableLines(b)[0]).toMatchObject({ level: 'warn' });
    // Redis lost what it held twice (killed twice); each app noticed each loss once (the cut lost nothing).
    expect([a, b, c].map((app) => lostLines(app).length)).toEqual([2, 2, 2]);
  }, 240_000);
});

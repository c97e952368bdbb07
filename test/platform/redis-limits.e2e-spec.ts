import { AppConfig } from '@app/platform';
import { randomInt, randomUUID } from 'node:crypto';
import request from 'supertest';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, ALICE, errorBody, tenantPath } from '../rest-connectors/connector-factories';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { seedTenant, Tenant } from '../support/fixtures';
import { proxiedTestRedis, TcpProxy } from '../support/tcp-proxy';
import { mysqlTestConfig } from '../support/test-config';
import { TEST_REDIS_URL } from '../support/test-redis';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/**
 * The limits counted in the real Redis (REDIS_URL). Each test counts under callers of its own (a random `sub`,
 * a random documentation address as the client seen through one trusted proxy), so runs never share counts.
 * The addresses are header values only: nothing connects to them.
 */
const uniqueSub = (name: string) => `${name}-${randomUUID()}`;
const uniqueClient = () => ({ 'X-Forwarded-For': `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}::1` });

/** Polls `/health/ready` until its Redis line reads `state` (ioredis connects, or reconnects, in the background). */
async function redisLineBecomes(sut: TestApp, state: 'up' | 'down'): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ready = await sut.http.get('/health/ready');
    if (ready.status === 200 && ready.body.checks.redis === state) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`Redis never became ${state} in /health/ready`);
}

/**
 * `send` until it is answered 429 (at most 20 tries, 50 ms apart): a refusal is counted after its answer is
 * written (AddressRateLimit does not wait for Redis), so the block it completes may be seen a moment later.
 */
async function refusedSoon(send: () => request.Test): Promise<number> {
  let status = 0;
  for (let i = 0; i < 20 && status !== 429; i++) {
    if (i > 0) await new Promise((done) => setTimeout(done, 50));
    status = (await send()).status;
  }
  return status;
}

async function startOnRedis(redisUrl: string, overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig({ redisUrl, trustProxyHops: 1, logLevel: 'info', ...overrides }));
  await redisLineBecomes(sut, 'up');
  return sut;
}

/** A bot-admin app allowing 3 requests a minute, counted in Redis through a proxy the test can cut or stall, and a route of a tenant of its own. */
async function startBehindProxy(): Promise<{ proxy: TcpProxy; sut: TestApp; url: string }> {
  const { proxy, redisUrl } = await proxiedTestRedis();
  const sut = await startOnRedis(redisUrl, { rateLimitPerMinute: 3 });
  const tenant = await seedTenant(sut.dataSource);
  return { proxy, sut, url: `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin` };
}

async function stopBehindProxy(proxy: TcpProxy, sut: TestApp): Promise<void> {
  await sut.close();
  await proxy.stop();
}

describe('Rate limits across replicas: two apps on one REDIS_URL', () => {
  let replicas: TestApp[];
  let url: string;

  beforeAll(async () => {
    replicas = await Promise.all([startOnRedis(TEST_REDIS_URL, { rateLimitPerMinute: 4 }), startOnRedis(TEST_REDIS_URL, { rateLimitPerMinute: 4 })]);
    const tenant = await seedTenant(replicas[0].dataSource);
    url = `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin`;
  });
  afterAll(() => Promise.all(replicas.map((sut) => sut.close())));

  it('enforces one RATE_LIMIT_PER_MINUTE per caller however its requests are spread, and counts each caller apart', async () => {
    const [a, b] = replicas;
    const alice = await signToken({ sub: uniqueSub('alice') });
    const remaining: string[] = [];
    for (const sut of [a, b, a, b]) remaining.push((await sut.http.get(url).set(bearer(alice)).expect(200)).headers['x-ratelimit-remaining']);

    expect(remaining).toEqual(['3', '2', '1', '0']);
    for (const sut of [a, b]) {
      const limited = await sut.http.get(url).set(bearer(alice)).expect(429);
      expect(limited.body).toMatchObject({ statusCode: 429, message: 'Rate limit of 4 requests per minute exceeded' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(66);
    }
    const bob = await signToken({ sub: uniqueSub('bob') });
    await b.http.get(url).set(bearer(bob)).expect(200);
  });

  it('shares the count of refusals (401, 403) per client address: each replica refuses the address once it has seen the block', async () => {
    const [a, b] = replicas;
    const client = uniqueClient();
    const valid = await signToken({ sub: uniqueSub('carol') });
    for (let i = 0; i < 4; i++) await a.http.get(url).set(client).expect(401);
    expect(await refusedSoon(() => a.http.get(url).set(client).set(bearer(valid)))).toBe(429);

    // B counts its first refusal of the address in Redis, which answers that the address is blocked.
    await b.http.get(url).set(client).expect(401);
    expect(await refusedSoon(() => b.http.get(url).set(client).set(bearer(valid)))).toBe(429);
    await b.http.get(url).set(uniqueClient()).set(bearer(valid)).expect(200);
  });

  it('says where it counts: Redis has a line in /health/ready and in /metrics', async () => {
    const ready = await replicas[0].http.get('/health/ready').expect(200);
    const metrics = await replicas[0].http.get('/metrics').expect(200);

    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
    expect(metrics.text).toMatch(/^rate_limit_redis_up\{app="platform-bot-admin"\} 1$/m);
    expect(metrics.text).toMatch(/^rate_limit_unenforced_total\{app="platform-bot-admin"\} 0$/m);
  });
});

describe('Rate limits across replicas: the connector test-run limit', () => {
  let replicas: TestApp[];
  let tenant: Tenant;
  let side: FarSide;

  beforeAll(async () => {
    const config = mysqlTestConfig({ redisUrl: TEST_REDIS_URL, connectorTests: loopbackTestRuns({ perMinute: 2 }) });
    replicas = await Promise.all([1, 2].map(() => startTestApp(TRANSACTIONAL_SERVICE_APP, config, withResolver())));
    await Promise.all(replicas.map((sut) => redisLineBecomes(sut, 'up')));
    tenant = await seedTenant(replicas[0].dataSource);
    side = await farSide();
  });
  afterAll(async () => {
    await side.close();
    await Promise.all(replicas.map((sut) => sut.close()));
  });

  it('lets a caller run CONNECTOR_TEST_PER_MINUTE tests across all replicas, not that many on each', async () => {
    const [a, b] = replicas;
    const token = await signToken({ ...ALICE, sub: uniqueSub('alice') });
    const run = (sut: TestApp) =>
      sut.http
        .post(`${tenantPath(tenant)}/test`)
        .set(bearer(token))
        .send({ connector: aConnectorBody({ url: `${side.url}/x` }) });

    await run(a).expect(200);
    await run(b).expect(200);
    const refused = await run(a).expect(429);
    await run(b).expect(429);

    expect(refused.body).toEqual(errorBody(429, 'Too Many Requests', 'Rate limit of 2 connector test runs per minute exceeded', `${tenantPath(tenant)}/test`));
    expect(side.received).toHaveLength(2);
    // The general limit counts apart: the same caller still reads.
    await b.http
      .get(`${tenantPath(tenant)}/list`)
      .set(bearer(token))
      .expect(200);
  });
});

describe('Rate limits across replicas: Redis goes away and comes back', () => {
  let proxy: TcpProxy;
  let sut: TestApp;
  let url: string;

  beforeAll(async () => ({ proxy, sut, url } = await startBehindProxy()));
  afterAll(() => stopBehindProxy(proxy, sut));

  it('serves without the limits while Redis is unreachable (logged and counted, still ready), and enforces them again once it returns', async () => {
    const alice = await signToken({ sub: uniqueSub('alice') });
    for (let i = 0; i < 3; i++) await sut.http.get(url).set(bearer(alice)).expect(200);
    await sut.http.get(url).set(bearer(alice)).expect(429);

    await proxy.cut();
    const during = await Promise.all([
      ...Array.from({ length: 5 }, () => sut.http.get(url).set(bearer(alice))),
      sut.http.get(url).set(uniqueClient()),
      sut.http.get(url).set(uniqueClient()).set(bearer('not-a-token')),
    ]);
    await redisLineBecomes(sut, 'down');
    const metrics = await sut.http.get('/metrics').expect(200);

    expect(during.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 401, 401]);
    // Nothing is known about the limit meanwhile: no X-RateLimit headers rather than made-up ones.
    expect(during[0].headers['x-ratelimit-remaining']).toBeUndefined();
    expect(metrics.text).toMatch(/^rate_limit_redis_up\{app="platform-bot-admin"\} 0$/m);
    expect(Number(/^rate_limit_unenforced_total\{app="platform-bot-admin"\} (\d+)$/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(5);
    const warnings = sut.logs.filter((line) => line.msg === 'rate limits: Redis is unreachable, requests are served without the limits until it returns');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', store: 'redis' });

    await proxy.restore();
    await redisLineBecomes(sut, 'up');

    // The count made before the outage still stands in Redis: the caller is refused again, without a restart.
    await sut.http.get(url).set(bearer(alice)).expect(429);
    const bob = await signToken({ sub: uniqueSub('bob') });
    const counted = await sut.http.get(url).set(bearer(bob)).expect(200);
    expect(counted.headers['x-ratelimit-remaining']).toBe('2');
    expect(sut.logs.filter((line) => line.msg === 'rate limits: Redis is reachable, the limits are counted across replicas')).toHaveLength(2);
  });
});

describe('Rate limits across replicas: Redis stops answering without closing the connection', () => {
  let proxy: TcpProxy;
  let sut: TestApp;
  let url: string;

  beforeAll(async () => ({ proxy, sut, url } = await startBehindProxy()));
  afterAll(() => stopBehindProxy(proxy, sut));

  it('serves without the limits, drops the silent connection and opens a new one, and counts again once Redis answers', async () => {
    const alice = await signToken({ sub: uniqueSub('alice') });
    for (let i = 0; i < 3; i++) await sut.http.get(url).set(bearer(alice)).expect(200);
    await sut.http.get(url).set(bearer(alice)).expect(429);
    const connections = proxy.accepted;

    proxy.stall();
    const during: number[] = [];
    for (let i = 0; i < 10; i++) during.push((await sut.http.get(url).set(bearer(alice))).status);
    await redisLineBecomes(sut, 'down');
    // ioredis drops the connection that answers nothing (socketTimeout) and dials again: without that it would
    // wait on it until TCP gives up, minutes later.
    for (let i = 0; i < 100 && proxy.accepted === connections; i++) {
      await sut.http.get(url).set(bearer(alice));
      await new Promise((done) => setTimeout(done, 100));
    }
    const metrics = await sut.http.get('/metrics').expect(200);

    expect(during).toEqual(Array(10).fill(200));
    expect(proxy.accepted).toBeGreaterThan(connections);
    expect(metrics.text).toMatch(/^rate_limit_redis_up\{app="platform-bot-admin"\} 0$/m);

    await proxy.cut();
    await proxy.restore();
    await redisLineBecomes(sut, 'up');
    await sut.http.get(url).set(bearer(alice)).expect(429);
  });
});

import { ConnectorTestConfig } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Resolve } from '../../apps/transactional-service/src/rest-connectors/test-runs/outbound-guard';
import { MAX_TEST_RUNS_IN_FLIGHT } from '../../apps/transactional-service/src/rest-connectors/test-runs/test-run-limits';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { CLIENT } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/token-endpoint';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, errorBody, tenantPath } from '../rest-connectors/connector-factories';
import { FAR_SIDE_HOST, loopbackResolver, loopbackTestRuns, withResolver } from './loopback-resolver';

/** An app admitting only 127.0.0.2/32 besides public addresses, its resolver answering from a table. */
async function startApp(connectorTests: Partial<ConnectorTestConfig>, resolve: Resolve = loopbackResolver()) {
  const sut = await startTestApp(
    TRANSACTIONAL_SERVICE_APP,
    mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns(connectorTests) }),
    withResolver(resolve),
  );
  return { sut, tenant: await seedTenant(sut.dataSource) };
}

describe('Connector test runs: where a call may go (MariaDB, loopback only)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let v4: FarSide;
  let v6: FarSide;
  let admitted: FarSide;
  let resolutions: Record<string, number>;

  /** Injected answers: names that resolve to addresses the guard must refuse (nothing ever connects to them). */
  const resolve: Resolve = async (hostname) => {
    resolutions[hostname] = (resolutions[hostname] ?? 0) + 1;
    const table: Record<string, string[]> = {
      'private.test': ['10.0.0.5'],
      'metadata.test': ['169.254.169.254'],
      'ula.test': ['fd00::1'],
      'cgnat.test': ['100.64.0.1'],
      'mapped.test': ['::ffff:10.0.0.5'],
      // One admitted address among refused ones is still refused: every address is checked.
      'mixed.test': ['127.0.0.2', '192.168.1.10'],
      // A name server that rebinds: an admitted address the first time, loopback after.
      'rebind.test': resolutions[hostname] === 1 ? ['127.0.0.2'] : ['127.0.0.1'],
    };
    return table[hostname] ?? loopbackResolver()(hostname);
  };
  const test = (url: string, connector: object = {}) =>
    sut.http.post(`${tenantPath(tenant)}/test`).set(bearer(token)).send({ connector: aConnectorBody({ url, ...connector }) }).expect(200);

  beforeAll(async () => {
    ({ sut, tenant } = await startApp({ timeoutMs: 2_000, perMinute: 10_000 }, resolve));
    token = await signToken(ALICE);
    v4 = await farSide(undefined, '127.0.0.1');
    v6 = await farSide(undefined, '::1');
    // Connection: close, so that every run makes (and checks) a connection of its own.
    admitted = await farSide((_received, res) => res.writeHead(200, { connection: 'close', 'content-type': 'application/json' }).end('{}'));
  });
  beforeEach(() => (resolutions = {}));
  afterAll(async () => {
    await Promise.all([v4.close(), v6.close(), admitted.close()]);
    await sut.close();
  });

  it.each([
    ['127.0.0.1', 'v4'],
    ['localhost', 'v4'],
    ['[::ffff:127.0.0.1]', 'v4'],
    ['[::ffff:7f00:1]', 'v4'],
    ['2130706433', 'v4'],
    ['0x7f000001', 'v4'],
    ['0177.0.0.1', 'v4'],
    ['127.1', 'v4'],
    ['0.0.0.0', 'v4'],
    ['0', 'v4'],
    ['[::1]', 'v6'],
    ['[::]', 'v6'],
    ['[0:0:0:0:0:0:0:1]', 'v6'],
  ])('refuses %s: BLOCKED_DESTINATION, and the listener on loopback receives nothing', async (host, listener) => {
    const side = listener === 'v4' ? v4 : v6;
    const res = await test(`http://${host}:${side.port}/probe`);

    expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: expect.stringMatching(/connector test runs only reach public addresses$/), response: null, output: null });
    expect(side.connections()).toBe(0);
  });

  it("refuses the app's own port: nothing arrives at the app", async () => {
    const server = sut.app.getHttpServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const probe = `/own-port-${randomUUID()}`;

    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const res = await test(`http://${host}:${port}${probe}`);
      expect(res.body.outcome).toBe('BLOCKED_DESTINATION');
    }
    // Every request the app receives gets a log line, even a 404.
    expect(JSON.stringify(sut.logs)).not.toContain(probe);
  });

  it.each([
    ['private.test', '10.0.0.5', 'private'],
    ['metadata.test', '169.254.169.254', 'linkLocal'],
    ['ula.test', 'fd00::1', 'uniqueLocal'],
    ['cgnat.test', '100.64.0.1', 'carrierGradeNat'],
    ['mapped.test', '::ffff:10.0.0.5', 'private'],
    ['mixed.test', '192.168.1.10', 'private'],
  ])('refuses a name that resolves to a non-public address: %s', async (host, address, range) => {
    const res = await test(`http://${host}/x`);

    expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: `${host} resolves to ${address}, a ${range} address: connector test runs only reach public addresses` });
    expect(admitted.connections()).toBe(0);
  });

  it('checks every connection when it is made: a rebound name never reaches loopback', async () => {
    const first = await test(`http://rebind.test:${admitted.port}/x`);
    expect(first.body.outcome).toBe('SUCCESS');

    const second = await test(`http://rebind.test:${v4.port}/x`);
    expect(second.body.outcome).toBe('BLOCKED_DESTINATION');
    expect(v4.connections()).toBe(0);
    expect(resolutions['rebind.test']).toBe(2);
  });

  it('admits what OUTBOUND_ALLOWED_CIDRS names, by address or by name', async () => {
    expect((await test(`${admitted.url}/x`)).body.outcome).toBe('SUCCESS');
    expect((await test(`http://${FAR_SIDE_HOST}:${admitted.port}/x`)).body.outcome).toBe('SUCCESS');
  });

  it('puts the token request through the same guard: a token endpoint on loopback is never reached', async () => {
    const sentBefore = admitted.received.length;
    const res = await test(`${admitted.url}/x`, {
      authType: 'AUTH_OAUTH2',
      grantType: 'CLIENT_CREDENTIALS',
      oauthUrl: `http://localhost:${v4.port}/token`,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
    });

    expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: expect.stringMatching(/^Token endpoint: localhost resolves to 127\.0\.0\.1/) });
    expect(v4.connections()).toBe(0);
    expect(admitted.received).toHaveLength(sentBefore);
  });
});

describe('Connector test runs: limits (MariaDB)', () => {
  let side: FarSide;
  afterEach(() => side?.close());

  it('lets each caller run CONNECTOR_TEST_PER_MINUTE tests a minute: 429 with Retry-After beyond, other callers unaffected', async () => {
    const { sut, tenant } = await startApp({ perMinute: 3 });
    try {
      side = await farSide();
      const [alice, bob] = await Promise.all([signToken({ ...ALICE, sub: 'alice' }), signToken({ ...ALICE, sub: 'bob' })]);
      const run = (as: string) => sut.http.post(`${tenantPath(tenant)}/test`).set(bearer(as)).send({ connector: aConnectorBody({ url: `${side.url}/x` }) });

      for (let i = 0; i < 3; i++) await run(alice).expect(200);
      const refused = await run(alice).expect(429);

      expect(refused.body).toEqual(errorBody(429, 'Too Many Requests', 'Rate limit of 3 connector test runs per minute exceeded', `${tenantPath(tenant)}/test`));
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(66);
      expect(side.received).toHaveLength(3);
      await run(bob).expect(200);
      // Other operations count against RATE_LIMIT_PER_MINUTE only.
      await sut.http.get(`${tenantPath(tenant)}/list`).set(bearer(alice)).expect(200);
      const metrics = await sut.http.get('/metrics').expect(200);
      expect(metrics.text).toMatch(/connector_test_runs_refused_total\{reason="rate_limit",app="[^"]+"\} 1\n/);
    } finally {
      await sut.close();
    }
  });

  it(`runs at most ${MAX_TEST_RUNS_IN_FLIGHT} tests at once per process: one more is a 503 with Retry-After, the others complete`, async () => {
    const { sut, tenant } = await startApp({ perMinute: 10_000, timeoutMs: 20_000 });
    const held: Array<() => void> = [];
    let holding = true;
    try {
      side = await farSide((_received, res) => {
        const answer = () => res.end('{"data":{"level":7}}');
        if (holding) held.push(answer);
        else answer();
      });
      const token = await signToken(ALICE);
      const run = () => sut.http.post(`${tenantPath(tenant)}/test`).set(bearer(token)).send({ connector: aConnectorBody({ url: `${side.url}/slow` }) });

      const waiting = Array.from({ length: MAX_TEST_RUNS_IN_FLIGHT }, () => run().then((res) => res));
      while (side.received.length < MAX_TEST_RUNS_IN_FLIGHT) await new Promise((done) => setTimeout(done, 20));
      const inFlight = await sut.http.get('/metrics').expect(200);
      expect(inFlight.text).toMatch(new RegExp(`connector_test_runs_in_flight\\{app="[^"]+"\\} ${MAX_TEST_RUNS_IN_FLIGHT}\\n`));

      const refused = await run().expect(503);
      expect(refused.body.message).toBe(`${MAX_TEST_RUNS_IN_FLIGHT} connector test runs are already in flight on this replica; retry shortly`);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(side.received).toHaveLength(MAX_TEST_RUNS_IN_FLIGHT);

      holding = false;
      held.forEach((release) => release());
      const answers = await Promise.all(waiting);
      expect(answers.map((res) => `${res.status} ${res.body.outcome}`)).toEqual(Array(MAX_TEST_RUNS_IN_FLIGHT).fill('200 SUCCESS'));
      expect((await run().expect(200)).body.outcome).toBe('SUCCESS');
    } finally {
      held.forEach((release) => release());
      await sut.close();
    }
  });
});

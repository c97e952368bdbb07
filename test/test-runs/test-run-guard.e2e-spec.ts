import { AppConfig, ConnectorTestConfig } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { AddressInfo, isIP, Socket } from 'node:net';
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

/**
 * The network rule's last line in this file: its tests feed the guard addresses outside loopback, and a guard
 * that wrongly admitted one would connect there. While they run, a socket of this process may only go to a
 * literal 127.0.0.0/8 address, `::1` or a local pipe; any other destination (a name included: no lookup either)
 * fails before anything is sent, with ETESTNET (so the run's outcome is CONNECTION_FAILED, and the test fails).
 */
function loopbackOnlySockets(): () => void {
  const connect = Socket.prototype.connect;
  const loopback = (host: string) => (isIP(host) === 4 && host.startsWith('127.')) || (isIP(host) === 6 && new URL(`http://[${host}]/`).hostname === '[::1]');
  Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
    // net.connect and tls.connect hand on [options, callback] (normalized) or options; socket.connect(port, host) too.
    const first = args[0];
    const options = (Array.isArray(first) ? first[0] : typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as {
      host?: unknown;
      path?: unknown;
    };
    if (options.path === undefined || options.path === null) {
      const host = typeof options.host === 'string' ? options.host : 'localhost';
      if (!loopback(host)) {
        process.nextTick(() => this.destroy(Object.assign(new Error(`This test connects nowhere but loopback, not to ${host}`), { code: 'ETESTNET' })));
        return this;
      }
    }
    return connect.apply(this, args as Parameters<typeof connect>);
  } as typeof connect;
  return () => {
    Socket.prototype.connect = connect;
  };
}

let restoreSockets: () => void;
beforeAll(() => (restoreSockets = loopbackOnlySockets()));
afterAll(() => restoreSockets());

/** An app admitting only 127.0.0.2/32 besides public addresses (unless told), its resolver answering from a table. */
async function startApp(connectorTests: Partial<ConnectorTestConfig>, resolve: Resolve = loopbackResolver(), config: Partial<AppConfig> = {}) {
  const sut = await startTestApp(
    TRANSACTIONAL_SERVICE_APP,
    mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns(connectorTests), ...config }),
    withResolver(resolve),
  );
  return { sut, tenant: await seedTenant(sut.dataSource) };
}

/** The host as undici hands it to the guard: the URL parser's, brackets off (`2130706433` is `127.0.0.1`). */
const hostOf = (authority: string) => new URL(`http://${authority}/`).hostname.replace(/^\[|\]$/g, '');

/** A refusal's whole message outside production: the host as written, never an address it resolves to. */
const NOT_PUBLIC = (hostname: string) =>
  `${hostname} is not a public destination: connector test runs only reach public addresses (OUTBOUND_ALLOWED_CIDRS admits named ranges)`;

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
      // IPv4-compatible IPv6 (::/96) as getaddrinfo writes it, and in hex: not the IPv4 address it spells.
      'compatible-loopback.test': ['::127.0.0.1'],
      'compatible-metadata.test': ['::a9fe:a9fe'],
      'compatible-metadata-dotted.test': ['::169.254.169.254'],
      'compatible-two.test': ['::2'],
      // Public-looking, but a cloud platform's own address: Azure WireServer.
      'wireserver.test': ['168.63.129.16'],
      'wireserver-mapped.test': ['::ffff:168.63.129.16'],
      // IPv6 outside 2000::/3, or one of its special-purpose ranges.
      'unassigned.test': ['4000::1'],
      'srv6.test': ['5f00::1'],
      'nat64.test': ['64:ff9b::a9fe:a9fe'],
      'nat64-local.test': ['64:ff9b:1::a00:5'],
      'discard.test': ['100::1'],
      'documentation.test': ['2001:db8::1'],
      'documentation-3fff.test': ['3fff::1'],
      'teredo.test': ['2001::a9fe:a9fe'],
      // One admitted address among refused ones is still refused: every address is checked.
      'mixed.test': ['127.0.0.2', '192.168.1.10'],
      // A name server that rebinds: an admitted address the first time, loopback after.
      'rebind.test': resolutions[hostname] === 1 ? ['127.0.0.2'] : ['127.0.0.1'],
    };
    return table[hostname] ?? loopbackResolver()(hostname);
  };
  const test = (url: string, connector: object = {}) =>
    sut.http
      .post(`${tenantPath(tenant)}/test`)
      .set(bearer(token))
      .send({ connector: aConnectorBody({ url, ...connector }) })
      .expect(200);

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

    expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: NOT_PUBLIC(hostOf(host)), response: null, output: null });
    expect(side.connections()).toBe(0);
  });

  it("refuses the app's own port: nothing arrives at the app", async () => {
    const server = sut.app.getHttpServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const probe = `/own-port-${randomUUID()}`;

    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const res = await test(`http://${host}:${port}${probe}`);
      expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: NOT_PUBLIC(hostOf(host)) });
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
    ['compatible-loopback.test', '::127.0.0.1', 'ipv4Compatible'],
    ['compatible-metadata.test', '::a9fe:a9fe', 'ipv4Compatible'],
    ['compatible-metadata-dotted.test', '::169.254.169.254', 'ipv4Compatible'],
    ['compatible-two.test', '::2', 'ipv4Compatible'],
    ['wireserver.test', '168.63.129.16', 'azureWireServer'],
    ['wireserver-mapped.test', '::ffff:168.63.129.16', 'azureWireServer'],
    ['unassigned.test', '4000::1', 'reserved'],
    ['srv6.test', '5f00::1', 'segmentRouting'],
    ['nat64.test', '64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['nat64-local.test', '64:ff9b:1::a00:5', 'rfc6052'],
    ['discard.test', '100::1', 'discard'],
    ['documentation.test', '2001:db8::1', 'reserved'],
    ['documentation-3fff.test', '3fff::1', 'reserved'],
    ['teredo.test', '2001::a9fe:a9fe', 'teredo'],
  ])('refuses a name that resolves to a non-public address, and says only that: %s (%s, %s)', async (host, address, range) => {
    const res = await test(`http://${host}/x`);

    // Not what the name resolves to, nor why that is refused: the answer would be a DNS oracle.
    expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: NOT_PUBLIC(host), response: null, output: null });
    const afterHost = res.body.message.slice(host.length);
    expect(afterHost).not.toContain(address);
    expect(afterHost).not.toContain(range);
    expect(JSON.stringify(res.body)).not.toContain(address);
    expect(resolutions[host]).toBe(1);
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

    expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: `Token endpoint: ${NOT_PUBLIC('localhost')}` });
    expect(res.body.message).not.toContain('127.0.0.1');
    expect(v4.connections()).toBe(0);
    expect(admitted.received).toHaveLength(sentBefore);
  });
});

describe("Connector test runs: never the app's own listening socket, whatever OUTBOUND_ALLOWED_CIDRS admits (MariaDB, loopback only)", () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let port: number;
  let admitted: FarSide;
  const test = (url: string, connector: object = {}) =>
    sut.http
      .post(`${tenantPath(tenant)}/test`)
      .set(bearer(token))
      .send({ connector: aConnectorBody({ url, ...connector }) })
      .expect(200);

  beforeAll(async () => {
    // All of loopback admitted: the app's own port is refused for being the app's, not for being loopback.
    ({ sut, tenant } = await startApp(
      { allowedCidrs: ['127.0.0.0/8'], timeoutMs: 2_000, perMinute: 10_000 },
      loopbackResolver({ 'self.test': ['127.0.0.1'] }),
    ));
    token = await signToken(ALICE);
    // Listening before the runs (supertest would otherwise listen only while each of its requests lasts).
    await sut.app.listen(0, '127.0.0.1');
    ({ port } = sut.app.getHttpServer().address() as AddressInfo);
    admitted = await farSide(undefined, '127.0.0.3');
  });
  afterAll(async () => {
    await admitted.close();
    await sut.close();
  });

  it('reaches another loopback listener: 127.0.0.0/8 is admitted', async () => {
    expect((await test(`${admitted.url}/x`)).body.outcome).toBe('SUCCESS');
    expect(admitted.received).toHaveLength(1);
  });

  it('refuses the port the app listens on, in every spelling and by name: the app receives no request, the message names no address', async () => {
    const probe = `/own-port-${randomUUID()}`;

    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '2130706433', 'localhost', 'self.test']) {
      const res = await test(`http://${host}:${port}${probe}`);
      expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: NOT_PUBLIC(hostOf(host)), response: null, output: null });
    }
    expect((await test(`http://self.test:${port}${probe}`)).body.message).not.toContain('127.0.0.1');
    // Every request the app receives gets a log line, even a 404.
    expect(JSON.stringify(sut.logs)).not.toContain(probe);
  });

  it('refuses it as a token endpoint too', async () => {
    const probe = `/own-token-${randomUUID()}`;
    const res = await test(`${admitted.url}/x`, {
      authType: 'AUTH_OAUTH2',
      grantType: 'CLIENT_CREDENTIALS',
      oauthUrl: `http://127.0.0.1:${port}${probe}`,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
    });

    expect(res.body).toMatchObject({ outcome: 'BLOCKED_DESTINATION', message: `Token endpoint: ${NOT_PUBLIC('127.0.0.1')}` });
    expect(JSON.stringify(sut.logs)).not.toContain(probe);
  });
});

describe('Connector test runs: in production, the refusal names no variable (MariaDB)', () => {
  it('answers BLOCKED_DESTINATION with the message alone', async () => {
    const { sut, tenant } = await startApp({}, loopbackResolver({ 'wireserver.test': ['168.63.129.16'] }), { nodeEnv: 'production' });
    try {
      const token = await signToken(ALICE);
      const res = await sut.http
        .post(`${tenantPath(tenant)}/test`)
        .set(bearer(token))
        .send({ connector: aConnectorBody({ url: 'http://wireserver.test/machine' }) })
        .expect(200);

      expect(res.body).toMatchObject({
        outcome: 'BLOCKED_DESTINATION',
        message: 'wireserver.test is not a public destination: connector test runs only reach public addresses',
      });
    } finally {
      await sut.close();
    }
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
      const run = (as: string) =>
        sut.http
          .post(`${tenantPath(tenant)}/test`)
          .set(bearer(as))
          .send({ connector: aConnectorBody({ url: `${side.url}/x` }) });

      for (let i = 0; i < 3; i++) await run(alice).expect(200);
      const refused = await run(alice).expect(429);

      expect(refused.body).toEqual(
        errorBody(429, 'Too Many Requests', 'Rate limit of 3 connector test runs per minute exceeded', `${tenantPath(tenant)}/test`),
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(66);
      expect(side.received).toHaveLength(3);
      await run(bob).expect(200);
      // Other operations count against RATE_LIMIT_PER_MINUTE only.
      await sut.http
        .get(`${tenantPath(tenant)}/list`)
        .set(bearer(alice))
        .expect(200);
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
      const run = () =>
        sut.http
          .post(`${tenantPath(tenant)}/test`)
          .set(bearer(token))
          .send({ connector: aConnectorBody({ url: `${side.url}/slow` }) });

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

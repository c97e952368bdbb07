import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { MAX_TEST_RUNS_IN_FLIGHT } from '../../apps/transactional-service/src/rest-connectors/test-runs/test-run-limits';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, ALICE, createConnector, tenantPath, withBasicAuth, withBearerAuth } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { loopbackTestRuns, withResolver } from './loopback-resolver';

/**
 * What the outside probe of issue 26 turned against the platform, end to end on MariaDB with far sides on
 * 127.0.0.2: limits that count only attempted runs, a caller who leaves, secrets bound to their destination
 * once the variables are filled, every form of a secret an echo may take, and the answer that explains a run.
 */
describe('Connector test runs that a hostile caller or far side cannot turn against the platform', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;
  let side: FarSide;

  const testUnsaved = (body: object, as = token) => sut.http.post(`${base}/test`).set(bearer(as)).send(body);
  const testSaved = (uuid: string, body: object = {}) => sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).send(body);
  const metric = async (name: string, label = '') =>
    Number(new RegExp(`^${name}\\{[^}]*${label}[^}]*\\} (\\d+)$`, 'm').exec((await sut.http.get('/metrics')).text)?.[1]);

  beforeAll(async () => {
    sut = await startTestApp(
      TRANSACTIONAL_SERVICE_APP,
      mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns({ timeoutMs: 10_000, perMinute: 3 }) }),
      withResolver(),
    );
    tenant = await seedTenant(sut.dataSource);
    base = tenantPath(tenant);
  });
  beforeEach(async () => (token = await signToken({ ...ALICE, sub: `caller-${randomUUID()}` })));
  afterAll(() => sut.close());
  afterEach(() => side?.close());

  it('counts only runs that were attempted against CONNECTOR_TEST_PER_MINUTE: a 400 costs nothing', async () => {
    side = await farSide();
    const missingVariable = aConnectorBody({ url: `${side.url}/{{id}}` });
    for (let i = 0; i < 5; i++) await testUnsaved({ connector: missingVariable }).expect(400);
    for (let i = 0; i < 3; i++) await testUnsaved({ connector: missingVariable, variables: { id: String(i) } }).expect(200);

    const refused = await testUnsaved({ connector: missingVariable, variables: { id: '4' } }).expect(429);

    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body.message).toBe('Rate limit of 3 connector test runs per minute exceeded');
    expect(side.received).toHaveLength(3);
  });

  it(`counts no run this replica had no room for: a 503 past ${MAX_TEST_RUNS_IN_FLIGHT} in flight costs nothing`, async () => {
    // An app of its own: its limit one more than its slots.
    const own = await startTestApp(
      TRANSACTIONAL_SERVICE_APP,
      mysqlTestConfig({ connectorTests: loopbackTestRuns({ timeoutMs: 10_000, perMinute: MAX_TEST_RUNS_IN_FLIGHT + 1 }) }),
      withResolver(),
    );
    const held: Array<() => void> = [];
    side = await farSide((_received, res) => held.push(() => res.end('{}')));
    try {
      const ownTenant = await seedTenant(own.dataSource);
      const run = () =>
        own.http
          .post(`${tenantPath(ownTenant)}/test`)
          .set(bearer(token))
          .send({ connector: aConnectorBody({ url: `${side.url}/slow` }) });
      const waiting = Array.from({ length: MAX_TEST_RUNS_IN_FLIGHT }, () => run().then((res) => res.status));
      while (side.received.length < MAX_TEST_RUNS_IN_FLIGHT) await new Promise((wait) => setTimeout(wait, 20));

      for (let i = 0; i < 3; i++) await run().expect(503);
      held.forEach((answer) => answer());
      expect(await Promise.all(waiting)).toEqual(Array(MAX_TEST_RUNS_IN_FLIGHT).fill(200));

      // The caller has used MAX_TEST_RUNS_IN_FLIGHT of MAX_TEST_RUNS_IN_FLIGHT + 1: one more run, then the limit.
      const last = run().then((res) => res.status);
      while (held.length < MAX_TEST_RUNS_IN_FLIGHT + 1) await new Promise((wait) => setTimeout(wait, 20));
      held[MAX_TEST_RUNS_IN_FLIGHT]();
      expect(await last).toBe(200);
      await run().expect(429);
    } finally {
      held.forEach((answer) => answer());
      await own.close();
    }
  });

  it('cancels a run whose caller disconnects: its call is abandoned and its slot freed at once', async () => {
    let farSideClosed!: () => void;
    const closed = new Promise<void>((done) => (farSideClosed = done));
    side = await farSide((_received, res) => res.on('close', farSideClosed));
    const cancelledBefore = await metric('connector_test_runs_cancelled_total');
    const server = sut.app.getHttpServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;

    const body = JSON.stringify({ connector: aConnectorBody({ url: `${side.url}/held` }) });
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      path: `${base}/test`,
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
    });
    client.on('error', () => undefined);
    client.end(body);
    while (side.received.length === 0) await new Promise((wait) => setTimeout(wait, 10));
    client.destroy();

    // The far side sees its connection closed long before the run's 10 s deadline: the run did not wait for it.
    await closed;
    while ((await metric('connector_test_runs_cancelled_total')) === cancelledBefore) await new Promise((wait) => setTimeout(wait, 10));
    expect(await metric('connector_test_runs_in_flight')).toBe(0);
    expect(sut.logs).toContainEqual(expect.objectContaining({ msg: 'connector test run cancelled: its caller disconnected', outcome: 'CANCELLED' }));
    await new Promise<void>((done) => server.close(() => done()));
  });

  describe('a stored secret goes only where it is bound', () => {
    it('refuses at run time a stored URL whose variable would move the destination, and sends nothing (a row written before the rule)', async () => {
      side = await farSide();
      const attacker = await farSide();
      try {
        const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/me`, bearerToken: `bearer-${randomUUID()}` }));
        // The write rule refuses a variable in the authority now; a row stored before it still has one.
        await sut.dataSource.query('UPDATE rest_connectors SET url = ? WHERE uuid = ?', ['http://127.0.0.2:{{port}}/me', uuid]);

        const res = await testSaved(uuid, { variables: { port: String(attacker.port) } }).expect(400);

        expect(res.body.message).toEqual([
          "url must keep its scheme, host, port and user info once its variables are filled in: the connector's bearerToken is bound to them",
        ]);
        expect(attacker.connections()).toBe(0);
      } finally {
        await attacker.close();
      }
    });
  });

  it('refuses, and counts, a run of a saved connector whose request would carry a guess of its stored secret: an echo cannot confirm it', async () => {
    side = await farSide((received, res) => res.end(`not found: ${received.url}`));
    const basicToken = Buffer.from('api:Hunter2024!').toString('base64');
    const uuid = await createConnector(sut, tenant, token, withBasicAuth({ url: `${side.url}/echo/{{p}}`, basicToken }));

    const res = await testSaved(uuid, { variables: { p: 'password|123456|Hunter2024!|letmein' } }).expect(400);

    expect(res.body.message).toEqual([
      "The request would carry a secret stored for this connector outside the Authorization or API key its authType sends: a test run sends a stored secret only where the connector's authType puts it",
    ]);
    expect(side.connections()).toBe(0);
    expect(sut.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'connector test run refused: the request held a stored secret of the connector', connectorUuid: uuid }),
    );
    expect(await metric('connector_test_runs_refused_total', 'reason="stored_secret"')).toBeGreaterThanOrEqual(1);
    // Counted: two more runs (the limit is 3), then 429.
    await testSaved(uuid, { variables: { p: 'x' } }).expect(200);
    await testSaved(uuid, { variables: { p: 'y' } }).expect(200);
    await testSaved(uuid, { variables: { p: 'z' } }).expect(429);
  });

  describe('no form of a secret reaches the caller', () => {
    const secret = 'Tok/en+Val ue:42é';
    const echoes = (value: string) => [
      value,
      value.toUpperCase(),
      encodeURIComponent(value),
      encodeURIComponent(value).toLowerCase(),
      new URLSearchParams({ v: value }).toString().slice(2),
      JSON.stringify(value).slice(1, -1).replace('/', '\\/'),
      [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      Buffer.from(value).toString('base64'),
      Buffer.from(value).toString('base64url'),
    ];

    it('in the body as text and parsed, in header names and values, and in what output selects', async () => {
      side = await farSide((_received, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-echo', encodeURIComponent(secret));
        res.end(
          `{"echoes": [${echoes(secret)
            .map((echo) => `"${echo.replace(/"/g, '\\"')}"`)
            .join(', ')}]}`,
        );
      });
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/me`, bearerToken: secret, output: '$.echoes[*]' }));

      const res = await testSaved(uuid).expect(200);

      expect(res.body.output.values).toEqual(Array(echoes(secret).length).fill('<BEARER_TOKEN>'));
      expect(res.body.response.json).toEqual({ echoes: Array(echoes(secret).length).fill('<BEARER_TOKEN>') });
      expect(res.body.response.headers).toContainEqual({ header: 'x-echo', value: '<BEARER_TOKEN>' });
      for (const echo of [secret, ...echoes(secret)]) expect(res.body.response.body).not.toContain(echo);
      expect(JSON.stringify(res.body)).not.toContain('42é');
    });

    it('its halves, its reverse, its hex and the Base64 and hex of a half', async () => {
      const stored = `tk_${randomUUID().replaceAll('-', '')}`;
      const [first, second] = [stored.slice(0, 17), stored.slice(17)];
      const transformed = [first, second, [...stored].reverse().join(''), Buffer.from(stored).toString('hex'), Buffer.from(second).toString('hex')];
      side = await farSide((_received, res) => res.end(`${transformed.join('\n')}\n${Buffer.from(first).toString('base64')}`));
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/x`, bearerToken: stored, output: '' }));

      const res = await testSaved(uuid).expect(200);

      expect(res.body.response.body.split('\n').slice(0, 5)).toEqual(Array(5).fill('<BEARER_TOKEN>'));
      // The Base64 of a half: its full groups; what is left decodes to at most two bytes of it.
      expect(res.body.response.body.split('\n')[5]).toMatch(/^<BEARER_TOKEN>[A-Za-z0-9+/=]{0,4}$/);
      for (const part of [first, second, ...transformed]) expect(res.body.response.body).not.toContain(part);
    });

    it('the user-id:password a Basic token stands for, and its password', async () => {
      const basicToken = Buffer.from(`svc-user:pw-${randomUUID()}`).toString('base64');
      const decoded = Buffer.from(basicToken, 'base64').toString();
      side = await farSide((_received, res) => res.end(`as sent ${decoded}; password ${decoded.split(':')[1]}`));
      const uuid = await createConnector(sut, tenant, token, withBasicAuth({ url: `${side.url}/x`, basicToken }));

      const res = await testSaved(uuid).expect(200);

      expect(res.body.response.body).toBe('as sent <BASIC_TOKEN>; password <BASIC_TOKEN>');
    });

    it('a secret across the 64 KiB cut of the body', async () => {
      const straddling = `straddling-${randomUUID()}`;
      side = await farSide((_received, res) => res.end(`${'.'.repeat(64 * 1024 - 10)}${straddling}`));
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/x`, bearerToken: straddling }));

      const res = await testSaved(uuid).expect(200);

      expect(res.body.response.bodyTruncated).toBe(true);
      expect(res.body.response.body.endsWith(straddling.slice(0, 10))).toBe(false);
      // Scrubbed whole, then cut: the cut halves the placeholder, never the secret.
      expect(res.body.response.body.length).toBe(64 * 1024);
      expect(res.body.response.body.slice(-12)).toBe('..<BEARER_TO');
    });
  });

  it('explains a run: the User-Agent sent, the variables and headers it did not use, the size, the parsed body and where output stopped', async () => {
    side = await farSide((_received, res) => {
      res.setHeader('content-type', 'application/problem+json');
      res.end('{"data": {"level": 7, "unit": "kg"}}');
    });
    const connector = aConnectorBody({
      url: `${side.url}/stock`,
      requestType: 'POST',
      contentType: 'APPLICATION_JSON',
      headers: [{ header: 'Content-Type', value: 'application/vnd.stock+json' }],
      body: '{"sku": "{{sku}}", "qty": {{qty}}}',
      output: '$.data.levl',
    });

    const res = await testUnsaved({ connector, variables: { sku: 'A"1\\', qty: '3', lang: 'pt' } }).expect(200);

    expect(JSON.parse(side.received[0].body)).toEqual({ sku: 'A"1\\', qty: 3 });
    expect(side.received[0].headers['user-agent']).toBe('bot-platform-connector-test/1.0');
    expect(res.body).toMatchObject({
      request: {
        headers: [
          { header: 'Content-Type', value: 'application/vnd.stock+json' },
          { header: 'User-Agent', value: 'bot-platform-connector-test/1.0' },
        ],
      },
      response: { sizeBytes: 36, json: { data: { level: 7, unit: 'kg' } } },
      output: { values: [], hint: 'output selects nothing: $.data selects an object with the members "level", "unit", and .levl selects nothing from it' },
      warnings: ['variables.lang is not used: the connector has no {{lang}}'],
    });
  });

  it('reports, before sending, a JSON body that is no longer JSON once filled', async () => {
    side = await farSide();
    const connector = aConnectorBody({ url: `${side.url}/x`, requestType: 'POST', contentType: 'APPLICATION_JSON', body: '{"qty": {{qty}}}' });

    const res = await testUnsaved({ connector, variables: { qty: 'three' } }).expect(400);

    expect(res.body.message).toEqual([
      expect.stringMatching(
        /^body is not valid JSON once its variables are filled in \(.+\): fix the body, or choose another contentType than APPLICATION_JSON$/,
      ),
    ]);
    expect(side.connections()).toBe(0);
  });
});

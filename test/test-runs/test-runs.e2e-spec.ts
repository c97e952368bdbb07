import { randomUUID } from 'node:crypto';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { CLIENT, tokenEndpoint, USER } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/token-endpoint';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aBot, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import {
  aConnectorBody,
  ALICE,
  connectorsPath,
  createConnector,
  errorBody,
  tenantPath,
  withBasicAuth,
  withBearerAuth,
} from '../rest-connectors/connector-factories';
import { FAR_SIDE_HOST, loopbackTestRuns, withResolver } from './loopback-resolver';

const TIMEOUT_MS = 1_500;

describe('Connector test runs (MariaDB, far sides on 127.0.0.2)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;
  let side: FarSide;

  const testUnsaved = (body: object, as = token) => sut.http.post(`${base}/test`).set(bearer(as)).send(body);
  const testSaved = (uuid: string, body: object = {}, as = token) => sut.http.post(`${base}/${uuid}/test`).set(bearer(as)).send(body);

  beforeAll(async () => {
    sut = await startTestApp(
      TRANSACTIONAL_SERVICE_APP,
      // Logs at info: the tests read the test-run lines, and that no line holds a secret.
      mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns({ timeoutMs: TIMEOUT_MS, perMinute: 10_000 }) }),
      withResolver(),
    );
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());
  afterEach(() => side?.close());

  describe('an unsaved connector', () => {
    it('sends the call the connector describes, variables filled in, and answers what came back with the output selected', async () => {
      side = await farSide();
      const connector = aConnectorBody({
        url: `${side.url}/cities/{{city}}?lang={{lang}}`,
        headers: [
          { header: 'Accept', value: 'application/json' },
          { header: 'X-Tenant', value: 'acme-{{tenant}}' },
        ],
        output: '$.data.level',
      });

      const res = await testUnsaved({ connector, variables: { city: 'São Paulo/Centro', lang: 'pt&br', tenant: '42' } }).expect(200);

      expect(res.body).toEqual({
        outcome: 'SUCCESS',
        message: null,
        durationMs: expect.any(Number),
        request: {
          method: 'GET',
          url: `${side.url}/cities/S%C3%A3o%20Paulo%2FCentro?lang=pt%26br`,
          headers: [
            { header: 'Accept', value: 'application/json' },
            { header: 'X-Tenant', value: 'acme-42' },
            { header: 'User-Agent', value: 'bot-platform-connector-test/1.0' },
          ],
          body: '',
          bodyTruncated: false,
        },
        response: {
          status: 200,
          headers: expect.arrayContaining([{ header: 'content-type', value: 'application/json' }]),
          body: '{"data":{"level":7}}',
          bodyTruncated: false,
          sizeBytes: 20,
          json: { data: { level: 7 } },
          jsonPaths: ['$.data', '$.data.level'],
          jsonPathsTruncated: false,
        },
        output: { expression: '$.data.level', values: [7], valuesTruncated: false, error: null, hint: null },
        warnings: [],
      });
      expect(side.received).toEqual([
        expect.objectContaining({
          method: 'GET',
          url: '/cities/S%C3%A3o%20Paulo%2FCentro?lang=pt%26br',
          headers: expect.objectContaining({ accept: 'application/json', 'x-tenant': 'acme-42' }),
        }),
      ]);
    });

    it('sends the body with the content type of contentType; NONE sends neither, GET no body', async () => {
      side = await farSide();
      const post = aConnectorBody({
        requestType: 'POST',
        url: `${side.url}/contacts`,
        contentType: 'APPLICATION_JSON',
        body: '{"name":"{{name}}"}',
      });
      await testUnsaved({ connector: post, variables: { name: 'Ana "A" Lima' } }).expect(200);
      await testUnsaved({ connector: { ...post, contentType: 'NONE' }, variables: { name: 'x' } }).expect(200);
      await testUnsaved({ connector: { ...post, requestType: 'GET', contentType: 'APPLICATION_JSON', headers: [] }, variables: { name: 'x' } }).expect(200);

      const [json, none, get] = side.received;
      // Inside a JSON string, a variable is JSON-escaped: the body stays JSON.
      expect(json).toMatchObject({ method: 'POST', body: '{"name":"Ana \\"A\\" Lima"}' });
      expect(JSON.parse(json.body)).toEqual({ name: 'Ana "A" Lima' });
      expect(json.headers['content-type']).toBe('application/json');
      expect(none.body).toBe('');
      expect(none.headers['content-type']).toBeUndefined();
      expect(get).toMatchObject({ method: 'GET', body: '' });
      expect(get.headers['content-type']).toBeUndefined();
    });

    it('refuses a Content-Type that does not fit contentType; a connector stored with one before still runs, and its next write is the 400', async () => {
      side = await farSide();
      const misfit = aConnectorBody({
        requestType: 'POST',
        url: `${side.url}/contacts`,
        contentType: 'APPLICATION_JSON',
        headers: [{ header: 'Content-Type', value: 'text/plain' }],
        body: '{}',
      });
      const refused = await testUnsaved({ connector: misfit }).expect(400);
      expect(refused.body.message).toEqual([expect.stringMatching(/^headers\.0 Content-Type "text\/plain" does not fit contentType APPLICATION_JSON/)]);

      const uuid = await createConnector(sut, tenant, token, { ...misfit, headers: [] });
      await sut.dataSource.query('UPDATE rest_connectors SET headers = ? WHERE uuid = ?', [JSON.stringify(misfit.headers), uuid]);
      const run = await testSaved(uuid).expect(200);

      expect(side.received[0].headers['content-type']).toBe('application/json');
      expect(run.body.warnings).toEqual(['headers.0 Content-Type is not sent: contentType APPLICATION_JSON sends Content-Type: application/json']);
      const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(read.body).expect(400);
    });

    it('form-encodes each variable of an APPLICATION_FORM_URLENCODED body, so that the far side reads exactly the fields written', async () => {
      side = await farSide();
      const variables = {
        email: 'jenny+bot@example.com',
        name: 'Tom & Jerry&description=injected',
        discount: '100% = free',
        city: 'São Paulo, 東京 🎉',
        note: 'first line\nsecond line\r\nthird',
        field: 'utm_source&x=1',
      };
      const connector = aConnectorBody({
        requestType: 'POST',
        url: `${side.url}/customers`,
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'customerEmail={{email}}&name={{name}}&discount={{discount}}&city={{city}}&note={{note}}&{{field}}=tracked&plan=gold',
      });

      await testUnsaved({ connector, variables }).expect(200);

      const [received] = side.received;
      expect(received.headers['content-type']).toBe('application/x-www-form-urlencoded');
      // Parsed as a server parses a form: WHATWG's URLSearchParams, which is what newman and browsers encode for.
      expect([...new URLSearchParams(received.body)]).toEqual([
        ['customerEmail', 'jenny+bot@example.com'],
        ['name', 'Tom & Jerry&description=injected'],
        ['discount', '100% = free'],
        ['city', 'São Paulo, 東京 🎉'],
        ['note', 'first line\nsecond line\r\nthird'],
        ['utm_source&x=1', 'tracked'],
        ['plan', 'gold'],
      ]);
    });

    it('is validated exactly as a create: a placeholder for a secret is a 400 and nothing is stored or sent', async () => {
      side = await farSide();
      const connector = withBearerAuth({ url: `${side.url}/x`, bearerToken: '<BEARER_TOKEN>' });

      const res = await testUnsaved({ connector }).expect(400);

      expect(res.body.message).toEqual([expect.stringMatching(/^bearerToken must be the secret itself/)]);
      const invalid = await testUnsaved({ connector: { ...connector, bearerToken: 'b', requestType: 'FETCH', name: '' } }).expect(400);
      expect(invalid.body.message).toEqual(
        expect.arrayContaining([expect.stringMatching(/^connector\.requestType/), expect.stringMatching(/^connector\.name/)]),
      );
      await testUnsaved({ variables: {} }).expect(400);
      expect(side.connections()).toBe(0);
      const list = await sut.http.get(`${base}/list`).set(bearer(token)).expect(200);
      expect(JSON.stringify(list.body)).not.toContain(side.url);
    });
  });

  describe('a saved connector', () => {
    it('uses the stored secrets; the echo shows placeholders and every echoed secret, Base64 forms too, is scrubbed', async () => {
      const secret = `bearer-${randomUUID()}`;
      side = await farSide((received, res) => {
        const auth = String(received.headers.authorization);
        res.setHeader('x-echo', auth);
        res.setHeader('x-echo-b64', Buffer.from(auth.slice('Bearer '.length)).toString('base64'));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ authorization: auth, again: `${auth} ${auth}` }));
      });
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/me`, bearerToken: secret, output: '$.authorization' }));

      const res = await testSaved(uuid).expect(200);

      expect(side.received[0].headers.authorization).toBe(`Bearer ${secret}`);
      expect(res.body.request.headers).toContainEqual({ header: 'Authorization', value: 'Bearer <BEARER_TOKEN>' });
      expect(res.body.response.headers).toEqual(
        expect.arrayContaining([
          { header: 'x-echo', value: 'Bearer <BEARER_TOKEN>' },
          { header: 'x-echo-b64', value: '<BEARER_TOKEN>' },
        ]),
      );
      expect(JSON.parse(res.body.response.body)).toEqual({ authorization: 'Bearer <BEARER_TOKEN>', again: 'Bearer <BEARER_TOKEN> Bearer <BEARER_TOKEN>' });
      expect(res.body.output.values).toEqual(['Bearer <BEARER_TOKEN>']);
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(JSON.stringify(sut.logs)).not.toContain(secret);
    });

    it("tells a writer who cannot read the stored token nothing of it through output's filters, on a host that echoes it", async () => {
      // An echo endpoint (httpbin's /headers, a debug route): it answers the call's headers, the stored token among them.
      side = await farSide((received, res) => {
        res.sendDate = false;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            headers: { authorization: received.headers.authorization, accept: received.headers.accept },
            tokens: [received.headers.authorization],
          }),
        );
      });
      const secret = 'tk_live_9f8e7d6c5b4a3f2e1d0c9b8a7';
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/headers`, bearerToken: secret, output: '$.headers' }));
      const stored = (await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200)).body;
      /** Everything the caller sees of a run whose output is `expression` with `guess` for GUESS, the guess written back as GUESS. */
      const seen = async (expression: string, guess: string) => {
        const res = await testSaved(uuid, { connector: { ...stored, output: expression.replaceAll('GUESS', guess) } });
        return { status: res.status, body: JSON.parse(JSON.stringify({ ...res.body, durationMs: 0 }).replaceAll(guess, 'GUESS')) };
      };

      for (const [expression, right, wrong] of [
        ["$.headers[?@ == 'Bearer GUESS']", secret, 'tk_live_0000000000000000000000'],
        ["$.tokens[?match(@, 'Bearer GUESS.*')]", secret.slice(0, 9), 'tk_live_1'],
        ["$.tokens[?search(@, 'GUESS')]", secret.slice(9, 14), 'zzzzz'],
        ["$.tokens[?@ < 'Bearer GUESS']", 'tk_live_a', 'tk_live_0'],
      ]) {
        const answer = await seen(expression, right);

        expect(answer).toEqual(await seen(expression, wrong));
        expect(answer.status).toBe(200);
        expect(answer.body.output.error).toBeNull();
      }
      expect(side.received.map(({ headers }) => headers.authorization)).toEqual(Array(8).fill(`Bearer ${secret}`));
    });

    it('sends Basic credentials as stored', async () => {
      side = await farSide();
      const basicToken = Buffer.from(`svc:${randomUUID()}`).toString('base64');
      const uuid = await createConnector(sut, tenant, token, withBasicAuth({ url: `${side.url}/x`, basicToken }));

      const res = await testSaved(uuid).expect(200);

      expect(side.received[0].headers.authorization).toBe(`Basic ${basicToken}`);
      expect(res.body.request.headers).toContainEqual({ header: 'Authorization', value: 'Basic <BASIC_TOKEN>' });
      expect(JSON.stringify(res.body)).not.toContain(basicToken);
    });

    it('tests edits as a PUT would store them and saves nothing: a placeholder keeps the stored secret while the host stays', async () => {
      side = await farSide();
      const secret = `bearer-${randomUUID()}`;
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/v1`, bearerToken: secret }));
      const before = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

      const edits = { ...before.body, url: `${side.url}/v2/{{id}}`, bearerToken: '<BEARER_TOKEN>' };
      const res = await testSaved(uuid, { connector: edits, variables: { id: '7' } }).expect(200);

      expect(res.body.request.url).toBe(`${side.url}/v2/7`);
      expect(side.received[0]).toMatchObject({ url: '/v2/7', headers: expect.objectContaining({ authorization: `Bearer ${secret}` }) });
      const after = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      expect(after.headers.etag).toBe(before.headers.etag);
      expect(after.body).toEqual(before.body);

      const elsewhere = await testSaved(uuid, { connector: { ...edits, url: 'http://far-side.test:1/v2' } }).expect(400);
      expect(elsewhere.body.message).toEqual([expect.stringMatching(/^bearerToken must be sent again: url now points elsewhere/)]);
      expect(side.received).toHaveLength(1);
    });

    it('is a 404 exactly as a get: unknown, deleted, or a connector of another bot', async () => {
      side = await farSide();
      const uuid = await createConnector(sut, tenant, token, aConnectorBody({ url: `${side.url}/x` }));
      const otherBot = aBot(tenant.environment.uuid);
      await importData(sut.dataSource, { bots: [otherBot] });
      const otherBase = connectorsPath(tenant.organization.uuid, tenant.environment.uuid, otherBot.uuid);

      const res = await sut.http
        .post(`${otherBase}/${uuid}/test`)
        .set(bearer(token))
        .send({ variables: { id: '1' } })
        .expect(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', `Rest connector ${uuid} not found in bot ${otherBot.uuid}`, `${otherBase}/${uuid}/test`));
      await testSaved(randomUUID(), {}).expect(404);
      await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(204);
      await testSaved(uuid, { variables: { id: '1' } }).expect(404);
      await sut.http
        .post(`${connectorsPath(tenant.organization.uuid, tenant.environment.uuid, randomUUID())}/test`)
        .set(bearer(token))
        .send({ connector: aConnectorBody() })
        .expect(404);
      expect(side.connections()).toBe(0);
    });

    it('needs connectors:write and the organization: 403 for a reader and for another organization, nothing sent', async () => {
      side = await farSide();
      const uuid = await createConnector(sut, tenant, token, aConnectorBody({ url: `${side.url}/x` }));
      const reader = await signToken({ scope: 'connectors:read' });
      const outsider = await signToken({ ...ALICE, orgs: [randomUUID()] });

      await testSaved(uuid, {}, reader).expect(403);
      await testUnsaved({ connector: aConnectorBody({ url: `${side.url}/x` }) }, reader).expect(403);
      await testSaved(uuid, {}, outsider).expect(403);
      await sut.http.post(`${base}/${uuid}/test`).send({}).expect(401);
      expect(side.connections()).toBe(0);
    });
  });

  describe('OAuth 2.0 (a real token endpoint, @node-oauth/oauth2-server)', () => {
    let endpoint: Awaited<ReturnType<typeof tokenEndpoint>>;
    beforeEach(async () => (endpoint = await tokenEndpoint(3600)));
    afterEach(() => endpoint.close());

    const clientCredentials = (url: string) =>
      aConnectorBody({
        url,
        authType: 'AUTH_OAUTH2',
        grantType: 'CLIENT_CREDENTIALS',
        oauthUrl: endpoint.url,
        clientId: CLIENT.id,
        clientSecret: CLIENT.secret,
        output: '$.seen',
      });
    const echoAuthorization = () =>
      farSide((received, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ seen: received.headers.authorization }));
      });

    it('gets a token (client credentials, HTTP Basic client), keeps it for the connector, and never shows it', async () => {
      side = await echoAuthorization();
      const uuid = await createConnector(sut, tenant, token, clientCredentials(`${side.url}/me`));

      const first = await testSaved(uuid).expect(200);
      const second = await testSaved(uuid).expect(200);

      expect(endpoint.issued()).toBe(1);
      expect(endpoint.authorizations[0]).toMatch(/^Basic /);
      const sent = String(side.received[0].headers.authorization);
      expect(sent).toMatch(/^Bearer [0-9a-f]{64}$/);
      expect(side.received[1].headers.authorization).toBe(sent);
      for (const res of [first, second]) {
        expect(res.body).toMatchObject({ outcome: 'SUCCESS', output: { values: ['Bearer <ACCESS_TOKEN>'] } });
        expect(res.body.request.headers).toContainEqual({ header: 'Authorization', value: 'Bearer <ACCESS_TOKEN>' });
        expect(JSON.stringify(res.body)).not.toContain(sent.slice('Bearer '.length));
      }
      expect(JSON.stringify(sut.logs)).not.toContain(sent.slice('Bearer '.length));
      expect(JSON.stringify(sut.logs)).not.toContain(CLIENT.secret);
    });

    it('asks anew after a 401 to a kept token (one retry), and when the OAuth settings are edited', async () => {
      let refuse = false;
      side = await farSide((_received, res) => {
        res.statusCode = refuse ? 401 : 200;
        refuse = false;
        res.end('{}');
      });
      const uuid = await createConnector(sut, tenant, token, clientCredentials(`${side.url}/me`));
      await testSaved(uuid).expect(200);
      expect(endpoint.issued()).toBe(1);

      refuse = true;
      const retried = await testSaved(uuid).expect(200);
      expect(retried.body.outcome).toBe('SUCCESS');
      expect(endpoint.issued()).toBe(2);
      expect(side.received).toHaveLength(3);
      expect(side.received[2].headers.authorization).not.toBe(side.received[1].headers.authorization);

      const stored = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      await testSaved(uuid, { connector: { ...stored.body, clientId: CLIENT.id, oauthUrl: `${endpoint.url}?audience=b`, clientSecret: CLIENT.secret } }).expect(
        200,
      );
      expect(endpoint.issued()).toBe(3);
    });

    it('uses the password grant', async () => {
      side = await echoAuthorization();
      const connector = aConnectorBody({
        url: `${side.url}/me`,
        authType: 'AUTH_OAUTH2',
        grantType: 'PASSWORD',
        oauthUrl: endpoint.url,
        clientId: CLIENT.id,
        authUsername: USER.username,
        authPassword: USER.password,
        output: '$.seen',
      });

      const res = await testUnsaved({ connector }).expect(200);

      expect(res.body).toMatchObject({ outcome: 'SUCCESS', output: { values: ['Bearer <ACCESS_TOKEN>'] } });
      expect(JSON.stringify(res.body)).not.toContain(USER.password);
    });

    it("is AUTH_FAILED with the endpoint's status, error and error_description; the connector's URL is never called", async () => {
      side = await farSide();
      const res = await testUnsaved({ connector: { ...clientCredentials(`${side.url}/me`), clientSecret: 'wrong-secret' } }).expect(200);

      // What was sent is the token request (secrets as placeholders), and what came back the endpoint's answer.
      expect(res.body).toMatchObject({
        outcome: 'AUTH_FAILED',
        message: expect.stringMatching(/^Token endpoint: The token endpoint answered 401: invalid_client \(.+\)$/),
        request: {
          method: 'POST',
          url: endpoint.url,
          headers: expect.arrayContaining([{ header: 'Authorization', value: 'Basic <CLIENT_CREDENTIALS>' }]),
          body: 'grant_type=client_credentials',
        },
        response: { status: 401, json: { error: 'invalid_client', error_description: expect.any(String) } },
        output: null,
      });
      expect(side.connections()).toBe(0);
      expect(JSON.stringify(res.body)).not.toContain('wrong-secret');
      expect(JSON.stringify(res.body)).not.toContain(Buffer.from(`bot+platform:wrong-secret`).toString('base64'));
    });
  });

  describe('what the far side answers', () => {
    it("reports another status as HTTP_ERROR with the answer, and a non-JSON answer with output's error", async () => {
      side = await farSide((_received, res) => {
        res.statusCode = 503;
        res.setHeader('content-type', 'text/html');
        res.end('<h1>Down</h1>');
      });
      const res = await testUnsaved({ connector: aConnectorBody({ url: `${side.url}/x`, output: '$.data' }) }).expect(200);

      expect(res.body).toMatchObject({
        outcome: 'HTTP_ERROR',
        message: 'The far side answered 503',
        response: { status: 503, body: '<h1>Down</h1>', bodyTruncated: false },
        output: { expression: '$.data', values: null, error: 'the answer is not JSON' },
      });
    });

    it('shows the whole answer and no output when the connector has none (an imported connector starts so): a success', async () => {
      side = await farSide((_received, res) => {
        res.setHeader('content-type', 'application/json');
        res.end('{"data":{"level":3}}');
      });
      for (const output of ['', '  ']) {
        const res = await testUnsaved({ connector: aConnectorBody({ url: `${side.url}/x`, output }) }).expect(200);

        expect(res.body).toMatchObject({
          outcome: 'SUCCESS',
          // The paths to pick an output from.
          response: { status: 200, json: { data: { level: 3 } }, jsonPaths: ['$.data', '$.data.level'], jsonPathsTruncated: false },
          output: null,
        });
      }
    });

    it('follows no redirect: a 3xx is reported with its Location, and its target is never called', async () => {
      const target = await farSide();
      side = await farSide((_received, res) => {
        res.statusCode = 302;
        res.setHeader('location', `${target.url}/elsewhere`);
        res.end();
      });
      try {
        const res = await testUnsaved({ connector: aConnectorBody({ url: `${side.url}/x` }) }).expect(200);
        expect(res.body).toMatchObject({
          outcome: 'HTTP_ERROR',
          message: `The far side answered 302, redirecting to ${target.url}/elsewhere (not followed)`,
          response: { status: 302 },
        });
        expect(target.connections()).toBe(0);
      } finally {
        await target.close();
      }
    });

    it('reads at most 1 MiB and returns 64 KiB, saying so', async () => {
      side = await farSide((_received, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: 'x'.repeat(3 * 1024 * 1024) }));
      });
      const res = await testUnsaved({ connector: aConnectorBody({ url: `${side.url}/x`, output: '$.data' }) }).expect(200);

      expect(res.body.outcome).toBe('SUCCESS');
      expect(res.body.response).toMatchObject({ bodyTruncated: true });
      expect(Buffer.byteLength(res.body.response.body)).toBe(64 * 1024);
      expect(res.body.output).toEqual({ expression: '$.data', values: null, valuesTruncated: false, error: expect.stringMatching(/cut short/), hint: null });
      expect(res.body.response.json).toBeUndefined();
    });

    it('abandons a call that takes longer than CONNECTOR_TEST_TIMEOUT_MS: no answer, or an answer that trickles', async () => {
      side = await farSide((received, res) => {
        if (received.url === '/silent') return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data":');
        // Never ends.
      });
      for (const path of ['/silent', '/trickle']) {
        const res = await testUnsaved({ connector: aConnectorBody({ url: `${side.url}${path}` }) }).expect(200);
        expect(res.body).toMatchObject({ outcome: 'TIMEOUT', response: null, output: null });
        expect(res.body.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
        expect(res.body.durationMs).toBeLessThan(TIMEOUT_MS + 2_000);
      }
    });

    it('reports a refused connection as CONNECTION_FAILED, and an unknown name', async () => {
      side = await farSide();
      const closed = side.url;
      await side.close();
      const refused = await testUnsaved({ connector: aConnectorBody({ url: `${closed}/x` }) }).expect(200);
      expect(refused.body).toMatchObject({
        outcome: 'CONNECTION_FAILED',
        message: `Could not reach 127.0.0.2 port ${side.port}: the connection was refused (ECONNREFUSED)`,
        response: null,
      });
      const unknown = await testUnsaved({ connector: aConnectorBody({ url: 'https://no-such-host.test/x' }) }).expect(200);
      expect(unknown.body).toMatchObject({
        outcome: 'CONNECTION_FAILED',
        message: 'Could not reach no-such-host.test port 443: the name has no address (ENOTFOUND)',
      });
    });

    it('reaches the far side by a name that resolves to an admitted address', async () => {
      side = await farSide();
      const res = await testUnsaved({ connector: aConnectorBody({ url: `http://${FAR_SIDE_HOST}:${side.port}/x` }) }).expect(200);
      expect(res.body.outcome).toBe('SUCCESS');
      expect(side.received[0].headers.host).toBe(`${FAR_SIDE_HOST}:${side.port}`);
    });
  });

  describe('variables', () => {
    it('names every missing variable in one 400, and sends nothing', async () => {
      side = await farSide();
      const connector = aConnectorBody({ url: `${side.url}/{{a}}`, headers: [{ header: 'X-B', value: '{{b}}' }], body: '{{c}} {{a}}' });

      const res = await testUnsaved({ connector, variables: { b: '1' } }).expect(400);

      expect(res.body.message).toEqual(['variables.a is missing: {{a}} appears in the connector', 'variables.c is missing: {{c}} appears in the connector']);
      expect(side.connections()).toBe(0);
    });

    it('sends a template the far side fills as written: {{1}} of a WhatsApp template is text, and \\{{name}} the text {{name}}', async () => {
      side = await farSide();
      // And a literal {{to}}: escaped by a backslash.
      const body = '{"template": "Flight {{1}} departs at {{2}}", "to": "{{to}}", "html": "{{#rows}}{{{cell}}}{{/rows}}", "hint": "\\{{to}}"}';
      const headers = [{ header: 'X-Template', value: 'Hello \\{{to}}' }];
      const connector = aConnectorBody({ requestType: 'POST', url: `${side.url}/messages`, contentType: 'APPLICATION_JSON', headers, body });

      await testUnsaved({ connector, variables: { to: '+15550100' } }).expect(200);

      expect(side.received[0].body).toBe(
        '{"template": "Flight {{1}} departs at {{2}}", "to": "+15550100", "html": "{{#rows}}{{{cell}}}{{/rows}}", "hint": "{{to}}"}',
      );
      expect(side.received[0].headers['x-template']).toBe('Hello {{to}}');
    });

    it('never lets a variable put CR, LF or NUL into a header (400); in the URL they are percent-encoded', async () => {
      side = await farSide();
      const connector = aConnectorBody({ url: `${side.url}/{{v}}`, headers: [{ header: 'X-V', value: 'a{{v}}' }] });

      for (const v of ['x\r\nX-Injected: 1', 'x\ny', 'x\ry']) {
        const res = await testUnsaved({ connector, variables: { v } }).expect(400);
        expect(res.body.message).toEqual(['headers.0.value would hold a line break or NUL once its variables are filled in']);
      }
      const inUrl = await testUnsaved({ connector: aConnectorBody({ url: `${side.url}/{{v}}` }), variables: { v: 'a\r\nHost: evil' } }).expect(200);
      expect(inUrl.body.request.url).toBe(`${side.url}/a%0D%0AHost%3A%20evil`);
      expect(side.received).toHaveLength(1);
    });

    it('refuses, before sending, a header the HTTP client sets itself or a value a header cannot carry', async () => {
      side = await farSide();
      const connector = aConnectorBody({
        url: `${side.url}/x`,
        headers: [
          { header: 'Transfer-Encoding', value: 'chunked' },
          { header: 'X-Price', value: '{{price}}' },
        ],
      });

      const res = await testUnsaved({ connector, variables: { price: '5 €' } }).expect(400);

      expect(res.body.message).toEqual([
        'headers.0.header Transfer-Encoding is set by the HTTP client: a test run cannot send it',
        'headers.1.value holds a character an HTTP header cannot carry (only printable ASCII, Latin-1, space and tab)',
      ]);
      expect(side.connections()).toBe(0);
    });

    it('takes a variable named as a method of every object (toString, valueOf, hasOwnProperty) as any other', async () => {
      side = await farSide();
      const connector = aConnectorBody({
        url: `${side.url}/{{toString}}/{{valueOf}}`,
        requestType: 'POST',
        contentType: 'TEXT_PLAIN',
        body: '{{hasOwnProperty}}',
      });

      const res = await testUnsaved({ connector, variables: { toString: 'a', valueOf: 'b', hasOwnProperty: 'c' } }).expect(200);

      expect(res.body.warnings).toEqual([]);
      expect(side.received[0]).toMatchObject({ url: '/a/b', body: 'c' });
    });

    it('validates the URL again once filled in: the host may not come from a variable that breaks it', async () => {
      const res = await testUnsaved({ connector: aConnectorBody({ url: 'http://{{host}}/x' }), variables: { host: 'a b' } }).expect(400);
      expect(res.body.message).toEqual(['url is not an absolute http or https URL once its variables are filled in']);
    });

    it('takes at most 50 variables, named as placeholders are, each at most 8 KiB', async () => {
      const connector = aConnectorBody();
      const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, 'x']));
      const cases: Array<[unknown, RegExp]> = [
        [many, /^variables must hold at most 50 variables$/],
        [{ '1st': 'x' }, /^variables name "1st" must match/],
        [{ ['a'.repeat(65)]: 'x' }, /^variables name "a{65}" must match/],
        [{ id: 7 }, /^variables id must be a string$/],
        [{ id: 'é'.repeat(4097) }, /^variables id must be at most 8192 bytes/],
        [['x'], /^variables must be an object of string values$/],
        ['x', /^variables must be an object of string values$/],
      ];
      for (const [variables, message] of cases) {
        const res = await testUnsaved({ connector, variables }).expect(400);
        expect(res.body.message).toEqual([expect.stringMatching(message)]);
      }
      await testUnsaved({ connector: aConnectorBody({ url: `http://127.0.0.2:1/{{id}}` }), variables: { id: 'é'.repeat(4096), 'a.b-c_d': '' } }).expect(200);
    });
  });

  describe('observability', () => {
    it('writes one log line per run, never a secret, and counts runs and their durations by outcome in /metrics', async () => {
      side = await farSide();
      const secret = `bearer-${randomUUID()}`;
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/x?key={{key}}`, bearerToken: secret }));
      const metricsBefore = await sut.http.get('/metrics').expect(200);
      const successesBefore = Number(/connector_test_runs_total\{outcome="SUCCESS",app="[^"]+"\} (\d+)/.exec(metricsBefore.text)?.[1] ?? 0);

      const res = await testSaved(uuid, { variables: { key: 'query-secret' } })
        .set('X-Request-Id', 'test-run-log-1')
        .expect(200);

      const lines = sut.logs.filter((line) => line.msg === 'connector test run' && line.requestId === 'test-run-log-1');
      expect(lines).toEqual([
        expect.objectContaining({
          callerSub: 'user-1',
          connectorUuid: uuid,
          destinationHost: `127.0.0.2:${side.port}`,
          outcome: 'SUCCESS',
          status: 200,
          durationMs: res.body.durationMs,
        }),
      ]);
      expect(JSON.stringify(sut.logs)).not.toContain(secret);
      expect(JSON.stringify(lines)).not.toContain('query-secret');
      const metrics = await sut.http.get('/metrics').expect(200);
      expect(metrics.text).toMatch(new RegExp(`connector_test_runs_total\\{outcome="SUCCESS",app="[^"]+"\\} ${successesBefore + 1}\\n`));
      expect(metrics.text).toMatch(/connector_test_runs_total\{outcome="TIMEOUT",app="[^"]+"\} \d+/);
      expect(metrics.text).toMatch(/connector_test_run_duration_seconds_bucket\{le="0\.01",app="[^"]+",outcome="SUCCESS"\} \d+/);
      expect(metrics.text).toMatch(/connector_test_run_duration_seconds_count\{app="[^"]+",outcome="SUCCESS"\} \d+/);
      expect(metrics.text).toMatch(/connector_test_runs_in_flight\{app="[^"]+"\} 0/);
    });
  });
});

import { AppConfig } from '@app/platform';
import { SecretCipher } from '@app/domain';
import { randomUUID } from 'node:crypto';
import { farSide, FarSide, FarSideHandler } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { aConnectorBody, ALICE, createConnector, readStoredSecrets, tenantPath, withBearerAuth } from '../rest-connectors/connector-factories';
import { seedConnectorVariables } from '../support/connector-variables';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { startRunsApp } from './run-records';

const TOKEN = 'bearer-5d1f0b9a77c3e1';
const STRIPE_KEY = 'sk_live_9b2e7c41d0aa58f3';
const SET_WITH = 'PUT /org/{orgUUID}/env/{envUUID}/connector-variables';

/** Echoes what it got: the URL, the Authorization and the X-Api-Key, in a header and in its JSON body. */
const echo: FarSideHandler = ({ url, headers }, res) => {
  res.setHeader('x-echo', `${headers.authorization ?? ''} ${headers['x-api-key'] ?? ''}`);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ url, authorization: headers.authorization ?? null, key: headers['x-api-key'] ?? null }));
};

const ENGINES: Array<[string, () => AppConfig]> = [
  ['MariaDB', () => mysqlTestConfig()],
  ['SQLite', () => sqliteTestConfig()],
];

/** `{{env.NAME}}` of the path's environment in connector writes and test runs (issue 42), far sides on 127.0.0.2. */
describe.each(ENGINES)('Connector variables in writes and test runs (%s)', (_engine, configOf) => {
  let config: AppConfig;
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;
  let side: FarSide;

  const variables = (...seeded: Parameters<typeof seedConnectorVariables>[3]) =>
    seedConnectorVariables(sut.dataSource, new SecretCipher(config.secretsKey!), tenant, seeded);
  const testSaved = (uuid: string, body: object = {}, requestId = randomUUID()) =>
    sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).set('X-Request-Id', requestId).send(body);
  const testUnsaved = (body: object) => sut.http.post(`${base}/test`).set(bearer(token)).send(body);

  beforeAll(async () => {
    config = configOf();
    sut = await startRunsApp(config);
    token = await signToken(ALICE);
  });
  beforeEach(async () => {
    // An environment of its own per test: its variables are the test's alone.
    tenant = await seedTenant(sut.dataSource);
    base = tenantPath(tenant);
    side = await farSide(echo);
  });
  afterEach(() => side.close());
  afterAll(() => sut.close());

  it("runs a bearer connector at {{env.BASE_URL}}/path against the environment's value", async () => {
    await variables({ name: 'BASE_URL', value: `${side.url}/v2` });
    const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: '{{env.BASE_URL}}/items/{{id}}', bearerToken: TOKEN, output: '$.url' }));

    const res = await testSaved(uuid, { variables: { id: 'a b' } }).expect(200);

    expect(side.received).toEqual([
      expect.objectContaining({ url: '/v2/items/a%20b', headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}` }) }),
    ]);
    expect(res.body).toMatchObject({
      outcome: 'SUCCESS',
      request: { url: `${side.url}/v2/items/a%20b`, headers: expect.arrayContaining([{ header: 'Authorization', value: 'Bearer <BEARER_TOKEN>' }]) },
      output: { values: ['/v2/items/a%20b'] },
    });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
  });

  it('runs an unsaved connector at {{env.SCHEME}}://{{env.HOST}}:{{env.PORT}} in the environment of its path', async () => {
    const port = new URL(side.url).port;
    await variables({ name: 'SCHEME', value: 'http' }, { name: 'HOST', value: '127.0.0.2' }, { name: 'PORT', value: port });
    const connector = withBearerAuth({ url: '{{env.SCHEME}}://{{env.HOST}}:{{env.PORT}}/x', bearerToken: TOKEN });

    const res = await testUnsaved({ connector }).expect(200);

    expect(res.body.request.url).toBe(`http://127.0.0.2:${port}/x`);
    expect(side.received).toEqual([expect.objectContaining({ url: '/x', headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}` }) })]);
  });

  it('sends a secret variable in a header to the far side, and never shows it: not in the answer, the stored test run or a log line', async () => {
    await variables({ name: 'BASE_URL', value: side.url }, { name: 'STRIPE_KEY', value: STRIPE_KEY, secret: true, destinations: [side.url] });
    const uuid = await createConnector(
      sut,
      tenant,
      token,
      aConnectorBody({ url: '{{env.BASE_URL}}/charges', headers: [{ header: 'X-Api-Key', value: 'key={{env.STRIPE_KEY}}' }], output: '$.key' }),
    );
    const requestId = randomUUID();

    const res = await testSaved(uuid, {}, requestId).expect(200);

    expect(side.received[0].headers['x-api-key']).toBe(`key=${STRIPE_KEY}`);
    expect(res.body.request.headers).toContainEqual({ header: 'X-Api-Key', value: 'key=<SECRET:env.STRIPE_KEY>' });
    expect(res.body.response.headers).toContainEqual({ header: 'x-echo', value: 'key=<SECRET:env.STRIPE_KEY>' });
    expect(res.body.output.values).toEqual(['key=<SECRET:env.STRIPE_KEY>']);
    expect(JSON.stringify(res.body)).not.toContain(STRIPE_KEY);
    const stored = await sut.dataSource.query('SELECT * FROM connector_test_runs WHERE request_id = ?', [requestId]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(STRIPE_KEY);
    expect(JSON.stringify(sut.logs)).not.toContain(STRIPE_KEY);
    // The same connector read back holds the placeholder, never the value.
    expect(JSON.stringify((await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200)).body)).not.toContain(STRIPE_KEY);
  });

  it('is a 400 for a caller variable named env.*, and for an {{env.NAME}} the environment does not define, each saying how to set it', async () => {
    await variables({ name: 'BASE_URL', value: side.url });
    const uuid = await createConnector(sut, tenant, token, aConnectorBody({ url: '{{env.BASE_URL}}/x?lang={{env.LANG}}' }));

    const given = await testSaved(uuid, { variables: { 'env.BASE_URL': 'http://127.0.0.2:1' } }).expect(400);
    expect(given.body.message).toEqual([
      `variables.env.BASE_URL cannot be given: env.* names are the connector variables of the environment, set with ${SET_WITH}`,
    ]);
    const undefinedOne = await testSaved(uuid).expect(400);
    expect(undefinedOne.body.message).toEqual([`{{env.LANG}} appears in the connector, and its environment defines no LANG: define it with ${SET_WITH}`]);
    // Where a secret would go, an undefined one is refused on write already.
    const write = await sut.http
      .post(base)
      .set(bearer(token))
      .send(withBearerAuth({ url: '{{env.API_URL}}/x' }))
      .expect(400);
    expect(write.body.message).toEqual([
      expect.stringMatching(/^url has \{\{env\.API_URL\}\} in its scheme, user info, host or port, and the environment defines no API_URL/),
    ]);
    expect(side.received).toEqual([]);
  });

  it('refuses a secret variable bound elsewhere: on write a 400 naming it, and a run of a connector written before refuses before sending', async () => {
    const bound = { name: 'STRIPE_KEY', value: STRIPE_KEY, secret: true, destinations: ['https://api.stripe.com'] };
    await variables({ name: 'BASE_URL', value: side.url }, bound);
    const body = aConnectorBody({ url: '{{env.BASE_URL}}/charges', headers: [{ header: 'X-Api-Key', value: '{{env.STRIPE_KEY}}' }] });

    const write = await sut.http.post(base).set(bearer(token)).send(body).expect(400);
    expect(write.body.message).toEqual([
      `{{env.STRIPE_KEY}} is a secret connector variable bound to https://api.stripe.com, and url goes to ${side.url}: to send it there, ` +
        `send its value again with the new destinations (${SET_WITH}), or point url to where it is bound`,
    ]);

    // Written while it was bound here; bound elsewhere since.
    await variables({ name: 'BASE_URL', value: side.url }, { ...bound, destinations: [side.url] });
    const uuid = await createConnector(sut, tenant, token, body);
    await variables({ name: 'BASE_URL', value: side.url }, bound);
    const run = await testSaved(uuid).expect(400);
    expect(run.body.message).toEqual([expect.stringMatching(/^\{\{env\.STRIPE_KEY\}\} is a secret connector variable bound to https:\/\/api\.stripe\.com/)]);
    expect(side.received).toEqual([]);
    expect(JSON.stringify(run.body)).not.toContain(STRIPE_KEY);
  });

  it('keeps a secret by its placeholder across a PUT that changes the URL text but not the resolved destination, and only then', async () => {
    await variables({ name: 'BASE_URL', value: `${side.url}/v1` });
    const uuid = await createConnector(sut, tenant, token, withBearerAuth({ name: 'Charges', url: '{{env.BASE_URL}}/charges', bearerToken: TOKEN }));
    const sealed = (await readStoredSecrets(sut, uuid)).bearerToken;

    const read = (await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200)).body;
    const put = (url: string) =>
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...read, url, bearerToken: '<BEARER_TOKEN>' });
    await put(`${side.url}/v2/charges`).expect(200);
    expect((await readStoredSecrets(sut, uuid)).bearerToken).toBe(sealed);
    await testSaved(uuid).expect(200);
    expect(side.received[0].headers.authorization).toBe(`Bearer ${TOKEN}`);

    const moved = await put('http://127.0.0.3:1/v2/charges').expect(400);
    expect(moved.body.message).toEqual([expect.stringMatching(/^bearerToken must be sent again: url now points elsewhere/)]);
    expect((await readStoredSecrets(sut, uuid)).bearerToken).toBe(sealed);
  });
});

import { secretContext, SecretCipher } from '@app/domain';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { ALICE, createConnector, RECORD_KEYS, tenantPath, withApiKey } from './connector-factories';

/** AUTH_API_KEY (issue 31): a write-only key, sealed, bound to url's destination, sent only where declared. */
describe('AUTH_API_KEY connectors (MariaDB, far sides on 127.0.0.2)', () => {
  const config = mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns({ timeoutMs: 1_500, perMinute: 10_000 }) });
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;
  let side: FarSide | undefined;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config, withResolver());
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());
  afterEach(async () => {
    await side?.close();
    side = undefined;
  });

  const storedKey = async (uuid: string): Promise<{ apiKey: string | null; apiKeyName: string | null; apiKeyIn: string | null }> =>
    (await sut.dataSource.query('SELECT api_key AS apiKey, api_key_name AS apiKeyName, api_key_in AS apiKeyIn FROM rest_connectors WHERE uuid = ?', [uuid]))[0];

  it('stores the key sealed, shows <API_KEY> with where it goes, and records all three in the history', async () => {
    const uuid = await createConnector(sut, tenant, token, withApiKey({ apiKey: 'k-7f3a91e2c4', apiKeyName: 'X-Api-Key', apiKeyIn: 'HEADER' }));

    const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
    expect(Object.keys(read.body)).toEqual(RECORD_KEYS);
    expect(read.body).toMatchObject({ authType: 'AUTH_API_KEY', apiKeyName: 'X-Api-Key', apiKeyIn: 'HEADER', apiKey: '<API_KEY>' });
    const row = await storedKey(uuid);
    expect(row).toMatchObject({ apiKeyName: 'X-Api-Key', apiKeyIn: 'HEADER' });
    expect(row.apiKey).not.toContain('k-7f3a91e2c4');
    expect(new SecretCipher(config.secretsKey!).decrypt(row.apiKey!, secretContext(uuid, 'apiKey'))).toBe('k-7f3a91e2c4');

    const version = await sut.http.get(`${base}/${uuid}/versions/1`).set(bearer(token)).expect(200);
    expect(version.body.changedFields).toEqual(expect.arrayContaining(['authType', 'apiKeyName', 'apiKeyIn', 'apiKey']));
    expect(version.body.snapshot).toMatchObject({ apiKeyName: 'X-Api-Key', apiKeyIn: 'HEADER', apiKey: '<API_KEY>' });
    expect(JSON.stringify(version.body)).not.toContain('k-7f3a91e2c4');
    expect(JSON.stringify(sut.logs)).not.toContain('k-7f3a91e2c4');
  });

  it('refuses incomplete or unsafe API-key settings with one 400 naming each problem, and stores nothing', async () => {
    const count = async () => Number((await sut.dataSource.query('SELECT COUNT(*) AS n FROM rest_connectors WHERE bot_uuid = ?', [tenant.bot.uuid]))[0].n);
    const before = await count();
    const refused = async (overrides: Record<string, unknown>) =>
      (await sut.http.post(base).set(bearer(token)).send(withApiKey(overrides)).expect(400)).body.message;

    expect(await refused({ apiKeyName: undefined, apiKeyIn: undefined, apiKey: undefined })).toEqual([
      'apiKeyName must be a string',
      'apiKeyIn must be one of HEADER, QUERY',
      'apiKey must be a string',
    ]);
    expect(await refused({ apiKeyName: ' ', apiKey: '' })).toEqual(['apiKeyName must not be blank', 'apiKey is required when authType is AUTH_API_KEY']);
    expect(await refused({ apiKeyIn: 'COOKIE' })).toEqual(['apiKeyIn must be one of HEADER, QUERY; got "COOKIE"']);
    expect(await refused({ apiKeyName: 'X Api Key' })).toEqual(['apiKeyName must be an HTTP header name (RFC 9110 token) when apiKeyIn is HEADER']);
    expect(await refused({ apiKeyName: 'Host' })).toEqual(['apiKeyName cannot be Host: that header names the host the call is meant for']);
    expect(await refused({ apiKeyName: 'X-HTTP-Host-Override' })).toEqual([
      'apiKeyName cannot be X-HTTP-Host-Override: that header names the host the call is meant for',
    ]);
    expect(await refused({ apiKeyName: 'X-Original-URL' })).toEqual(['apiKeyName cannot be X-Original-URL: front ends route the call by that header']);
    expect(await refused({ apiKeyName: 'content-length' })).toEqual(['apiKeyName cannot be content-length: the HTTP client sets that header itself']);
    expect(await refused({ apiKey: 'clé' })).toEqual(['apiKey must be printable ASCII when apiKeyIn is HEADER: a header cannot carry other characters safely']);
    expect(await refused({ url: 'https://{{tenant}}.example.com/x' })).toEqual([
      'url must not have a {{variable}} in its scheme, user info, host or port while authType is AUTH_API_KEY: the API key would go wherever the variable points. ' +
        'Write them out in full; variables may stand in the path, query and fragment',
    ]);
    expect(await count()).toBe(before);
    // A query parameter's name and key may be any text: they are percent-encoded.
    await sut.http
      .post(base)
      .set(bearer(token))
      .send(withApiKey({ apiKeyName: 'api key', apiKeyIn: 'QUERY', apiKey: 'clé' }))
      .expect(201);
  });

  it('keeps the key for its placeholder while url keeps its destination, asks for it again when url moves, and drops it with another authType', async () => {
    const uuid = await createConnector(sut, tenant, token, withApiKey({ name: 'Kept key', url: 'https://api.example.com/a' }));
    const put = (body: Record<string, unknown>) =>
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withApiKey({ name: 'Kept key', ...body }));

    await put({ apiKey: '<API_KEY>', url: 'https://API.example.com:443/b' }).expect(200);
    const kept = await storedKey(uuid);
    expect(new SecretCipher(config.secretsKey!).decrypt(kept.apiKey!, secretContext(uuid, 'apiKey'))).toBe('api-key-value');

    const moved = await put({ apiKey: '<API_KEY>', url: 'https://elsewhere.example.com/b' }).expect(400);
    expect(moved.body.message).toEqual([
      'apiKey must be sent again: url now points elsewhere (another scheme, host, port or user info) than when it was stored',
    ]);

    await put({ authType: 'AUTH_NONE', url: 'https://API.example.com:443/b' }).expect(200);
    expect(await storedKey(uuid)).toEqual({ apiKey: null, apiKeyName: null, apiKeyIn: null });
    const latest = await sut.http.get(`${base}/${uuid}/versions/3`).set(bearer(token)).expect(200);
    expect(latest.body.changedFields).toEqual(['authType', 'apiKeyName', 'apiKeyIn', 'apiKey']);
  });

  it('asks for the key again when apiKeyIn or apiKeyName change, on a PUT and in a test run, before anything is sent', async () => {
    side = await farSide((_received, res) => res.end('ok'));
    const settings = { name: 'Placed key', url: `${side.url}/v1/items`, apiKeyName: 'X-API-Key', apiKeyIn: 'HEADER', output: '' };
    const uuid = await createConnector(sut, tenant, token, withApiKey({ ...settings, apiKey: 'placed-key-3c9e' }));
    const sentAgain = (moved: string) => `apiKey must be sent again: ${moved} elsewhere (another header or query parameter) than when it was stored`;
    const put = (body: Record<string, unknown>) =>
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withApiKey({ ...settings, apiKey: '<API_KEY>', ...body }));
    const testRun = (body: Record<string, unknown>) =>
      sut.http
        .post(`${base}/${uuid}/test`)
        .set(bearer(token))
        .send({ connector: withApiKey({ ...settings, apiKey: '<API_KEY>', ...body }) });

    expect((await put({ apiKeyIn: 'QUERY', apiKeyName: 'key' }).expect(400)).body.message).toEqual([sentAgain('apiKeyIn and apiKeyName now point')]);
    expect((await put({ apiKeyName: 'X-Debug-Log' }).expect(400)).body.message).toEqual([sentAgain('apiKeyName now points')]);
    expect((await testRun({ apiKeyIn: 'QUERY' }).expect(400)).body.message).toEqual([sentAgain('apiKeyIn now points')]);
    expect((await testRun({ apiKeyName: 'X-Debug-Log' }).expect(400)).body.message).toEqual([sentAgain('apiKeyName now points')]);
    expect(side.connections()).toBe(0);
    expect(await storedKey(uuid)).toMatchObject({ apiKeyName: 'X-API-Key', apiKeyIn: 'HEADER' });

    // Unchanged, the placeholder keeps it; sent again, the key goes wherever the writer now says.
    await testRun({}).expect(200);
    expect(side.received[0].headers['x-api-key']).toBe('placed-key-3c9e');
    await put({ apiKeyIn: 'QUERY', apiKeyName: 'key', apiKey: 'placed-key-3c9e' }).expect(200);
    expect(await storedKey(uuid)).toMatchObject({ apiKeyName: 'key', apiKeyIn: 'QUERY' });
  });

  it('test runs send a saved key as its header only, and show and scrub it as <API_KEY>', async () => {
    side = await farSide((received, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ echo: received.headers['x-api-key'], url: received.url }));
    });
    const uuid = await createConnector(sut, tenant, token, withApiKey({ url: `${side.url}/v1/items`, apiKey: 'hdr-key-51c0d2', output: '$.echo' }));

    const run = await sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).send({}).expect(200);

    expect(side.received[0]).toMatchObject({ url: '/v1/items', headers: { 'x-api-key': 'hdr-key-51c0d2' } });
    expect(run.body.request.headers).toContainEqual({ header: 'X-API-Key', value: '<API_KEY>' });
    expect(run.body.response.json).toEqual({ echo: '<API_KEY>', url: '/v1/items' });
    expect(run.body.output.values).toEqual(['<API_KEY>']);
    expect(JSON.stringify(run.body)).not.toContain('hdr-key-51c0d2');
    expect(JSON.stringify(sut.logs)).not.toContain('hdr-key-51c0d2');
  });

  it('test runs send a saved key as the query parameter, percent-encoded, and scrub it from the URL the far side echoes', async () => {
    side = await farSide((received, res) => res.end(`you asked for ${received.url}`));
    const key = 'q key/+é';
    const uuid = await createConnector(
      sut,
      tenant,
      token,
      withApiKey({ url: `${side.url}/rates?base={{currency}}`, apiKeyName: 'api_key', apiKeyIn: 'QUERY', apiKey: key, output: '' }),
    );

    const run = await sut.http
      .post(`${base}/${uuid}/test`)
      .set(bearer(token))
      .send({ variables: { currency: 'EUR' } })
      .expect(200);

    expect(side.received[0].url).toBe(`/rates?base=EUR&api_key=${encodeURIComponent(key)}`);
    expect(side.received[0].headers['x-api-key']).toBeUndefined();
    expect(run.body.request.url).toBe(`${side.url}/rates?base=EUR&api_key=<API_KEY>`);
    expect(run.body.response.body).toBe('you asked for /rates?base=EUR&api_key=<API_KEY>');
    expect(JSON.stringify(run.body)).not.toContain(encodeURIComponent(key));
  });

  it('test runs of an unsaved connector send the key the caller gave, where it says', async () => {
    side = await farSide((_received, res) => res.end('ok'));
    const connector = withApiKey({ url: side.url, apiKeyName: 'Api-Token', apiKey: 'unsaved-key-1', output: '' });

    const run = await sut.http.post(`${base}/test`).set(bearer(token)).send({ connector }).expect(200);

    expect(side.received[0].headers['api-token']).toBe('unsaved-key-1');
    expect(run.body.request.headers).toContainEqual({ header: 'Api-Token', value: '<API_KEY>' });
  });
});

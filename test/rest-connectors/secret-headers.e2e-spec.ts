import { AppConfig, parseServerUrl } from '@app/platform';
import { rotateSecrets, SecretCipher, secretHeaderContext } from '@app/domain';
import { randomBytes } from 'node:crypto';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { FeedConsumer } from '../connector-events/feed-consumer';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { aConnectorBody, ALICE, createConnector, tenantPath, withBearerAuth } from './connector-factories';

const KEY = 'x-key-5d1f0b9a77';
const apiKeyHeader = (value = KEY) => ({ header: 'X-Api-Key', value, secret: true });

/** A MariaDB database of the suite's own (rotation re-encrypts every connector of a database), or a SQLite file of its own. */
const ENGINES: Array<[string, () => Promise<{ config: AppConfig; drop: () => Promise<void> }>]> = [
  [
    'MariaDB',
    async () => {
      const name = uniqueDatabaseName('platform_secret_headers');
      const url = await createMigratedDatabase(name);
      return { config: mysqlTestConfig({ database: parseServerUrl(url) }), drop: () => dropDatabase(name) };
    },
  ],
  ['SQLite', async () => ({ config: sqliteTestConfig(), drop: async () => undefined })],
];

/** Secret headers (issue 41): a header marked `secret: true` is sealed, shown as <SECRET>, bound to url, kept by its placeholder, rotated. */
describe.each(ENGINES)('Secret headers (%s)', (_engine, engine) => {
  let config: AppConfig;
  let drop: () => Promise<void>;
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  beforeAll(async () => {
    ({ config, drop } = await engine());
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config);
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    base = tenantPath(tenant);
  });
  afterAll(async () => {
    await sut.close();
    await drop();
  });

  const storedHeaders = async (uuid: string): Promise<Array<{ header: string; value: string; secret?: boolean }>> => {
    const [row] = await sut.dataSource.query('SELECT headers FROM rest_connectors WHERE uuid = ?', [uuid]);
    return JSON.parse(row.headers);
  };
  const cipher = () => new SecretCipher(config.secretsKey!);

  it('stores the value sealed beside plain headers, reads it as <SECRET>, and keeps it for <SECRET> (by name, in any case) on a PUT', async () => {
    const headers = [{ header: 'Accept', value: 'application/json' }, apiKeyHeader()];
    const uuid = await createConnector(sut, tenant, token, withBearerAuth({ name: 'Two credentials', url: 'https://api.example.com/a', headers }));

    const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
    expect(read.body.headers).toEqual([
      { header: 'Accept', value: 'application/json' },
      { header: 'X-Api-Key', value: '<SECRET>', secret: true },
    ]);
    const [plain, sealed] = await storedHeaders(uuid);
    expect(plain).toEqual({ header: 'Accept', value: 'application/json' });
    expect(sealed).toMatchObject({ header: 'X-Api-Key', secret: true });
    expect(sealed.value).not.toContain(KEY);
    expect(cipher().decrypt(sealed.value, secretHeaderContext(uuid, 'x-api-key'))).toBe(KEY);

    // The record read back as it is (GET then PUT), the header's name spelled otherwise.
    const put = { ...read.body, headers: [read.body.headers[0], { header: 'x-api-key', value: '<SECRET>', secret: true }], bearerToken: '<BEARER_TOKEN>' };
    await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(put).expect(200);
    const kept = (await storedHeaders(uuid))[1];
    expect(kept).toEqual({ header: 'x-api-key', value: sealed.value, secret: true });
    expect(JSON.stringify(sut.logs)).not.toContain(KEY);
  });

  it('asks for a kept secret header again when url moves, and refuses <SECRET> with nothing stored or without secret: true', async () => {
    const uuid = await createConnector(sut, tenant, token, withBearerAuth({ name: 'Moving', url: 'https://api.example.com/a', headers: [apiKeyHeader()] }));
    const put = (body: Record<string, unknown>) =>
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withBearerAuth({ name: 'Moving', bearerToken: '<BEARER_TOKEN>', ...body }));

    const moved = await put({ url: 'https://other.example.com/a', headers: [apiKeyHeader('<SECRET>')] }).expect(400);
    expect(moved.body.message).toEqual([
      'headers.0.value of the secret header X-Api-Key must be sent again: url now points elsewhere (another scheme, host, port or user info) than when it was stored',
      'bearerToken must be sent again: url now points elsewhere (another scheme, host, port or user info) than when it was stored',
    ]);
    const unknown = await put({ headers: [{ header: 'X-Other', value: '<SECRET>', secret: true }] }).expect(400);
    expect(unknown.body.message).toEqual([
      'headers.0.value must be the secret itself: <SECRET> only stands for a stored one, and no secret header X-Other is stored',
    ]);
    const unmarked = await put({ url: 'https://api.example.com/a', headers: [{ header: 'X-Api-Key', value: '<SECRET>' }] }).expect(400);
    expect(unmarked.body.message).toEqual([
      'headers.0.value <SECRET> stands for the stored value of the secret header X-Api-Key: send secret: true with it to keep that value',
    ]);
    // Sent again, it follows the move.
    await put({ url: 'https://other.example.com/a', headers: [apiKeyHeader('moved-key')], bearerToken: 'b-2' }).expect(200);
    expect(cipher().decrypt((await storedHeaders(uuid))[0].value, secretHeaderContext(uuid, 'X-Api-Key'))).toBe('moved-key');
  });

  it('rotates a secret header with the other secrets, leaving the ETag alone', async () => {
    const uuid = await createConnector(sut, tenant, token, { name: 'Rotated', headers: [apiKeyHeader('rotated-key-1')] });
    const before = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
    const newKey = randomBytes(32);

    const summary = await rotateSecrets(sut.dataSource, new SecretCipher(newKey, config.secretsKey!));

    expect(summary.secrets).toBeGreaterThanOrEqual(1);
    const [sealed] = await storedHeaders(uuid);
    expect(new SecretCipher(newKey).decrypt(sealed.value, secretHeaderContext(uuid, 'x-api-key'))).toBe('rotated-key-1');
    const after = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
    expect(after.headers.etag).toBe(before.headers.etag);
  });
});

describe('Secret headers in test runs, history, events, exports and imports (MariaDB, far sides on 127.0.0.2)', () => {
  const config = mysqlTestConfig({ logLevel: 'info', connectorTests: loopbackTestRuns({ timeoutMs: 1_500, perMinute: 10_000 }) });
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;
  let side: FarSide;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config, withResolver());
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    base = tenantPath(tenant);
    // Echoes what it got: the secrets come back in the answer unless scrubbed.
    side = await farSide((received, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ key: received.headers['x-api-key'], authorization: received.headers.authorization }));
    });
  });
  afterAll(async () => {
    await side.close();
    await sut.close();
  });

  it('a test run sends the real value, shows <SECRET> in the request and scrubs the echo', async () => {
    const uuid = await createConnector(
      sut,
      tenant,
      token,
      withBearerAuth({ name: 'Runs', url: `${side.url}/v1/items`, bearerToken: 'b-tok-8e21', headers: [apiKeyHeader()], output: '$.key' }),
    );
    const sent = side.received.length;

    const run = await sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).send({}).expect(200);

    expect(side.received[sent].headers).toMatchObject({ 'x-api-key': KEY, authorization: 'Bearer b-tok-8e21' });
    expect(run.body.request.headers).toContainEqual({ header: 'X-Api-Key', value: '<SECRET>' });
    expect(run.body.response.json).toEqual({ key: '<SECRET>', authorization: 'Bearer <BEARER_TOKEN>' });
    expect(run.body.output.values).toEqual(['<SECRET>']);
    expect(JSON.stringify(run.body)).not.toContain(KEY);
    expect(JSON.stringify(sut.logs)).not.toContain(KEY);
  });

  it('an unsaved run sends a secret header as written (no variable filled in it); a saved run refuses edits that would carry its stored value elsewhere', async () => {
    const connector = aConnectorBody({ name: 'Unsaved', url: `${side.url}/v1/{{id}}`, headers: [apiKeyHeader('k-{{id}}')], output: '' });
    const sent = side.received.length;

    const run = await sut.http
      .post(`${base}/test`)
      .set(bearer(token))
      .send({ connector, variables: { id: '7' } })
      .expect(200);

    expect(side.received[sent]).toMatchObject({ url: '/v1/7', headers: { 'x-api-key': 'k-{{id}}' } });
    expect(run.body.request.headers).toContainEqual({ header: 'X-Api-Key', value: '<SECRET>' });

    const uuid = await createConnector(sut, tenant, token, { ...connector, name: 'Probed', url: `${side.url}/v1/p`, headers: [apiKeyHeader()] });
    const probe = { ...connector, name: 'Probed', url: `${side.url}/v1/p`, headers: [apiKeyHeader('<SECRET>'), { header: 'X-Echo', value: KEY }] };
    const refused = await sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).send({ connector: probe }).expect(400);
    expect(refused.body.message).toEqual([expect.stringMatching(/^The request would carry a secret stored for this connector outside/)]);
    expect(side.received.length).toBe(sent + 1);
  });

  it('history and events show <SECRET>, and a changed value alone is a change of the headers', async () => {
    const consumer = await new FeedConsumer(
      sut,
      token,
      `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`,
      {
        botUUID: tenant.bot.uuid,
      },
    ).fromNow();
    const body = { name: 'Recorded', url: 'https://api.example.com/r', headers: [apiKeyHeader()] };
    const uuid = await createConnector(sut, tenant, token, body);
    const put = (value: string) =>
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...withBearerAuth(body), authType: 'AUTH_NONE', headers: [apiKeyHeader(value)] });
    expect((await put('<SECRET>').expect(200)).body.message).toBe('Rest connector unchanged');
    await put('new-key-0c4e').expect(200);

    const versions = await sut.http.get(`${base}/${uuid}/versions`).set(bearer(token)).expect(200);
    const second = await sut.http.get(`${base}/${uuid}/versions/2`).set(bearer(token)).expect(200);
    expect(second.body.changedFields).toEqual(['headers']);
    expect(second.body.snapshot.headers).toEqual([{ header: 'X-Api-Key', value: '<SECRET>', secret: true }]);
    const diff = await sut.http.get(`${base}/${uuid}/versions/1/diff/2`).set(bearer(token)).expect(200);
    expect(diff.body.changes).toEqual([
      { field: 'headers', from: [{ header: 'X-Api-Key', value: '<SECRET>', secret: true }], to: [{ header: 'X-Api-Key', value: '<SECRET>', secret: true }] },
    ]);
    // The bot's feed may also carry events of the file's earlier connectors, published late: read on until this one's two.
    const ofThis = () => consumer.events.filter(({ event }) => event.subject === uuid);
    for (let count = 2; ofThis().length < 2; count = consumer.events.length + 1) await consumer.until(count);
    const events = ofThis();
    expect(events.map(({ event }) => event.data.snapshot.headers)).toEqual([
      [{ header: 'X-Api-Key', value: '<SECRET>', secret: true }],
      [{ header: 'X-Api-Key', value: '<SECRET>', secret: true }],
    ]);
    expect(events[1].event.data.changedFields).toEqual(['headers']);
    for (const text of [versions.text, second.text, diff.text, JSON.stringify(events)]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('new-key-0c4e');
    }
  });

  it.each(['curl', 'openapi', 'postman'])('a %s export holds no secret header value, only its variable or scheme', async (format) => {
    const uuid = await createConnector(sut, tenant, token, withBearerAuth({ name: `Exported ${format}`, headers: [apiKeyHeader()] }));

    const exported = await sut.http.get(`${base}/${uuid}/export?format=${format}`).set(bearer(token)).expect(200);

    expect(exported.text).not.toContain(KEY);
    expect(exported.text).not.toContain('<SECRET>');
    expect(exported.text).toContain('SECRET_X_API_KEY');
  });

  it('imports a two-credential cURL as bearer auth and a sealed secret header, and a test run sends both', async () => {
    const source = `curl '${side.url}/v1/two' -H 'Authorization: Bearer imp-tok-7' -H 'x-api-key: imp-key-3a'`;

    const imported = await sut.http.post(`${base}/import`).set(bearer(token)).send({ format: 'curl', source, dryRun: false }).expect(200);

    const [connector] = imported.body.connectors;
    expect(connector.connector).toMatchObject({
      authType: 'AUTH_BEARER',
      bearerToken: '<BEARER_TOKEN>',
      headers: [{ header: 'x-api-key', value: '<SECRET>', secret: true }],
    });
    expect(connector.credentials).toEqual([
      expect.objectContaining({ field: 'bearerToken', from: 'SOURCE' }),
      expect.objectContaining({ field: 'headers', header: 'x-api-key', from: 'SOURCE' }),
    ]);
    expect(imported.body.warnings.map(({ code }: { code: string }) => code)).toEqual(['SECRET_HEADER']);
    expect(JSON.stringify(imported.body)).not.toMatch(/imp-tok-7|imp-key-3a/);
    const sent = side.received.length;
    await sut.http.post(`${base}/${connector.uuid}/test`).set(bearer(token)).send({}).expect(200);
    expect(side.received[sent].headers).toMatchObject({ 'x-api-key': 'imp-key-3a', authorization: 'Bearer imp-tok-7' });
  });

  it('round trip: the cURL export imported again keeps both credentials, the secret header given in credentials.headers', async () => {
    const uuid = await createConnector(
      sut,
      tenant,
      token,
      withBearerAuth({ name: 'Round trip', url: `${side.url}/v1/rt`, headers: [apiKeyHeader()], output: '' }),
    );
    const { text: source } = await sut.http.get(`${base}/${uuid}/export?format=curl`).set(bearer(token)).expect(200);

    const missing = await sut.http
      .post(`${base}/import`)
      .set(bearer(token))
      // The export names the connector: imported again beside it, the copy is renamed.
      .send({ format: 'curl', source, dryRun: false, onConflict: 'rename', credentials: { bearerToken: 'rt-tok' } })
      .expect(400);
    expect(missing.body.message).toEqual([
      expect.stringMatching(
        /^connectors\.0 \(line \d+\): the secret header X-Api-Key is not in the source \(it names the variable SECRET_X_API_KEY\): send it in credentials\.headers\["X-Api-Key"\]$/,
      ),
    ]);
    const credentials = { bearerToken: 'rt-tok', headers: { 'x-api-key': 'rt-key' } };
    const imported = await sut.http
      .post(`${base}/import`)
      .set(bearer(token))
      .send({ format: 'curl', source, dryRun: false, onConflict: 'rename', credentials })
      .expect(200);

    const [copy] = imported.body.connectors;
    expect(copy.connector.name).toBe('Round trip (2)');
    expect(copy.credentials).toEqual([
      expect.objectContaining({ field: 'bearerToken', from: 'CREDENTIALS', variable: 'BEARER_TOKEN' }),
      expect.objectContaining({ field: 'headers', header: 'X-Api-Key', from: 'CREDENTIALS', variable: 'SECRET_X_API_KEY' }),
    ]);
    const sent = side.received.length;
    await sut.http.post(`${base}/${copy.uuid}/test`).set(bearer(token)).send({}).expect(200);
    expect(side.received[sent].headers).toMatchObject({ 'x-api-key': 'rt-key', authorization: 'Bearer rt-tok' });
  });
});

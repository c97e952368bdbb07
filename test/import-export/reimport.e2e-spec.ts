import { SecretCipher, secretContext } from '@app/domain';
import { AppConfig } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { ALICE, createConnector, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

const OK = { 200: { description: 'OK' } };
/** A vendor's document, version 1, and version 2 with the same operations changed: what a re-import brings in. */
const documentOf = (server: string) => ({
  openapi: '3.0.3',
  info: { title: 'Orders', version: '1.0.0' },
  servers: [{ url: server }],
  components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
  security: [{ token: [] }],
  paths: {
    '/orders/{id}': { get: { operationId: 'getOrder', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: OK } },
    '/orders': { get: { operationId: 'listOrders', responses: OK } },
  },
});
const V1 = JSON.stringify(documentOf('https://orders.example.com/v1'));
/** The same host (the secret's destination unchanged), another path. */
const V2 = JSON.stringify(documentOf('https://orders.example.com/v2'));
/** Another host: a kept secret would go elsewhere. */
const MOVED = JSON.stringify(documentOf('https://orders.example.net/v2'));

describe.each<[string, () => AppConfig]>([
  ['MariaDB', () => mysqlTestConfig()],
  ['SQLite', () => sqliteTestConfig()],
])('Re-import: name conflicts (%s)', (_engine, config) => {
  let sut: TestApp;
  let cipher: SecretCipher;
  let tenant: Tenant;
  let token: string;
  let base: string;

  beforeAll(async () => {
    const settings = config();
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, settings);
    cipher = new SecretCipher(settings.secretsKey!);
    token = await signToken(ALICE);
  });
  beforeEach(async () => {
    tenant = await seedTenant(sut.dataSource);
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());

  const importing = (body: object) => sut.http.post(`${base}/import`).set(bearer(token)).send(body);
  const rows = async () =>
    (await sut.dataSource.query('SELECT uuid, name, url, version FROM rest_connectors WHERE bot_uuid = ? ORDER BY name', [tenant.bot.uuid])) as Array<{
      uuid: string;
      name: string;
      url: string;
      version: number;
    }>;
  const events = async (uuid: string) =>
    Number((await sut.dataSource.query('SELECT COUNT(*) AS n FROM connector_events WHERE connector_uuid = ?', [uuid]))[0].n);
  const bearerOf = async (uuid: string) => {
    const [row] = await sut.dataSource.query('SELECT bearer_token AS sealed FROM rest_connectors WHERE uuid = ?', [uuid]);
    return cipher.decrypt(row.sealed, secretContext(uuid, 'bearerToken'));
  };
  /** Version 1 imported, with its token. */
  const firstImport = async () => {
    await importing({ format: 'openapi', source: V1, dryRun: false, credentials: { bearerToken: 'first-token-0001' } }).expect(200);
    return Object.fromEntries((await rows()).map(({ name, uuid }) => [name, uuid]));
  };

  it('lists each conflict in the dry run with the connector that has the name; a create without onConflict is a 409 naming every one, and writes nothing', async () => {
    const existing = await firstImport();
    const before = await rows();

    const dry = await importing({ format: 'openapi', source: V2 }).expect(200);

    expect(dry.body.connectors.map(({ connector, conflict }: { connector: { name: string }; conflict?: object }) => [connector.name, conflict])).toEqual([
      ['getOrder', { uuid: existing.getOrder, name: 'getOrder', resolution: 'fail' }],
      ['listOrders', { uuid: existing.listOrders, name: 'listOrders', resolution: 'fail' }],
    ]);
    const refused = await importing({ format: 'openapi', source: V2, dryRun: false, credentials: { bearerToken: 't' } }).expect(409);
    expect(refused.body.message).toBe(
      `2 names of the import already belong to active rest connectors of this bot: "getOrder" (${existing.getOrder}), "listOrders" (${existing.listOrders}); ` +
        'send onConflict skip, rename or update (a dry run shows what each does), or rename them in the source',
    );
    expect(await rows()).toEqual(before);
  });

  it('matches names case-insensitively, and a connector without a conflict has none', async () => {
    const other = await createConnector(sut, tenant, token, { name: 'GETORDER' });

    const dry = await importing({ format: 'openapi', source: V1 }).expect(200);

    expect(dry.body.connectors[0].conflict).toEqual({ uuid: other, name: 'GETORDER', resolution: 'fail' });
    expect(dry.body.connectors[1]).not.toHaveProperty('conflict');
  });

  it('skips: creates only the connectors whose names are free, and leaves the others as they were', async () => {
    const existing = await firstImport();
    const source = JSON.stringify({
      ...documentOf('https://orders.example.com/v2'),
      paths: { ...documentOf('').paths, '/refunds': { post: { operationId: 'createRefund', responses: OK } } },
    });

    const res = await importing({ format: 'openapi', source, onConflict: 'skip', dryRun: false, credentials: { bearerToken: 't-2' } }).expect(200);

    expect(res.body.connectors.map(({ uuid, conflict }: { uuid?: string; conflict?: { resolution: string } }) => [uuid, conflict?.resolution])).toEqual([
      [undefined, 'skip'],
      [undefined, 'skip'],
      [expect.any(String), undefined],
    ]);
    const after = await rows();
    expect(after.map(({ name, version }) => [name, version])).toEqual([
      ['createRefund', 1],
      ['getOrder', 1],
      ['listOrders', 1],
    ]);
    expect(after.find(({ name }) => name === 'getOrder')).toMatchObject({ uuid: existing.getOrder, url: 'https://orders.example.com/v1/orders/{{id}}' });
  });

  it('renames: the first free " (n)" past the names the bot already has, in the dry run as in the create', async () => {
    await firstImport();
    await createConnector(sut, tenant, token, { name: 'getOrder (2)' });

    const dry = await importing({ format: 'openapi', source: V2, onConflict: 'rename' }).expect(200);
    const res = await importing({ format: 'openapi', source: V2, onConflict: 'rename', dryRun: false, credentials: { bearerToken: 't-3' } }).expect(200);

    const names = ({ body }: { body: { connectors: Array<{ connector: { name: string } }> } }) => body.connectors.map(({ connector }) => connector.name);
    expect(names(dry)).toEqual(['getOrder (3)', 'listOrders (2)']);
    expect(names(res)).toEqual(['getOrder (3)', 'listOrders (2)']);
    expect(res.body.connectors[0].conflict).toMatchObject({ name: 'getOrder', resolution: 'rename' });
    expect((await rows()).map(({ name }) => name)).toEqual(['getOrder', 'getOrder (2)', 'getOrder (3)', 'listOrders', 'listOrders (2)']);
  });

  it('updates: a new version with its change event, the stored token shown as kept in the dry run, beside the creates', async () => {
    const existing = await firstImport();
    const source = JSON.stringify({
      ...documentOf('https://orders.example.com/v2'),
      paths: { ...documentOf('').paths, '/refunds': { post: { operationId: 'createRefund', responses: OK } } },
    });

    const dry = await importing({ format: 'openapi', source, onConflict: 'update' }).expect(200);
    expect(dry.body.connectors[0]).toMatchObject({
      conflict: { uuid: existing.getOrder, resolution: 'update' },
      credentials: [expect.objectContaining({ field: 'bearerToken', from: 'STORED' })],
    });
    expect(dry.body.connectors[2].credentials).toEqual([expect.objectContaining({ field: 'bearerToken', from: 'MISSING' })]);

    // The new connector needs the token; the updated ones keep theirs.
    const refused = await importing({ format: 'openapi', source, onConflict: 'update', dryRun: false }).expect(400);
    expect(refused.body.message).toEqual([expect.stringMatching(/^connectors\.2 \(.+\): bearerToken is not in the source/)]);
    const res = await importing({ format: 'openapi', source, onConflict: 'update', dryRun: false, credentials: { bearerToken: 'refund-token' } }).expect(200);

    expect(res.body.connectors.map(({ uuid }: { uuid: string }) => uuid).slice(0, 2)).toEqual([existing.getOrder, existing.listOrders]);
    const after = await rows();
    expect(after.find(({ uuid }) => uuid === existing.getOrder)).toMatchObject({ url: 'https://orders.example.com/v2/orders/{{id}}', version: 2 });
    // Given in credentials, the token goes to every connector that needs it, the updated ones too.
    expect(await bearerOf(existing.getOrder)).toBe('refund-token');
    expect(await events(existing.getOrder)).toBe(2);
    const history = await sut.http.get(`${base}/${existing.getOrder}/versions`).set(bearer(token)).expect(200);
    expect(history.body.content.map(({ operation }: { operation: string }) => operation)).toEqual(['UPDATED', 'CREATED']);
  });

  it('updates keeping the stored token when none is given, and writes nothing for a connector that does not change', async () => {
    const existing = await firstImport();

    await importing({ format: 'openapi', source: V2, onConflict: 'update', dryRun: false }).expect(200);
    await importing({ format: 'openapi', source: V2, onConflict: 'update', dryRun: false }).expect(200);

    expect(await bearerOf(existing.getOrder)).toBe('first-token-0001');
    expect((await rows()).map(({ version }) => version)).toEqual([2, 2]);
    expect(await events(existing.getOrder)).toBe(2);
  });

  it('answers a retry under the same Idempotency-Key with the first import, not with its own connectors as conflicts', async () => {
    const send = () =>
      sut.http
        .post(`${base}/import`)
        .set(bearer(token))
        .set('Idempotency-Key', 'reimport-retry-1')
        .send({ format: 'openapi', source: V1, dryRun: false, onConflict: 'rename', credentials: { bearerToken: 'retry-token' } });
    await createConnector(sut, tenant, token, { name: 'getOrder' });

    const first = await send().expect(200);
    const retry = await send().expect(200);

    expect(retry.body).toEqual(first.body);
    expect(first.body.connectors.map(({ connector }: { connector: { name: string } }) => connector.name)).toEqual(['getOrder (2)', 'listOrders']);
    expect((await rows()).map(({ name }) => name)).toEqual(['getOrder', 'getOrder (2)', 'listOrders']);
  });

  it('refuses an update that would send the stored token to another host, asking for it, and writes nothing of the import', async () => {
    const existing = await firstImport();
    const before = await rows();

    const res = await importing({ format: 'openapi', source: MOVED, onConflict: 'update', dryRun: false }).expect(400);

    expect(res.body.message).toEqual([
      expect.stringMatching(new RegExp(`^connectors\\.0 \\(.+\\), updating ${existing.getOrder}: bearerToken must be sent again: url now points elsewhere`)),
      expect.stringMatching(new RegExp(`^connectors\\.1 \\(.+\\), updating ${existing.listOrders}: bearerToken must be sent again`)),
    ]);
    expect(await rows()).toEqual(before);
  });
});

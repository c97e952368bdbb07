import { ConnectorVariable, ConnectorVariableSet, newUuid, SecretCipher, variableSecretContext } from '@app/domain';
import { AppConfig } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { ALICE, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/** A collection whose hosts come from its Postman environment (`{{baseUrl}}`, `{{authHost}}`), as published collections keep them. */
const COLLECTION = JSON.stringify({
  info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [
    { name: 'List orders', request: { method: 'GET', url: '{{baseUrl}}/orders?tenant={{tenant}}' } },
    {
      name: 'Create order',
      request: {
        method: 'POST',
        url: '{{baseUrl}}/orders',
        header: [{ key: 'Content-Type', value: 'application/json' }],
        body: { mode: 'raw', raw: '{"key": "{{env.apiKey}}", "sku": 1}' },
      },
    },
  ],
});
/** A Postman environment export. */
const POSTMAN_ENVIRONMENT = {
  id: '5b1c0d0e-0000-4000-8000-000000000000',
  name: 'Shop staging',
  values: [
    { key: 'baseUrl', value: 'https://staging.example.com/v1', type: 'default', enabled: true },
    { key: 'apiKey', value: 'plain-text-key-5f1c', type: 'secret', enabled: true },
    { key: 'tenant', value: 'acme', type: 'default', enabled: true },
    { key: 'unused', value: 'off', type: 'default', enabled: false },
  ],
  _postman_variable_scope: 'environment',
};

describe.each<[string, () => AppConfig]>([
  ['MariaDB', () => mysqlTestConfig()],
  ['SQLite', () => sqliteTestConfig()],
])('Imports meet environments (%s)', (_engine, config) => {
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
  const variableRows = async () =>
    (await sut.dataSource.getRepository(ConnectorVariable).find({ where: { environmentUuid: tenant.environment.uuid }, order: { name: 'ASC' } })).map(
      ({ name, secret, value, sealedValue, destinations, updatedBy }) => ({ name, secret, value, sealedValue, destinations, updatedBy }),
    );
  const setVersion = async () =>
    (await sut.dataSource.getRepository(ConnectorVariableSet).findOneBy({ environmentUuid: tenant.environment.uuid }))?.version ?? 0;
  const connectorUrls = async () =>
    ((await sut.dataSource.query('SELECT url FROM rest_connectors WHERE bot_uuid = ? ORDER BY name', [tenant.bot.uuid])) as Array<{ url: string }>).map(
      ({ url }) => url,
    );
  const define = async (name: string, value: string) => {
    const now = new Date();
    await sut.dataSource.getRepository(ConnectorVariableSet).insert({
      environmentUuid: tenant.environment.uuid,
      organizationUuid: tenant.organization.uuid,
      version: 1,
      updatedAt: now,
      updatedBy: 'bob',
    });
    await sut.dataSource.getRepository(ConnectorVariable).insert({
      uuid: newUuid(),
      organizationUuid: tenant.organization.uuid,
      environmentUuid: tenant.environment.uuid,
      name,
      secret: false,
      value,
      sealedValue: null,
      destinations: [],
      updatedAt: now,
      updatedBy: 'bob',
    });
  };

  it('imports hosts from undefined variables as {{env.NAME}}; the dry run lists them MISSING and writes nothing', async () => {
    const dry = await importing({ format: 'postman', source: COLLECTION }).expect(200);

    expect(dry.body.connectors.map(({ connector }: { connector: { url: string } }) => connector.url)).toEqual([
      '{{env.baseUrl}}/orders?tenant={{tenant}}',
      '{{env.baseUrl}}/orders',
    ]);
    expect(dry.body.environmentVariables).toEqual([
      { name: 'baseUrl', secret: false, status: 'MISSING', usedBy: 2 },
      { name: 'apiKey', secret: false, status: 'MISSING', usedBy: 1 },
    ]);
    expect(await variableRows()).toEqual([]);
    expect(await setVersion()).toBe(0);
  });

  it('fills what the environment lacks from the Postman environment: a plain value, a secret sealed and bound to the imported hosts; the dry run shows no secret and writes nothing', async () => {
    const dry = await importing({ format: 'postman', source: COLLECTION, postmanEnvironment: POSTMAN_ENVIRONMENT }).expect(200);

    expect(dry.body.environmentVariables).toEqual([
      { name: 'baseUrl', secret: false, status: 'FILLED', usedBy: 2, source: 'POSTMAN_ENVIRONMENT', value: 'https://staging.example.com/v1' },
      { name: 'apiKey', secret: true, status: 'FILLED', usedBy: 1, source: 'POSTMAN_ENVIRONMENT', destinations: ['https://staging.example.com'] },
    ]);
    expect(JSON.stringify(dry.body)).not.toContain('plain-text-key-5f1c');
    expect(await variableRows()).toEqual([]);

    const applied = await importing({ format: 'postman', source: COLLECTION, postmanEnvironment: POSTMAN_ENVIRONMENT, dryRun: false }).expect(200);

    expect(applied.body.environmentVariables).toEqual(dry.body.environmentVariables);
    expect(JSON.stringify(applied.body)).not.toContain('plain-text-key-5f1c');
    const rows = await variableRows();
    expect(rows).toEqual([
      {
        name: 'apiKey',
        secret: true,
        value: null,
        sealedValue: expect.stringMatching(/^enc:v1:/),
        destinations: ['https://staging.example.com'],
        updatedBy: 'alice',
      },
      { name: 'baseUrl', secret: false, value: 'https://staging.example.com/v1', sealedValue: null, destinations: [], updatedBy: 'alice' },
    ]);
    expect(rows[0].sealedValue).not.toContain('plain-text-key-5f1c');
    expect(cipher.decrypt(rows[0].sealedValue!, variableSecretContext(tenant.environment.uuid, 'apiKey'))).toBe('plain-text-key-5f1c');
    expect(await setVersion()).toBe(1);
    expect(await connectorUrls()).toEqual(['{{env.baseUrl}}/orders', '{{env.baseUrl}}/orders?tenant={{tenant}}']);
  });

  it('never overwrites a variable the environment defines: DEFINED, its value kept, the set version unchanged when nothing else is filled', async () => {
    await define('baseUrl', 'https://prod.example.com');
    const values = POSTMAN_ENVIRONMENT.values.filter(({ key }) => key === 'baseUrl');

    const res = await importing({ format: 'postman', source: COLLECTION, postmanEnvironment: { ...POSTMAN_ENVIRONMENT, values }, dryRun: false }).expect(200);

    expect(res.body.environmentVariables).toEqual([
      { name: 'baseUrl', secret: false, status: 'DEFINED', usedBy: 2 },
      { name: 'apiKey', secret: false, status: 'MISSING', usedBy: 1 },
    ]);
    expect(res.body.warnings).toContainEqual(expect.objectContaining({ code: 'ENVIRONMENT_VALUES_KEPT', where: 'postmanEnvironment' }));
    expect(await variableRows()).toEqual([
      { name: 'baseUrl', secret: false, value: 'https://prod.example.com', sealedValue: null, destinations: [], updatedBy: 'bob' },
    ]);
    expect(await setVersion()).toBe(1);
  });

  it('takes the Postman environment as a multipart field or file part, never in the query string', async () => {
    const field = await sut.http
      .post(`${base}/import`)
      .set(bearer(token))
      .field('format', 'postman')
      .field('postmanEnvironment', JSON.stringify(POSTMAN_ENVIRONMENT))
      .attach('file', Buffer.from(COLLECTION), 'shop.postman_collection.json')
      .expect(200);
    expect(field.body.environmentVariables.map(({ status }: { status: string }) => status)).toEqual(['FILLED', 'FILLED']);

    const part = await sut.http
      .post(`${base}/import`)
      .set(bearer(token))
      .field('format', 'postman')
      .attach('postmanEnvironment', Buffer.from(JSON.stringify(POSTMAN_ENVIRONMENT)), 'staging.postman_environment.json')
      .attach('file', Buffer.from(COLLECTION), 'shop.postman_collection.json')
      .expect(200);
    expect(part.body.environmentVariables).toEqual(field.body.environmentVariables);

    const query = await sut.http
      .post(`${base}/import?format=postman&postmanEnvironment=${encodeURIComponent(JSON.stringify(POSTMAN_ENVIRONMENT))}`)
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .send(COLLECTION)
      .expect(400);
    expect(query.body.message).toEqual([expect.stringMatching(/^postmanEnvironment is never taken from the query string/)]);
  });

  it.each<[string, unknown, RegExp]>([
    ['not an object', 'staging', /^postmanEnvironment must be a Postman environment export/],
    ['without values', { name: 'x' }, /^postmanEnvironment\.values must be a list/],
    ['a value without a key', { values: [{ value: 'v' }] }, /^postmanEnvironment\.values\[0\]\.key must be a non-blank string/],
    ['an unknown type', { values: [{ key: 'k', value: 'v', type: 'vault' }] }, /^postmanEnvironment\.values\[0\]\.type must be default or secret/],
    ['a value too long', { values: [{ key: 'k', value: 'v'.repeat(8193) }] }, /^postmanEnvironment\.values\[0\]\.value must be at most 8192 characters/],
    ['too large', { values: [{ key: 'k', value: 'v'.repeat(8000) }], padding: 'p'.repeat(70_000) }, /^postmanEnvironment is \d+ bytes as JSON, at most 64 KiB/],
  ])('refuses a Postman environment %s with a 400 saying how to fix it, writing nothing', async (_case, postmanEnvironment, message) => {
    const res = await importing({ format: 'postman', source: COLLECTION, postmanEnvironment, dryRun: false }).expect(400);
    expect(res.body.message).toEqual([expect.stringMatching(message)]);
    expect(await connectorUrls()).toEqual([]);
    expect(await variableRows()).toEqual([]);
  });

  it('refuses a connector whose secret would go to a host from an environment variable it does not define, naming the connector', async () => {
    const source = JSON.stringify({
      info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: 'Me', request: { method: 'GET', url: '{{baseUrl}}/me', auth: { type: 'bearer', bearer: [{ key: 'token', value: 'tok-1' }] } } }],
    });

    const res = await importing({ format: 'postman', source }).expect(400);

    // The write rules refuse it first today (a variable in a secret's destination); once they resolve the
    // environment's variables there, importEnvironment's message names baseUrl and how to define it (its unit spec).
    expect(res.body.message).toEqual([expect.stringMatching(/^connectors\.0 \(item "Me"\): url/)]);
    expect(await connectorUrls()).toEqual([]);
  });

  it('fills an OpenAPI server variable from its default, the variable part of the host {{env.NAME}}', async () => {
    const source = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Regional', version: '1' },
      servers: [{ url: 'https://{region}.api.example.com/{basePath}', variables: { region: { default: 'eu' }, basePath: { default: 'v2' } } }],
      paths: { '/items': { get: { operationId: 'listItems', responses: { 200: { description: 'OK' } } } } },
    });

    const res = await importing({ format: 'openapi', source, dryRun: false }).expect(200);

    expect(res.body.connectors[0].connector.url).toBe('https://{{env.region}}.api.example.com/{{env.basePath}}/items');
    expect(res.body.environmentVariables).toEqual([
      { name: 'region', secret: false, status: 'FILLED', usedBy: 1, source: 'OPENAPI_SERVER', value: 'eu' },
      { name: 'basePath', secret: false, status: 'FILLED', usedBy: 1, source: 'OPENAPI_SERVER', value: 'v2' },
    ]);
    expect((await variableRows()).map(({ name, value }) => [name, value])).toEqual([
      ['basePath', 'v2'],
      ['region', 'eu'],
    ]);
  });
});

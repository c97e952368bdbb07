import { IMPORT_BODY_LIMIT_BYTES, IMPORT_LIMITS } from '@app/domain';
import { AppConfig } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { ALICE } from '../rest-connectors/connector-factories';
import { TestApp } from '../support/test-app';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { startTenantApp } from '../support/tenant-app';
import { Tenant } from '../support/fixtures';
import { bearer } from '../support/tokens';
import { largeCollection, largeOpenApi } from './large-sources';

/** Whole real-sized documents: the largest source in one request, and the most connectors one import creates, in one transaction. */
describe.each([
  ['MariaDB', () => mysqlTestConfig()],
  ['SQLite', () => sqliteTestConfig()],
] as Array<[string, () => AppConfig]>)('Large imports (%s)', (engine, config) => {
  jest.setTimeout(300_000);
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, config(), ALICE)));
  afterAll(() => sut?.close());

  const importing = (body: object) => sut.http.post(`${base}/import`).set(bearer(token)).send(body);
  const count = async (sql: string) => Number((await sut.dataSource.query(sql, [tenant.bot.uuid]))[0].n);

  it(`creates ${IMPORT_LIMITS.connectors} connectors of one document in one transaction, each with its tags, version and change event`, async () => {
    // About 4 KiB a connector (a distinct example body each): near the text one import may hold, in many batches of writes.
    const source = largeOpenApi({ operations: IMPORT_LIMITS.connectors, bodyBytes: 3_900 });

    const planned = await importing({ format: 'openapi', source }).expect(200);

    // The dry run lists every one.
    expect(planned.body.connectors).toHaveLength(IMPORT_LIMITS.connectors);
    expect(planned.body.connectors[7].connector.tags).toEqual([{ name: 'Group 7' }, { name: 'Items' }]);

    const created = await importing({ format: 'openapi', source, dryRun: false }).expect(200);

    expect(created.body.connectors).toHaveLength(IMPORT_LIMITS.connectors);
    const uuid = created.body.connectors[7].uuid;
    const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
    expect(read.body).toMatchObject({ name: 'item7', tags: [{ name: 'Group 7' }, { name: 'Items' }] });
    expect(await count('SELECT COUNT(*) AS n FROM rest_connectors WHERE bot_uuid = ?')).toBe(IMPORT_LIMITS.connectors);
    const ofBot = 'SELECT uuid FROM rest_connectors WHERE bot_uuid = ?';
    expect(await count(`SELECT COUNT(*) AS n FROM rest_connector_tags WHERE connector_uuid IN (${ofBot})`)).toBe(2 * IMPORT_LIMITS.connectors);
    expect(await count(`SELECT COUNT(*) AS n FROM rest_connector_versions WHERE connector_uuid IN (${ofBot})`)).toBe(IMPORT_LIMITS.connectors);
    expect(await count('SELECT COUNT(*) AS n FROM connector_events WHERE bot_uuid = ?')).toBe(IMPORT_LIMITS.connectors);
  });

  it('creates none when one of them cannot be created (all or none)', async () => {
    // The connectors the test before created hold every name: the same document again collides on each.
    const source = largeOpenApi({ operations: IMPORT_LIMITS.connectors });
    const before = await count('SELECT COUNT(*) AS n FROM rest_connectors WHERE bot_uuid = ?');

    await importing({ format: 'openapi', source, dryRun: false }).expect(409);

    expect(await count('SELECT COUNT(*) AS n FROM rest_connectors WHERE bot_uuid = ?')).toBe(before);
  });

  it(`refuses ${IMPORT_LIMITS.connectors + 1} operations, naming the limit and select`, async () => {
    const res = await importing({ format: 'openapi', source: largeOpenApi({ operations: IMPORT_LIMITS.connectors + 1 }) }).expect(400);
    expect(res.body.message).toEqual([expect.stringMatching(/hold 1001 operations; an import creates at most 1000 connectors: choose some with select/)]);
  });

  if (engine !== 'MariaDB') return;

  it('imports an OpenAPI document of 8 MiB and a Postman collection of 8 MiB in one request each, tagged by operation tags and folders', async () => {
    const openapi = largeOpenApi({ operations: IMPORT_LIMITS.connectors, bytes: IMPORT_LIMITS.sourceBytes });
    const postman = largeCollection({ requests: IMPORT_LIMITS.connectors, bytes: IMPORT_LIMITS.sourceBytes });
    expect([Buffer.byteLength(openapi), Buffer.byteLength(postman)]).toEqual([8 * 1024 * 1024, 8 * 1024 * 1024]);

    const fromOpenApi = await importing({ format: 'openapi', source: openapi }).expect(200);
    const fromPostman = await importing({ format: 'postman', source: postman }).expect(200);

    expect(fromOpenApi.body.connectors).toHaveLength(IMPORT_LIMITS.connectors);
    expect(fromPostman.body.connectors).toHaveLength(IMPORT_LIMITS.connectors);
    const item51 = fromPostman.body.connectors.find(({ connector }: { connector: { name: string } }) => connector.name === 'Item 51');
    expect(item51.connector.tags).toEqual([{ name: 'Group 1' }, { name: 'Items' }]);
    expect(fromOpenApi.body.connectors[51].connector.tags).toEqual([{ name: 'Group 1' }, { name: 'Items' }]);
  });

  it('refuses a source one byte over 8 MiB (400) and a body over its limit (413)', async () => {
    const over = largeOpenApi({ operations: 10, bytes: IMPORT_LIMITS.sourceBytes + 1 });

    const refused = await importing({ format: 'openapi', source: over }).expect(400);
    expect(refused.body.message).toEqual([`source must be at most ${IMPORT_LIMITS.sourceBytes} bytes (UTF-8)`]);

    const tooLarge = await sut.http
      .post(`${base}/import`)
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ format: 'openapi', source: 'x'.repeat(IMPORT_BODY_LIMIT_BYTES) }));
    expect(tooLarge.status).toBe(413);
  });

  it('imports 40 operations selected from a document whose other parts cannot be read', async () => {
    const document = JSON.parse(largeOpenApi({ operations: 200 }));
    // An operation no selector names points at a schema that does not exist.
    document.paths['/groups/0/items/0'].post.requestBody.content['application/json'].schema = { $ref: '#/components/schemas/Missing' };
    const source = JSON.stringify(document);
    const select = Array.from({ length: 40 }, (_, index) => `item${index + 1}`);

    await importing({ format: 'openapi', source }).expect(400);
    const res = await importing({ format: 'openapi', source, select }).expect(200);

    expect(res.body.connectors.map(({ connector }: { connector: { name: string } }) => connector.name)).toEqual(select);
  });
});

import { AppConfig, parseServerUrl } from '@app/platform';
import { buildDataSourceOptions, Database, flowsInOrder, openDatabase, PlatformDataSource } from '@app/domain';
import { DEMO_IDS, seedDemoData } from '@app/seed-data';
import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, ALICE, ConnectorWriteBody, connectorsPath } from './connector-factories';
import { aBot, aFlow, anEnvironment, anOrganization, importData } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/** A MariaDB database of the suite's own, or a SQLite file of its own. */
const ENGINES: Array<[string, () => Promise<{ config: AppConfig; drop: () => Promise<void> }>]> = [
  [
    'MariaDB',
    async () => {
      const name = uniqueDatabaseName('platform_read_copy');
      const url = await createMigratedDatabase(name);
      return { config: mysqlTestConfig({ database: parseServerUrl(url) }), drop: () => dropDatabase(name) };
    },
  ],
  ['SQLite', async () => ({ config: sqliteTestConfig(), drop: async () => undefined })],
];

interface Copy {
  tagsJson: unknown;
  tagKeys: string;
  flowsJson: unknown;
}

/**
 * Every connector's copy as its row holds it (rest_connectors.tags_json, tag_keys, flows_json), and as the normalized
 * rows give it: its tags by position (their name keys joined by a line break), and the flows of its own bot that link
 * to it, by lower-cased name, then uuid (flowsInOrder).
 */
async function copiesOf(db: Database): Promise<{ stored: Map<string, Copy>; normalized: Map<string, Copy> }> {
  const connectors = await db.rows<{ uuid: string; tags_json: string; tag_keys: string; flows_json: string }>(
    'SELECT uuid, tags_json, tag_keys, flows_json FROM rest_connectors ORDER BY uuid',
    [],
    'primary',
  );
  const tags = await db.rows<{ connector_uuid: string; name: string; name_key: string; position: number | string }>(
    'SELECT connector_uuid, name, name_key, position FROM rest_connector_tags ORDER BY connector_uuid, position',
    [],
    'primary',
  );
  const flows = await db.rows<{ connector_uuid: string; uuid: string; name: string }>(
    'SELECT fc.connector_uuid AS connector_uuid, f.uuid AS uuid, f.name AS name FROM flow_connectors fc JOIN flows f ON f.uuid = fc.flow_uuid ' +
      'JOIN rest_connectors c ON c.uuid = fc.connector_uuid WHERE f.bot_uuid = c.bot_uuid',
    [],
    'primary',
  );
  const stored = new Map<string, Copy>();
  const normalized = new Map<string, Copy>();
  for (const row of connectors) {
    stored.set(row.uuid, { tagsJson: JSON.parse(row.tags_json), tagKeys: row.tag_keys, flowsJson: JSON.parse(row.flows_json) });
    const own = tags.filter((tag) => tag.connector_uuid === row.uuid).sort((a, b) => Number(a.position) - Number(b.position));
    normalized.set(row.uuid, {
      tagsJson: own.map(({ name }) => ({ name })),
      tagKeys: own.map(({ name_key }) => name_key).join('\n'),
      flowsJson: flowsInOrder(flows.filter((flow) => flow.connector_uuid === row.uuid).map(({ uuid, name }) => ({ uuid, name }))),
    });
  }
  return { stored, normalized };
}

describe.each(ENGINES)('The read copy of tags and flows on the connector row (%s)', (_engine, engine) => {
  it('holds after the demo seed, whose flows name its connectors before they exist', async () => {
    const { config, drop: dropDemo } = await engine();
    const dataSource = new PlatformDataSource(buildDataSourceOptions(config.database, { migrationsRun: true }));
    await dataSource.initialize();
    try {
      expect(await seedDemoData(dataSource)).toBe(true);
      const { stored, normalized } = await copiesOf(openDatabase(dataSource));
      expect(stored).toEqual(normalized);
      expect(stored.get(DEMO_IDS.weatherConnector)!.flowsJson).not.toEqual([]);
    } finally {
      await dataSource.destroy();
      await dropDemo();
    }
  });

  let drop: () => Promise<void>;
  let sut: TestApp;
  let db: Database;
  let token: string;

  const organization = anOrganization();
  const dev = anEnvironment(organization.uuid, { name: 'dev' });
  const prod = anEnvironment(organization.uuid, { name: 'prod' });
  const source = aBot(dev.uuid);
  const target = aBot(prod.uuid);
  const other = aBot(prod.uuid);
  const sourceBase = connectorsPath(organization.uuid, dev.uuid, source.uuid);
  const base = connectorsPath(organization.uuid, prod.uuid, target.uuid);
  /** Flows of the target bot and of another bot, changed by the flow imports below. */
  const flows = { orders: randomUUID(), billing: randomUUID(), otherBots: randomUUID(), accents: randomUUID() };

  beforeAll(async () => {
    const prepared = await engine();
    drop = prepared.drop;
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, prepared.config);
    db = openDatabase(sut.dataSource);
    token = await signToken(ALICE);
    await importData(sut.dataSource, { organizations: [organization], environments: [dev, prod], bots: [source, target, other] });
  });
  afterAll(async () => {
    await sut?.close();
    await drop?.();
  });

  /** After each kind of write: every connector's copy is what its normalized rows give. */
  async function expectCopiesOfNormalizedRows(): Promise<Map<string, Copy>> {
    const { stored, normalized } = await copiesOf(db);
    expect(stored).toEqual(normalized);
    return stored;
  }

  const create = async (body: ConnectorWriteBody, at = base) => {
    const res = await sut.http.post(at).set(bearer(token)).send(body);
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.uuid as string;
  };
  const put = (uuid: string, body: ConnectorWriteBody) => sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(body).expect(200);
  const importFlows = (...items: Array<Parameters<typeof aFlow>[1] & { botUuid: string }>) =>
    importData(sut.dataSource, { flows: items.map(({ botUuid, ...item }) => aFlow(botUuid, item)) });
  const importing = (body: object) => sut.http.post(`${base}/import`).set(bearer(token)).send(body).expect(200);

  it('holds after creates, updates (tags changed, reordered, removed, unchanged), deletes and restores, reverts, and flow imports', async () => {
    const stock = await create(aConnectorBody({ name: 'Stock', tags: [{ name: 'Shop' }, { name: 'Stock LEVEL' }, { name: 'ÄrGER' }] }));
    const orders = await create(aConnectorBody({ name: 'Orders', tags: [] }));
    const crm = await create(aConnectorBody({ name: 'CRM', tags: [{ name: 'crm' }, { name: 'leads' }] }));
    const created = await expectCopiesOfNormalizedRows();
    expect(created.get(stock)).toEqual({
      tagsJson: [{ name: 'Shop' }, { name: 'Stock LEVEL' }, { name: 'ÄrGER' }],
      tagKeys: 'shop\nstock level\närger',
      flowsJson: [],
    });

    // Flows of the bot name them, and a flow of another bot names one (never in its copy): names in code point order.
    await importFlows(
      { uuid: flows.orders, botUuid: target.uuid, name: 'orders', connectors: [stock, orders] },
      { uuid: flows.billing, botUuid: target.uuid, name: 'Billing', connectors: [stock] },
      { uuid: flows.accents, botUuid: target.uuid, name: 'Éclair', connectors: [stock, crm] },
      { uuid: flows.otherBots, botUuid: other.uuid, name: 'Another bot', connectors: [stock, crm] },
    );
    const linked = await expectCopiesOfNormalizedRows();
    expect(linked.get(stock)!.flowsJson).toEqual([
      { uuid: flows.billing, name: 'Billing' },
      { uuid: flows.orders, name: 'orders' },
      { uuid: flows.accents, name: 'Éclair' },
    ]);

    // Tags changed and reordered, added, removed; a write that keeps the tags.
    await put(stock, aConnectorBody({ name: 'Stock', tags: [{ name: 'stock level' }, { name: 'Warehouse' }, { name: 'SHOP' }] }));
    await put(orders, aConnectorBody({ name: 'Orders', tags: [{ name: 'orders' }] }));
    await put(crm, aConnectorBody({ name: 'CRM', tags: [] }));
    await put(orders, aConnectorBody({ name: 'Orders', description: 'the same tags', tags: [{ name: 'orders' }] }));
    const updated = await expectCopiesOfNormalizedRows();
    expect(updated.get(stock)!.tagKeys).toBe('stock level\nwarehouse\nshop');
    expect(updated.get(crm)).toMatchObject({ tagsJson: [], tagKeys: '' });

    // Flows renamed, moved to another bot, links added and dropped; one names a connector in the trash.
    await sut.http.delete(`${base}/${crm}`).set(bearer(token)).expect(204);
    await expectCopiesOfNormalizedRows();
    await importFlows(
      { uuid: flows.orders, botUuid: target.uuid, name: 'All orders', connectors: [orders, crm] },
      { uuid: flows.billing, botUuid: other.uuid, name: 'Billing', connectors: [stock] },
      { uuid: flows.accents, botUuid: target.uuid, name: 'éclair', connectors: [] },
      { uuid: randomUUID(), botUuid: target.uuid, name: 'New flow', connectors: [stock, crm, randomUUID()] },
    );
    const relinked = await expectCopiesOfNormalizedRows();
    expect(relinked.get(stock)!.flowsJson).toEqual([expect.objectContaining({ name: 'New flow' })]);
    expect(relinked.get(crm)!.flowsJson).toEqual([{ uuid: flows.orders, name: 'All orders' }, expect.objectContaining({ name: 'New flow' })]);

    // Out of the trash, and back to an older version (its tags with it).
    await sut.http.post(`${base}/${crm}/restore`).set(bearer(token)).expect(200);
    await expectCopiesOfNormalizedRows();
    await sut.http.post(`${base}/${stock}/versions/1/revert`).set(bearer(token)).expect(200);
    const reverted = await expectCopiesOfNormalizedRows();
    expect(reverted.get(stock)!.tagsJson).toEqual([{ name: 'Shop' }, { name: 'Stock LEVEL' }, { name: 'ÄrGER' }]);

    // The reads answer the copy.
    const got = (await sut.http.get(`${base}/${crm}`).set(bearer(token)).expect(200)).body;
    expect({ tags: got.tags, flows: got.flows }).toEqual({ tags: reverted.get(crm)!.tagsJson, flows: reverted.get(crm)!.flowsJson });
    const found = (await sut.http.get(`${base}/pagination?searchTerms=rger`).set(bearer(token)).expect(200)).body;
    expect(found.content.map((item: { uuid: string }) => item.uuid)).toEqual([stock]);
  });

  it('holds after imports (cURL, Postman, OpenAPI: created, and written over an existing connector)', async () => {
    await importing({ format: 'curl', source: 'curl https://api.example.com/curl-import -H "Accept: application/json"', dryRun: false });
    const postman = {
      info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: 'Carts', item: [{ name: 'Get cart', request: { method: 'GET', url: 'https://shop.example.com/carts/1' } }] }],
    };
    await importing({ format: 'postman', source: JSON.stringify(postman), dryRun: false });
    const document = {
      openapi: '3.0.3',
      info: { title: 'Shop', version: '1' },
      servers: [{ url: 'https://shop.example.com/api' }],
      paths: {
        '/products': { get: { operationId: 'listProducts', tags: ['Catalog', 'Public'], responses: { '200': { description: 'OK' } } } },
      },
    };
    const first = await importing({ format: 'openapi', source: JSON.stringify(document), dryRun: false });
    const imported = first.body.connectors[0].uuid as string;
    const copies = await expectCopiesOfNormalizedRows();
    expect(copies.get(imported)).toMatchObject({ tagsJson: [{ name: 'Catalog' }, { name: 'Public' }], tagKeys: 'catalog\npublic' });

    document.paths['/products'].get.tags = ['Public', 'Products'];
    await importing({ format: 'openapi', source: JSON.stringify(document), dryRun: false, onConflict: 'update' });
    const overwritten = await expectCopiesOfNormalizedRows();
    expect(overwritten.get(imported)!.tagsJson).toEqual([{ name: 'Public' }, { name: 'Products' }]);
  });

  it('holds after a promotion is applied and reverted', async () => {
    await create(aConnectorBody({ name: 'Promoted new', tags: [{ name: 'new' }, { name: 'Promoted' }] }), sourceBase);
    await create(aConnectorBody({ name: 'Promoted same', tags: [{ name: 'dev' }, { name: 'Same' }] }), sourceBase);
    const same = await create(aConnectorBody({ name: 'Promoted same', tags: [{ name: 'prod' }] }));
    await importFlows({ botUuid: target.uuid, name: 'Promotion flow', connectors: [same] });
    const promote = (body: object) =>
      sut.http
        .post(`${base}/promotions`)
        .set(bearer(token))
        .send({ source: { envUUID: dev.uuid, botUUID: source.uuid }, ...body });
    const plan = (await promote({}).expect(200)).body;
    const applied = (await promote({ dryRun: false, digest: plan.digest }).expect(201)).body;
    const promoted = await expectCopiesOfNormalizedRows();
    expect(promoted.get(same)).toMatchObject({
      tagsJson: [{ name: 'dev' }, { name: 'Same' }],
      flowsJson: [expect.objectContaining({ name: 'Promotion flow' })],
    });

    await sut.http.post(`${base}/promotions/${applied.uuid}/revert`).set(bearer(token)).expect(200);
    const reverted = await expectCopiesOfNormalizedRows();
    expect(reverted.get(same)!.tagsJson).toEqual([{ name: 'prod' }]);
  });
});

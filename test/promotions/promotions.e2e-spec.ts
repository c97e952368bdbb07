import { AppConfig, parseServerUrl } from '@app/platform';
import { SecretCipher, secretContext, secretHeaderContext } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { FeedConsumer } from '../connector-events/feed-consumer';
import { aConnectorBody, ALICE, ConnectorWriteBody, connectorsPath, withBearerAuth } from '../rest-connectors/connector-factories';
import { seedConnectorVariableRows } from '../support/connector-variable-rows';
import { aBot, anEnvironment, anOrganization, importData } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/** A MariaDB database of the suite's own, or a SQLite file of its own. */
const ENGINES: Array<[string, () => Promise<{ config: AppConfig; drop: () => Promise<void> }>]> = [
  [
    'MariaDB',
    async () => {
      const name = uniqueDatabaseName('platform_promotions');
      const url = await createMigratedDatabase(name);
      return { config: mysqlTestConfig({ database: parseServerUrl(url) }), drop: () => dropDatabase(name) };
    },
  ],
  ['SQLite', async () => ({ config: sqliteTestConfig(), drop: async () => undefined })],
];

/** An organization with two stages (dev and prod), each with bots of its own. */
async function seedStages(sut: TestApp, bots = 1) {
  const organization = anOrganization();
  const dev = anEnvironment(organization.uuid, { name: 'dev' });
  const prod = anEnvironment(organization.uuid, { name: 'prod' });
  const devBots = Array.from({ length: bots }, () => aBot(dev.uuid));
  const prodBots = Array.from({ length: bots }, () => aBot(prod.uuid));
  await importData(sut.dataSource, { organizations: [organization], environments: [dev, prod], bots: [...devBots, ...prodBots] });
  return { organization, dev, prod, devBots, prodBots };
}

type Stages = Awaited<ReturnType<typeof seedStages>>;

describe.each(ENGINES)('Promotions (%s)', (_engine, engine) => {
  let config: AppConfig;
  let drop: () => Promise<void>;
  let sut: TestApp;
  let token: string;

  beforeAll(async () => {
    ({ config, drop } = await engine());
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config);
    token = await signToken(ALICE);
  });
  afterAll(async () => {
    await sut.close();
    await drop();
  });

  const cipher = () => new SecretCipher(config.secretsKey!);
  /** One pair of bots: `source` (dev) and `target` (prod), with paths and helpers. */
  async function aPair(index = 0, stages?: Stages) {
    const s = stages ?? (await seedStages(sut));
    const org = s.organization.uuid;
    const source = { envUUID: s.dev.uuid, botUUID: s.devBots[index].uuid };
    const target = { envUUID: s.prod.uuid, botUUID: s.prodBots[index].uuid };
    const sourceBase = connectorsPath(org, source.envUUID, source.botUUID);
    const targetBase = connectorsPath(org, target.envUUID, target.botUUID);
    const create = async (base: string, body: ConnectorWriteBody) => {
      const res = await sut.http.post(base).set(bearer(token)).send(body);
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.uuid as string;
    };
    const promote = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      sut.http
        .post(`${targetBase}/promotions`)
        .set(bearer(token))
        .set(headers)
        .send({ source, ...body });
    const plan = async (body: Record<string, unknown> = {}) => (await promote(body).expect(200)).body;
    const get = async (uuid: string) => (await sut.http.get(`${targetBase}/${uuid}`).set(bearer(token)).expect(200)).body;
    const variables = (values: Array<{ name: string; value: string }>) =>
      seedConnectorVariableRows(sut.dataSource, { organizationUuid: org, environmentUuid: target.envUUID }, values);
    return { stages: s, org, source, target, sourceBase, targetBase, create, promote, plan, get, variables };
  }

  const sealedOf = async (uuid: string) => {
    const [row] = await sut.dataSource.query('SELECT bearer_token AS bearerToken, headers FROM rest_connectors WHERE uuid = ?', [uuid]);
    return { bearerToken: row.bearerToken as string | null, headers: JSON.parse(row.headers) as Array<{ header: string; value: string; secret?: boolean }> };
  };
  const promotionIdsOf = async (uuid: string) =>
    (
      await sut.dataSource.query('SELECT version, promotion_id AS promotionId FROM rest_connector_versions WHERE connector_uuid = ? ORDER BY version', [uuid])
    ).map((row: { version: number; promotionId: string | null }) => [Number(row.version), row.promotionId]);

  it('plans, applies with the digest, and reverts: secrets never copied, each write a version and an event naming the promotion', async () => {
    const pair = await aPair();
    const { create, plan, promote, get, sourceBase, targetBase } = pair;
    const key = (label: string) => `x-key-${label}-5d1f0b9a77`;
    // The source (dev).
    await create(sourceBase, withBearerAuth({ name: 'Orders', url: 'https://api.example.com/{{env.VERSION}}/orders', bearerToken: 'dev-orders-token' }));
    await create(sourceBase, aConnectorBody({ name: 'Weather', url: 'https://weather.example.com/today', description: 'new' }));
    await create(sourceBase, aConnectorBody({ name: 'Same', url: 'https://same.example.com/', tags: [{ name: 'alpha' }] }));
    await create(sourceBase, withBearerAuth({ name: 'New bearer', url: 'https://new.example.com/', bearerToken: 'dev-new-token' }));
    await create(
      sourceBase,
      aConnectorBody({ name: 'Keyed', url: 'https://keys.example.com/', headers: [{ header: 'X-Api-Key', value: key('dev'), secret: true }] }),
    );
    // The target (prod): its own secrets.
    const orders = await create(targetBase, withBearerAuth({ name: 'orders', url: 'https://api.example.com/v1/orders', bearerToken: 'prod-orders-token' }));
    const weather = await create(targetBase, aConnectorBody({ name: 'Weather', url: 'https://weather.example.com/today', description: 'old' }));
    const same = await create(targetBase, aConnectorBody({ name: 'Same', url: 'https://same.example.com/', tags: [{ name: 'alpha' }] }));
    // Its key was a plain header in prod: the secret header is needed.
    const keyed = await create(
      targetBase,
      aConnectorBody({ name: 'Keyed', url: 'https://keys.example.com/', headers: [{ header: 'X-Api-Key', value: 'plain' }] }),
    );
    const legacy = await create(targetBase, aConnectorBody({ name: 'Legacy', url: 'https://legacy.example.com/' }));
    const ordersSealed = (await sealedOf(orders)).bearerToken;

    const first = await plan({ prune: true });

    expect(first).toMatchObject({ source: pair.source, target: pair.target, prune: true, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(first.counts).toEqual({ create: 1, update: 3, delete: 1, unchanged: 1 });
    expect(first.variables).toEqual({ missing: ['VERSION'], withoutValue: [] });
    const byName = Object.fromEntries(first.connectors.map((item: { name: string }) => [item.name, item]));
    expect(first.connectors.map((item: { name: string; action: string }) => [item.name, item.action])).toEqual([
      ['Keyed', 'UPDATE'],
      ['Legacy', 'DELETE'],
      ['New bearer', 'CREATE'],
      ['Orders', 'UPDATE'],
      ['Same', 'UNCHANGED'],
      ['Weather', 'UPDATE'],
    ]);
    expect(byName.Orders).toMatchObject({ targetUuid: orders, targetVersion: 1, sourceVersion: 1, changedFields: ['name', 'url'] });
    expect(byName.Orders.secrets).toEqual([{ secret: 'bearerToken', status: 'KEPT' }]);
    expect(byName['New bearer'].secrets).toEqual([{ secret: 'bearerToken', status: 'NEEDED' }]);
    expect(byName.Keyed).toMatchObject({ changedFields: ['headers'], secrets: [{ secret: 'headers.X-Api-Key', status: 'NEEDED' }] });
    expect(byName.Weather.changedFields).toEqual(['description']);
    expect(byName.Legacy).toMatchObject({ sourceUuid: null, targetUuid: legacy, changedFields: [], secrets: [] });

    // Missing variable and needed secrets: one 400 naming each; nothing written.
    const refused = await promote({ prune: true, dryRun: false, digest: first.digest }).expect(400);
    expect(refused.body.message).toEqual([
      expect.stringMatching(/connector variable VERSION that the source's connectors use .*PUT \/platform-transactional-service\/org\/.*\/connector-variables/),
      expect.stringMatching(/^secrets\["Keyed"\]\.headers\["X-Api-Key"\] is needed: /),
      expect.stringMatching(/^secrets\["New bearer"\]\.bearerToken is needed: /),
    ]);
    expect((await get(orders)).url).toBe('https://api.example.com/v1/orders');

    // The variable defined: the plan's digest changes (the target's variables are part of it).
    await pair.variables([{ name: 'VERSION', value: 'v1' }]);
    const secrets = [
      { connector: 'new BEARER', bearerToken: 'prod-new-token' },
      { connector: 'Keyed', headers: [{ header: 'x-api-key', value: key('prod-new') }] },
    ];
    await promote({ prune: true, dryRun: false, digest: first.digest, secrets }).expect(409);
    const second = await plan({ prune: true, secrets });
    expect(second.digest).not.toBe(first.digest);
    expect(second.variables.missing).toEqual([]);
    expect(second.connectors.find((item: { name: string }) => item.name === 'New bearer').secrets).toEqual([{ secret: 'bearerToken', status: 'GIVEN' }]);
    // From the feed's start: the relay numbers the target's own creates in its own time.
    const consumer = new FeedConsumer(sut, token, `/${TRANSACTIONAL_SERVICE_APP.label}/org/${pair.org}/env/${pair.target.envUUID}/connector-events`, {
      botUUID: pair.target.botUUID,
    });

    const applied = await promote({ prune: true, dryRun: false, digest: second.digest, secrets }, { 'Change-Reason': 'Release 42' }).expect(201);

    const promotion = applied.body;
    expect(applied.headers.location).toBe(`${targetBase}/promotions/${promotion.uuid}`);
    expect(promotion).toMatchObject({
      source: pair.source,
      target: pair.target,
      prune: true,
      createdBy: 'alice',
      reason: 'Release 42',
      counts: { create: 1, update: 3, delete: 1, unchanged: 1 },
      revertedAt: null,
      revertedBy: null,
    });
    const items = Object.fromEntries(promotion.items.map((item: { name: string }) => [item.name, item]));
    expect(items.Orders).toEqual({ connectorUuid: orders, name: 'Orders', action: 'UPDATE', versionBefore: 1, versionAfter: 2 });
    expect(items.Legacy).toEqual({ connectorUuid: legacy, name: 'Legacy', action: 'DELETE', versionBefore: 1, versionAfter: 2 });
    expect(items['New bearer']).toMatchObject({ action: 'CREATE', versionBefore: null, versionAfter: 1 });
    const created = items['New bearer'].connectorUuid;
    expect(await get(orders)).toMatchObject({ name: 'Orders', url: 'https://api.example.com/{{env.VERSION}}/orders', bearerToken: '<BEARER_TOKEN>' });
    expect((await get(weather)).description).toBe('new');
    await sut.http.get(`${targetBase}/${legacy}`).set(bearer(token)).expect(404);

    // Secrets: the target's own kept (the same sealed text), the given ones sealed for the target; never the source's.
    expect((await sealedOf(orders)).bearerToken).toBe(ordersSealed);
    expect(cipher().decrypt((await sealedOf(orders)).bearerToken!, secretContext(orders, 'bearerToken'))).toBe('prod-orders-token');
    expect(cipher().decrypt((await sealedOf(created)).bearerToken!, secretContext(created, 'bearerToken'))).toBe('prod-new-token');
    const keyedHeader = (await sealedOf(keyed)).headers.find((header) => header.secret === true)!;
    expect(cipher().decrypt(keyedHeader.value, secretHeaderContext(keyed, 'X-Api-Key'))).toBe(key('prod-new'));
    const targetRows = JSON.stringify(await sut.dataSource.query('SELECT * FROM rest_connectors WHERE bot_uuid = ?', [pair.target.botUUID]));
    for (const sourceSecret of ['dev-orders-token', 'dev-new-token', key('dev')]) expect(targetRows).not.toContain(sourceSecret);
    for (const row of await sut.dataSource.query(
      'SELECT uuid, bearer_token AS bearerToken FROM rest_connectors WHERE bot_uuid = ? AND bearer_token IS NOT NULL',
      [pair.target.botUUID],
    )) {
      expect(cipher().decrypt(row.bearerToken, secretContext(row.uuid, 'bearerToken'))).toMatch(/^prod-/);
    }

    // Each write a version naming the promotion, and an event carrying it; the unchanged connector untouched.
    expect(await promotionIdsOf(orders)).toEqual([
      [1, null],
      [2, promotion.uuid],
    ]);
    expect(await promotionIdsOf(same)).toEqual([[1, null]]);
    // The target's five creates, then the promotion's five writes.
    const events = await consumer.until(10);
    expect(events).toHaveLength(10);
    expect(events.filter(({ event }) => event.data.promotionId === null).map(({ event }) => event.type)).toEqual(Array(5).fill('connector.created.v1'));
    const promoted = events.filter(({ event }) => event.data.promotionId !== null);
    expect(promoted.map(({ event }) => [event.subject, event.type, event.data.promotionId, event.data.reason]).sort()).toEqual(
      [
        [orders, 'connector.updated.v1', promotion.uuid, 'Release 42'],
        [weather, 'connector.updated.v1', promotion.uuid, 'Release 42'],
        [keyed, 'connector.updated.v1', promotion.uuid, 'Release 42'],
        [created, 'connector.created.v1', promotion.uuid, 'Release 42'],
        [legacy, 'connector.deleted.v1', promotion.uuid, 'Release 42'],
      ].sort(),
    );

    // Listed and read back.
    const page = (await sut.http.get(`${targetBase}/promotions`).set(bearer(token)).expect(200)).body;
    expect(page).toMatchObject({ totalElements: 1, number: 0 });
    expect(page.content[0]).toEqual({ ...promotion, items: undefined, requestId: applied.headers['x-request-id'] });
    expect((await sut.http.get(`${targetBase}/promotions/${promotion.uuid}`).set(bearer(token)).expect(200)).body).toEqual(promotion);

    // The plan now: nothing left to do (but the trash is not the source's).
    const after = await plan({ prune: true });
    expect(after.counts).toEqual({ create: 0, update: 0, delete: 0, unchanged: 5 });

    // Revert: every connector back to its version before, each a version naming the promotion.
    const reverted = await sut.http.post(`${targetBase}/promotions/${promotion.uuid}/revert`).set(bearer(token)).expect(200);
    expect(reverted.body).toMatchObject({ uuid: promotion.uuid, revertedAt: expect.any(String), revertedBy: 'alice' });
    expect(await get(orders)).toMatchObject({ name: 'orders', url: 'https://api.example.com/v1/orders', bearerToken: '<BEARER_TOKEN>' });
    expect(cipher().decrypt((await sealedOf(orders)).bearerToken!, secretContext(orders, 'bearerToken'))).toBe('prod-orders-token');
    expect((await get(weather)).description).toBe('old');
    expect((await get(legacy)).name).toBe('Legacy');
    await sut.http.get(`${targetBase}/${created}`).set(bearer(token)).expect(404);
    expect(await promotionIdsOf(orders)).toEqual([
      [1, null],
      [2, promotion.uuid],
      [3, promotion.uuid],
    ]);
    const [version3, version2, version1] = (await sut.http.get(`${targetBase}/${orders}/versions`).set(bearer(token)).expect(200)).body.content;
    expect(version3).toMatchObject({ version: 3, operation: 'UPDATED', revertedTo: 1, promotionId: promotion.uuid });
    expect(version2).toMatchObject({ version: 2, promotionId: promotion.uuid });
    expect(version1).toMatchObject({ version: 1, promotionId: null });
    const one = await sut.http.get(`${targetBase}/${orders}/versions/2`).set(bearer(token)).expect(200);
    expect(one.body).toMatchObject({ version: 2, operation: 'UPDATED', promotionId: promotion.uuid });

    const again = await sut.http.post(`${targetBase}/promotions/${promotion.uuid}/revert`).set(bearer(token)).expect(409);
    expect(again.body.message).toMatch(new RegExp(`^Promotion ${promotion.uuid} cannot be reverted: it was reverted on .* by alice$`));
  });

  it('refuses an apply when either side changed since the plan (409), and a revert when a connector changed since the promotion (409 naming it)', async () => {
    const { create, plan, promote, sourceBase, targetBase } = await aPair();
    const sourceUuid = await create(sourceBase, aConnectorBody({ name: 'Alpha', description: 'from dev' }));
    const alpha = await create(targetBase, aConnectorBody({ name: 'Alpha', description: 'prod' }));
    const { digest } = await plan();

    // A concurrent edit of the target between plan and apply.
    await sut.http
      .put(`${targetBase}/${alpha}`)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'Alpha', description: 'edited meanwhile' }))
      .expect(200);
    const stale = await promote({ dryRun: false, digest }).expect(409);
    expect(stale.body.message).toMatch(
      /^The promotion's plan no longer holds: .* have changed since the dry run \(the plan's digest is now sha256:[0-9a-f]{64}\)/,
    );
    expect((await sut.http.get(`${targetBase}/${alpha}`).set(bearer(token)).expect(200)).body.description).toBe('edited meanwhile');

    // An edit of the source between plan and apply.
    const { digest: next } = await plan();
    await sut.http
      .put(`${sourceBase}/${sourceUuid}`)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'Alpha', description: 'dev again' }))
      .expect(200);
    await promote({ dryRun: false, digest: next }).expect(409);

    // With an Idempotency-Key, a retry answers the same promotion and applies nothing again.
    const once = { dryRun: false, digest: (await plan()).digest };
    const applied = (await promote(once, { 'Idempotency-Key': 'promote-alpha-1' }).expect(201)).body;
    expect((await promote(once, { 'Idempotency-Key': 'promote-alpha-1' }).expect(201)).body).toEqual(applied);
    expect((await sut.http.get(`${targetBase}/promotions`).set(bearer(token)).expect(200)).body.totalElements).toBe(1);
    await sut.http
      .put(`${targetBase}/${alpha}`)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'Alpha', description: 'hotfix in prod' }))
      .expect(200);

    const refused = await sut.http.post(`${targetBase}/promotions/${applied.uuid}/revert`).set(bearer(token)).expect(409);

    expect(refused.body.message).toBe(
      `Promotion ${applied.uuid} cannot be reverted: a connector it wrote has changed since: "Alpha" (${alpha}: version 4 now, the promotion left version 3). ` +
        'Put them back by hand (their versions: GET …/rest-connectors/{serviceUUID}/versions), or revert them one by one',
    );
    expect((await sut.http.get(`${targetBase}/${alpha}`).set(bearer(token)).expect(200)).body.description).toBe('hotfix in prod');
  });

  it('refuses a revert whose record before would send a secret given by the promotion elsewhere (409 saying to PUT it)', async () => {
    const { create, plan, promote, get, sourceBase, targetBase } = await aPair();
    await create(sourceBase, withBearerAuth({ name: 'Moved', url: 'https://api.dev.example.com/', bearerToken: 'dev-token' }));
    const moved = await create(targetBase, withBearerAuth({ name: 'Moved', url: 'https://api.prod.example.com/', bearerToken: 'prod-token' }));
    const secrets = [{ connector: 'Moved', bearerToken: 'prod-token-2' }];
    const planned = await plan({ secrets });
    expect(planned.connectors[0]).toMatchObject({
      action: 'UPDATE',
      changedFields: ['url', 'bearerToken'],
      secrets: [{ secret: 'bearerToken', status: 'GIVEN' }],
    });
    const promotion = (await promote({ dryRun: false, digest: planned.digest, secrets }).expect(201)).body;

    const refused = await sut.http.post(`${targetBase}/promotions/${promotion.uuid}/revert`).set(bearer(token)).expect(409);

    expect(refused.body.message).toBe(
      `Promotion ${promotion.uuid} cannot be reverted: "Moved" (${moved}): bearerToken must be sent again: url now points elsewhere (another scheme, host, port or user info) than when it was stored. ` +
        "PUT those connectors' records before it with the secrets they need instead",
    );
    expect((await get(moved)).url).toBe('https://api.dev.example.com/');
  });

  it('refuses a revert that would restore a pruned connector its environment no longer admits (409 naming it)', async () => {
    const { org, target, create, plan, promote, targetBase } = await aPair();
    const variablesPath = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${org}/env/${target.envUUID}/connector-variables`;
    await sut.http
      .put(variablesPath)
      .set(bearer(token))
      .send({ variables: [{ name: 'BASE', value: 'https://api.prod.example.com' }] })
      .expect(200);
    const pruned = await create(targetBase, aConnectorBody({ name: 'Pruned', url: '{{env.BASE}}/x' }));
    const planned = await plan({ prune: true });
    expect(planned.connectors).toMatchObject([{ name: 'Pruned', action: 'DELETE' }]);
    const promotion = (await promote({ dryRun: false, prune: true, digest: planned.digest }).expect(201)).body;
    // BASE becomes a secret, which may never say where a call goes: the trashed connector would send it (confirmed).
    await sut.http
      .put(variablesPath)
      .set(bearer(token))
      .send({
        variables: [{ name: 'BASE', value: 'https://api.prod.example.com', secret: true, destinations: ['https://api.prod.example.com'] }],
        confirmDestinationMoves: true,
      })
      .expect(200);

    const refused = await sut.http.post(`${targetBase}/promotions/${promotion.uuid}/revert`).set(bearer(token)).expect(409);

    expect(refused.body.message).toContain(`"Pruned" (${pruned}): url must not have {{env.BASE}}`);
    const [row] = await sut.dataSource.query('SELECT deleted_at AS deletedAt FROM rest_connectors WHERE uuid = ?', [pruned]);
    expect(row.deletedAt).not.toBeNull();
  });

  it("answers 404 for another organization's source, 400 for the bot itself or a missing digest, and 404 for an unknown promotion", async () => {
    const pair = await aPair();
    const other = await seedStages(sut);

    const foreign = await pair.promote({ source: { envUUID: other.dev.uuid, botUUID: other.devBots[0].uuid } }).expect(404);
    expect(foreign.body.message).toBe(`Environment ${other.dev.uuid} not found in organization ${pair.org}`);
    const itself = await pair.promote({ source: pair.target }).expect(400);
    expect(itself.body.message).toEqual([expect.stringMatching(/^source\.botUUID must be another bot than the path's/)]);
    const undigested = await pair.promote({ dryRun: false }).expect(400);
    expect(undigested.body.message).toEqual([expect.stringMatching(/^digest is required with dryRun false/)]);
    await pair.promote({ dryRun: false, digest: 'sha256:nope' }).expect(400);
    const missing = '0192f0a0-0000-7000-8000-000000000001';
    await sut.http.get(`${pair.targetBase}/promotions/${missing}`).set(bearer(token)).expect(404);
    await sut.http.post(`${pair.targetBase}/promotions/${missing}/revert`).set(bearer(token)).expect(404);
    const otherTarget = connectorsPath(other.organization.uuid, other.prod.uuid, other.prodBots[0].uuid);
    expect((await sut.http.get(`${otherTarget}/promotions`).set(bearer(token)).expect(200)).body.totalElements).toBe(0);
  });

  it('promotes 500 connectors, and reverts them', async () => {
    const { create, plan, promote, get, sourceBase, targetBase } = await aPair();
    const names = Array.from({ length: 500 }, (_, i) => `Bulk ${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 25) {
      await Promise.all(names.slice(i, i + 25).map((name) => create(sourceBase, aConnectorBody({ name, description: 'dev' }))));
    }
    const existing = await Promise.all(names.slice(0, 100).map((name) => create(targetBase, aConnectorBody({ name, description: 'prod' }))));

    const planned = await plan();
    expect(planned.counts).toEqual({ create: 400, update: 100, delete: 0, unchanged: 0 });
    const promotion = (await promote({ dryRun: false, digest: planned.digest }).expect(201)).body;

    expect(promotion.items).toHaveLength(500);
    const [{ total }] = await sut.dataSource.query('SELECT COUNT(*) AS total FROM rest_connector_versions WHERE promotion_id = ?', [promotion.uuid]);
    expect(Number(total)).toBe(500);
    expect((await get(existing[42])).description).toBe('dev');
    expect((await plan()).counts).toEqual({ create: 0, update: 0, delete: 0, unchanged: 500 });

    await sut.http.post(`${targetBase}/promotions/${promotion.uuid}/revert`).set(bearer(token)).expect(200);
    const [{ active }] = await sut.dataSource.query('SELECT COUNT(*) AS active FROM rest_connectors WHERE bot_uuid = ? AND deleted_at IS NULL', [
      (await plan()).target.botUUID,
    ]);
    expect(Number(active)).toBe(100);
    expect((await get(existing[42])).description).toBe('prod');
  });
});

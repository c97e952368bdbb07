import { randomUUID } from 'node:crypto';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aBot, aContentEntry, aFlow, anEnvironment, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import {
  aConnectorBody,
  connectorNotFound,
  connectorsPath,
  createConnector,
  errorBody,
  tenantPath,
  withBasicAuth,
} from '../rest-connectors/connector-factories';

type Request = ReturnType<TestApp['http']['get']>;
type Response = Awaited<Request>;

/** The ids an operation's path is built from. */
interface Ids {
  org: string;
  env: string;
  bot: string;
  connector: string;
}

type Slot = 'env' | 'bot' | 'connector';
type Level = 'org' | 'env' | 'bot' | 'connector';

interface Operation {
  name: string;
  level: Level;
  write: boolean;
  /** The request path and query for these ids. */
  url(ids: Ids): string;
  send(token: string, ids: Ids): Request;
}

/** Which ids an attacker in A guesses from B; every other id is A's own. */
type Guess = Slot[];

const SLOTS_OF_LEVEL: Record<Level, Slot[]> = {
  org: [],
  env: ['env'],
  bot: ['env', 'bot'],
  connector: ['env', 'bot', 'connector'],
};

const GUESSES_OF_LEVEL: Record<Level, Guess[]> = {
  org: [],
  env: [['env']],
  bot: [['env', 'bot'], ['bot'], ['env']],
  connector: [['env', 'bot', 'connector'], ['bot', 'connector'], ['connector']],
};

const replaceAll = (text: string, from: string, to: string) => text.split(from).join(to);

describe('Tenant isolation: a caller of organization A attacking tenant B (MariaDB, all three apps)', () => {
  let connectors: TestApp;
  let environments: TestApp;
  let bots: TestApp;

  let A: Tenant;
  let B: Tenant;
  /** orgs: [A], connectors:write. */
  let attacker: string;
  /** orgs: ['*'], no write scope. */
  let supportReader: string;

  let aConnector: string;
  let aShared: string;
  let bConnectors: Array<{ uuid: string; name: string }>;
  let bSecondEnvironment: string;
  let bSecondBot: string;
  let bFlow: string;
  let bTag: string;
  /** Every name and uuid of B that must never reach the attacker, unless the attacker sent it. */
  let bSecrets: string[];
  let bBefore: Awaited<ReturnType<typeof snapshotOf>>;

  const SHARED_NAME = 'Shared weather';

  async function snapshotOf(tenant: Tenant) {
    const query = (sql: string, params: unknown[]) => connectors.dataSource.query(sql, params);
    const org = tenant.organization.uuid;
    const botsOfOrg = 'SELECT b.uuid FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE e.organization_uuid = ?';
    return {
      organization: await query('SELECT * FROM organizations WHERE uuid = ?', [org]),
      environments: await query('SELECT * FROM environments WHERE organization_uuid = ? ORDER BY uuid', [org]),
      bots: await query('SELECT b.* FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE e.organization_uuid = ? ORDER BY b.uuid', [org]),
      flows: await query(`SELECT * FROM flows WHERE bot_uuid IN (${botsOfOrg}) ORDER BY uuid`, [org]),
      flowConnectors: await query(
        `SELECT fc.* FROM flow_connectors fc JOIN flows f ON f.uuid = fc.flow_uuid WHERE f.bot_uuid IN (${botsOfOrg})
         ORDER BY fc.flow_uuid, fc.connector_uuid`,
        [org],
      ),
      connectors: await query('SELECT * FROM rest_connectors WHERE bot_uuid = ? ORDER BY uuid', [tenant.bot.uuid]),
      connectorsOfOrg: await query(`SELECT * FROM rest_connectors WHERE bot_uuid IN (${botsOfOrg}) ORDER BY uuid`, [org]),
      tags: await query(
        `SELECT t.* FROM rest_connector_tags t JOIN rest_connectors c ON c.uuid = t.connector_uuid
         WHERE c.bot_uuid IN (${botsOfOrg}) ORDER BY t.connector_uuid, t.position`,
        [org],
      ),
      content: await query(
        `SELECT cc.* FROM connector_content cc WHERE cc.connector_uuid IN
         (SELECT c.uuid FROM rest_connectors c WHERE c.bot_uuid IN (${botsOfOrg})) ORDER BY cc.connector_uuid`,
        [org],
      ),
    };
  }

  const expectBUnchanged = async () => expect(await snapshotOf(B)).toStrictEqual(bBefore);

  const activeConnectorsOfA = (): Promise<Array<{ uuid: string; name: string }>> =>
    connectors.dataSource.query('SELECT uuid, name FROM rest_connectors WHERE bot_uuid = ? AND deleted_at IS NULL', [A.bot.uuid]);

  const idsOf = (tenant: Tenant, connector: string): Ids => ({
    org: tenant.organization.uuid,
    env: tenant.environment.uuid,
    bot: tenant.bot.uuid,
    connector,
  });
  const aIds = () => idsOf(A, aConnector);
  const bIds = () => idsOf(B, bConnectors[0].uuid);

  const attackBody = () => aConnectorBody({ name: `Attack ${randomUUID().slice(0, 8)}` });

  const operations: Operation[] = [
    {
      name: 'connectors: pagination',
      level: 'bot',
      write: false,
      url: (i) => `${connectorsPath(i.org, i.env, i.bot)}/pagination?linesPerPage=100`,
      send: (t, i) => connectors.http.get(`${connectorsPath(i.org, i.env, i.bot)}/pagination?linesPerPage=100`).set(bearer(t)),
    },
    {
      name: 'connectors: quicksearch',
      level: 'bot',
      write: false,
      url: (i) => `${connectorsPath(i.org, i.env, i.bot)}/quicksearch?searchTerm=e&limit=50`,
      send: (t, i) => connectors.http.get(`${connectorsPath(i.org, i.env, i.bot)}/quicksearch?searchTerm=e&limit=50`).set(bearer(t)),
    },
    {
      name: 'connectors: list',
      level: 'bot',
      write: false,
      url: (i) => `${connectorsPath(i.org, i.env, i.bot)}/list`,
      send: (t, i) => connectors.http.get(`${connectorsPath(i.org, i.env, i.bot)}/list`).set(bearer(t)),
    },
    {
      name: 'connectors: get',
      level: 'connector',
      write: false,
      url: (i) => `${connectorsPath(i.org, i.env, i.bot)}/${i.connector}`,
      send: (t, i) => connectors.http.get(`${connectorsPath(i.org, i.env, i.bot)}/${i.connector}`).set(bearer(t)),
    },
    {
      name: 'connectors: create',
      level: 'bot',
      write: true,
      url: (i) => connectorsPath(i.org, i.env, i.bot),
      send: (t, i) =>
        connectors.http
          .post(connectorsPath(i.org, i.env, i.bot))
          .set(bearer(t))
          .send(attackBody()),
    },
    {
      name: 'connectors: update',
      level: 'connector',
      write: true,
      url: (i) => `${connectorsPath(i.org, i.env, i.bot)}/${i.connector}`,
      send: (t, i) =>
        connectors.http
          .put(`${connectorsPath(i.org, i.env, i.bot)}/${i.connector}`)
          .set(bearer(t))
          .send(attackBody()),
    },
    {
      name: 'connectors: delete',
      level: 'connector',
      write: true,
      url: (i) => `${connectorsPath(i.org, i.env, i.bot)}/${i.connector}`,
      send: (t, i) => connectors.http.delete(`${connectorsPath(i.org, i.env, i.bot)}/${i.connector}`).set(bearer(t)),
    },
    {
      name: 'environments: list',
      level: 'org',
      write: false,
      url: (i) => `/platform-environment/org/${i.org}/environments`,
      send: (t, i) => environments.http.get(`/platform-environment/org/${i.org}/environments`).set(bearer(t)),
    },
    {
      name: 'environments: get',
      level: 'env',
      write: false,
      url: (i) => `/platform-environment/org/${i.org}/environments/${i.env}`,
      send: (t, i) => environments.http.get(`/platform-environment/org/${i.org}/environments/${i.env}`).set(bearer(t)),
    },
    {
      name: 'bots: list',
      level: 'env',
      write: false,
      url: (i) => `/platform-bot-admin/org/${i.org}/env/${i.env}/bots-admin`,
      send: (t, i) => bots.http.get(`/platform-bot-admin/org/${i.org}/env/${i.env}/bots-admin`).set(bearer(t)),
    },
    {
      name: 'bots: get',
      level: 'bot',
      write: false,
      url: (i) => `/platform-bot-admin/org/${i.org}/env/${i.env}/bots-admin/${i.bot}`,
      send: (t, i) => bots.http.get(`/platform-bot-admin/org/${i.org}/env/${i.env}/bots-admin/${i.bot}`).set(bearer(t)),
    },
  ];
  const writeOperations = operations.filter((op) => op.write);
  const byName = (name: string) => operations.find((op) => op.name === name) as Operation;

  /** Names and uuids of B found in a response, leaving out the uuids the attacker sent itself. */
  const leakedFromB = (res: Response, sent: string[]) => {
    const text = (res.text ?? '').toLowerCase();
    const allowed = sent.map((id) => id.toLowerCase());
    return bSecrets.filter((secret) => !allowed.includes(secret.toLowerCase()) && text.includes(secret.toLowerCase()));
  };

  /** The 404 a caller of A gets when the first link of the path that is not A's is missing. */
  const notFoundInA = (op: Operation, ids: Ids) => {
    const env = ids.env.toLowerCase();
    const bot = ids.bot.toLowerCase();
    const connector = ids.connector.toLowerCase();
    if (env !== A.environment.uuid) return `Environment ${env} not found in organization ${A.organization.uuid}`;
    if (bot !== A.bot.uuid) return `Bot ${bot} not found in environment ${A.environment.uuid}`;
    return connectorNotFound(connector, A.bot.uuid);
  };

  beforeAll(async () => {
    [connectors, environments, bots] = await Promise.all([
      startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig()),
      startTestApp(ENVIRONMENT_APP, mysqlTestConfig()),
      startTestApp(BOT_ADMIN_APP, mysqlTestConfig()),
    ]);
    A = await seedTenant(connectors.dataSource);
    B = await seedTenant(connectors.dataSource);

    attacker = await signToken({ sub: 'mallory', orgs: [A.organization.uuid], scope: 'connectors:write' });
    supportReader = await signToken({ sub: 'support', orgs: ['*'], scope: 'connectors:read' });
    const owner = await signToken({ sub: 'bob', username: 'bob', orgs: [B.organization.uuid], scope: 'connectors:write' });
    const aOwner = await signToken({ sub: 'alice', orgs: [A.organization.uuid], scope: 'connectors:write' });

    const suffix = randomUUID().slice(0, 8);
    aConnector = await createConnector(connectors, A, aOwner, { name: `A own ${suffix}`, tags: [{ name: 'a-tag' }] });
    aShared = await createConnector(connectors, A, aOwner, { name: SHARED_NAME, tags: [{ name: 'shared' }] });

    bTag = `b-tag-${suffix}`;
    const bNames = [`B payroll ${suffix}`, `B vault 100%_\\ ${suffix}`, SHARED_NAME];
    bConnectors = [];
    for (const [index, name] of bNames.entries()) {
      const body = index === 1 ? withBasicAuth({ name, tags: [{ name: bTag }] }) : { name, tags: [{ name: 'shared' }] };
      bConnectors.push({ uuid: await createConnector(connectors, B, owner, body), name });
    }
    const deleted = await createConnector(connectors, B, owner, { name: `B deleted ${suffix}` });
    await connectors.http
      .delete(`${tenantPath(B)}/${deleted}`)
      .set(bearer(owner))
      .expect(204);

    const secondEnvironment = anEnvironment(B.organization.uuid, { name: `B staging ${suffix}`, removed: true });
    const secondBot = aBot(B.environment.uuid, { name: `B helper ${suffix}` });
    const flow = aFlow(B.bot.uuid, { name: `B flow ${suffix}`, connectors: bConnectors.map((c) => c.uuid) });
    await importData(connectors.dataSource, {
      environments: [secondEnvironment],
      bots: [secondBot],
      flows: [flow],
      connectorContent: { [bConnectors[0].uuid]: [aContentEntry({ buttonText: `B content ${suffix}` })] },
    });
    bSecondEnvironment = secondEnvironment.uuid;
    bSecondBot = secondBot.uuid;
    bFlow = flow.uuid;

    bSecrets = [
      B.organization.uuid,
      B.organization.name,
      B.environment.uuid,
      B.environment.name,
      B.bot.uuid,
      B.bot.name,
      bSecondEnvironment,
      secondEnvironment.name,
      bSecondBot,
      secondBot.name,
      bFlow,
      flow.name,
      deleted,
      `B deleted ${suffix}`,
      bTag,
      `B content ${suffix}`,
      ...bConnectors.map((c) => c.uuid),
      ...bConnectors.map((c) => c.name).filter((name) => name !== SHARED_NAME),
    ];
    bBefore = await snapshotOf(B);
  });

  afterAll(() => Promise.all([connectors?.close(), environments?.close(), bots?.close()]));

  describe("(a) B's organization in the path is 403, and nothing changes", () => {
    it.each(operations.map((op) => [op.name, op] as const))('%s', async (_, op) => {
      for (const org of [B.organization.uuid, B.organization.uuid.toUpperCase()]) {
        const ids = { ...bIds(), org };

        const res = await op.send(attacker, ids);

        expect(res.status).toBe(403);
        expect(res.body).toEqual(errorBody(403, 'Forbidden', `Not allowed to access organization ${B.organization.uuid}`, op.url(ids)));
        expect(leakedFromB(res, Object.values(ids))).toEqual([]);
      }
      await expectBUnchanged();
    });

    it.each(operations.map((op) => [op.name, op] as const))('%s: the answer does not depend on whether the ids after the organization exist', async (_, op) => {
      const real = await op.send(attacker, bIds());
      const random = await op.send(attacker, { org: B.organization.uuid, env: randomUUID(), bot: randomUUID(), connector: randomUUID() });

      expect(real.status).toBe(403);
      expect({ ...real.body, path: '', timestamp: '', requestId: '' }).toEqual({ ...random.body, path: '', timestamp: '', requestId: '' });
      await expectBUnchanged();
    });
  });

  describe("(b, c) A's organization with B's real ids guessed is the same 404 as random ids, and nothing of B comes back", () => {
    const cases = operations.flatMap((op) =>
      GUESSES_OF_LEVEL[op.level].flatMap((guess) =>
        (['lower case', 'upper case'] as const).map((letterCase) => [op.name, guess.join('+'), letterCase, op, guess] as const),
      ),
    );

    it.each(cases)("%s guessing B's %s (%s)", async (_, __, letterCase, op, guess) => {
      const shape = (id: string) => (letterCase === 'upper case' ? id.toUpperCase() : id);
      const guessedIds: Ids = { ...aIds() };
      const randomIds: Ids = { ...aIds() };
      for (const slot of guess) {
        guessedIds[slot] = shape(bIds()[slot]);
        randomIds[slot] = shape(randomUUID());
      }

      const guessed = await op.send(attacker, guessedIds);
      const random = await op.send(attacker, randomIds);

      expect(guessed.status).toBe(404);
      expect(guessed.body).toEqual(errorBody(404, 'Not Found', notFoundInA(op, guessedIds), op.url(guessedIds)));
      expect(random.body).toEqual(errorBody(404, 'Not Found', notFoundInA(op, randomIds), op.url(randomIds)));
      const normalized = (res: Response, ids: Ids) => {
        let text = JSON.stringify({ ...res.body, timestamp: '', requestId: '' });
        for (const slot of SLOTS_OF_LEVEL[op.level]) {
          text = replaceAll(replaceAll(text, ids[slot], `<${slot}>`), ids[slot].toLowerCase(), `<${slot}>`);
        }
        return text;
      };
      expect(normalized(guessed, guessedIds)).toBe(normalized(random, randomIds));
      expect(Object.keys(guessed.headers).sort()).toEqual(Object.keys(random.headers).sort());
      expect(guessed.headers['content-length']).toBe(random.headers['content-length']);
      expect(
        leakedFromB(
          guessed,
          guess.map((slot) => guessedIds[slot]),
        ),
      ).toEqual([]);
      await expectBUnchanged();
    });

    it("lists only A's environments under A's organization", async () => {
      const res = await byName('environments: list').send(attacker, aIds()).expect(200);

      expect(res.body.map((env: { uuid: string }) => env.uuid)).toEqual([A.environment.uuid]);
      expect(leakedFromB(res, [])).toEqual([]);
    });

    it("lists only A's bots under A's environment", async () => {
      const res = await byName('bots: list').send(attacker, aIds()).expect(200);

      expect(res.body.bots.map((bot: { uuid: string }) => bot.uuid)).toEqual([A.bot.uuid]);
      expect(leakedFromB(res, [])).toEqual([]);
    });
  });

  describe("(c) A's own valid path never reaches B's connectors", () => {
    it.each(['get', 'update', 'delete'])("%s of B's connector under A's org, env and bot is 404 naming A's bot, in either case", async (verb) => {
      const op = byName(`connectors: ${verb}`);
      for (const connector of [bConnectors[0].uuid, bConnectors[0].uuid.toUpperCase(), bConnectors[1].uuid]) {
        const ids = { ...aIds(), connector };

        const res = await op.send(attacker, ids);

        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorBody(404, 'Not Found', connectorNotFound(connector.toLowerCase(), A.bot.uuid), op.url(ids)));
        expect(leakedFromB(res, [connector])).toEqual([]);
      }
      await expectBUnchanged();
    });

    it("creates in A only when the body names B's connector uuid", async () => {
      const name = `Impostor ${randomUUID().slice(0, 8)}`;

      const res = await connectors.http
        .post(tenantPath(A))
        .set(bearer(attacker))
        .send(aConnectorBody({ name, uuid: bConnectors[0].uuid }))
        .expect(201);

      expect(res.body.uuid).not.toBe(bConnectors[0].uuid);
      const rows = await connectors.dataSource.query('SELECT uuid, bot_uuid FROM rest_connectors WHERE name = ?', [name]);
      expect(rows).toEqual([{ uuid: res.body.uuid, bot_uuid: A.bot.uuid }]);
      await expectBUnchanged();
    });

    it("updates A's own connector only when the body names B's connector uuid", async () => {
      const res = await connectors.http
        .put(`${tenantPath(A)}/${aConnector}`)
        .set(bearer(attacker))
        .send(aConnectorBody({ name: `A renamed ${randomUUID().slice(0, 8)}`, uuid: bConnectors[0].uuid }))
        .expect(200);

      expect(res.body.data).toBe(aConnector);
      await expectBUnchanged();
    });

    it.each(['botUuid', 'botUUID', 'orgUUID', 'envUUID', 'bot_uuid', 'serviceUUID'])(
      'rejects a body field %s naming B as unknown, and writes nothing',
      async (field) => {
        const name = `Redirected ${randomUUID().slice(0, 8)}`;

        const res = await connectors.http
          .post(tenantPath(A))
          .set(bearer(attacker))
          .send(aConnectorBody({ name, [field]: field.startsWith('org') ? B.organization.uuid : B.bot.uuid }))
          .expect(400);

        expect(res.body.message).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${field} is not a field of this body`))]));
        await expect(connectors.dataSource.query('SELECT uuid FROM rest_connectors WHERE name = ?', [name])).resolves.toEqual([]);
        await expectBUnchanged();
      },
    );

    it("pages of A never hold B's connectors, whatever the search terms, order and direction", async () => {
      const terms = [...bConnectors.map((c) => c.name), bTag, `${bConnectors[0].name},${bTag}`, 'B', '%', '_', '\\'];
      const ownUuids = await activeConnectorsOfA().then((rows) => rows.map((row) => row.uuid));
      for (const term of terms) {
        for (const orderBy of ['name', 'updatedAt', 'updatedBy']) {
          for (const direction of ['ASC', 'desc']) {
            const query = `searchTerms=${encodeURIComponent(term)}&orderBy=${orderBy}&direction=${direction}&linesPerPage=100`;

            const res = await connectors.http
              .get(`${tenantPath(A)}/pagination?${query}`)
              .set(bearer(attacker))
              .expect(200);

            for (const item of res.body.content) expect(ownUuids).toContain(item.uuid);
            expect(leakedFromB(res, [])).toEqual([]);
          }
        }
      }
    });

    it("finds A's connector, not B's, for the name both tenants use", async () => {
      const res = await connectors.http
        .get(`${tenantPath(A)}/pagination?searchTerms=${encodeURIComponent(SHARED_NAME)}&linesPerPage=100`)
        .set(bearer(attacker))
        .expect(200);

      expect(res.body.content.map((item: { uuid: string }) => item.uuid)).toEqual([aShared]);
      expect(res.body.totalElements).toBe(1);
    });

    it("lists of A never hold B's connectors, their content or their flows", async () => {
      const res = await connectors.http
        .get(`${tenantPath(A)}/list`)
        .set(bearer(attacker))
        .expect(200);

      const uuids = res.body.data.map((item: { uuid: string }) => item.uuid);
      expect(uuids).toEqual(expect.arrayContaining([aConnector, aShared]));
      expect(uuids.filter((uuid: string) => bSecrets.includes(uuid))).toEqual([]);
      expect(leakedFromB(res, [])).toEqual([]);
    });

    it("suggestions of A never hold B's names, even for B's exact names", async () => {
      const searches = [...bConnectors.map((c) => c.name), 'B ', 'payroll', 'vault', '100%_\\', 'deleted'];
      const ownNames = await activeConnectorsOfA().then((rows) => rows.map((row) => row.name));
      for (const searchTerm of searches) {
        const res = await connectors.http
          .get(`${tenantPath(A)}/quicksearch?searchTerm=${encodeURIComponent(searchTerm)}&limit=50`)
          .set(bearer(attacker))
          .expect(200);

        for (const name of res.body) expect(ownNames).toContain(name);
        expect(leakedFromB(res, [])).toEqual([]);
      }
    });
  });

  describe('Idempotency-Key is per caller', () => {
    const key = `create-${randomUUID()}`;
    let bKeyedConnector: string;

    beforeAll(async () => {
      const owner = await signToken({ sub: 'bob', username: 'bob', orgs: [B.organization.uuid], scope: 'connectors:write' });
      const res = await connectors.http
        .post(tenantPath(B))
        .set(bearer(owner))
        .set('Idempotency-Key', key)
        .send(aConnectorBody({ name: `B keyed ${randomUUID().slice(0, 8)}` }))
        .expect(201);
      bKeyedConnector = res.body.uuid;
      bSecrets.push(bKeyedConnector);
      bBefore = await snapshotOf(B);
    });

    it("lets the attacker use B's key for a create in A, which never answers with B's connector", async () => {
      const res = await connectors.http
        .post(tenantPath(A))
        .set(bearer(attacker))
        .set('Idempotency-Key', key)
        .send(aConnectorBody({ name: `Keyed ${randomUUID().slice(0, 8)}` }))
        .expect(201);

      expect(res.body.uuid).not.toBe(bKeyedConnector);
      await expectBUnchanged();
    });

    // JWT `sub` is case-sensitive (RFC 7519, StringOrURI): "Bob" is another caller than "bob".
    it("treats a caller whose sub differs from B's owner only in case as another caller", async () => {
      const lookalike = await signToken({ sub: 'Bob', orgs: [A.organization.uuid], scope: 'connectors:write' });

      const res = await connectors.http
        .post(tenantPath(A))
        .set(bearer(lookalike))
        .set('Idempotency-Key', key)
        .send(aConnectorBody({ name: `Lookalike ${randomUUID().slice(0, 8)}` }));

      expect(res.status).toBe(201);
      expect(res.body.uuid).not.toBe(bKeyedConnector);
      await expectBUnchanged();
    });
  });

  describe('a token for every organization but without connectors:write', () => {
    const targets = () =>
      [
        ['B', bIds()],
        ['A', aIds()],
        ["B's second bot", { ...bIds(), bot: bSecondBot }],
      ] as const;

    it.each(writeOperations.map((op) => [op.name, op] as const))('%s is 403 on every tenant and changes nothing', async (_, op) => {
      const aBefore = await snapshotOf(A);
      for (const [, ids] of targets()) {
        const res = await op.send(supportReader, ids);

        expect(res.status).toBe(403);
        expect(res.body).toEqual(errorBody(403, 'Forbidden', 'This operation needs the connectors:write scope', op.url(ids)));
      }
      await expectBUnchanged();
      expect(await snapshotOf(A)).toStrictEqual(aBefore);
    });

    it('can still read B, so the 403 is about the scope, not the organization', async () => {
      const res = await byName('connectors: get').send(supportReader, bIds()).expect(200);

      expect(res.body.uuid).toBe(bConnectors[0].uuid);
    });
  });

  it('leaves every row of tenant B byte-identical after all the attacks', async () => {
    const after = await snapshotOf(B);

    expect(after).toStrictEqual(bBefore);
    expect(after.connectors).toHaveLength(5);
    expect(after.flowConnectors).toHaveLength(3);
  });
});

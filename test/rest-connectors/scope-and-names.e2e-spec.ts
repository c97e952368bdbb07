import { RestConnector } from '@app/domain';
import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aBot, anEnvironment, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, connectorNotFound, connectorsPath, createConnector, errorBody, tenantPath } from './connector-factories';

describe('Rest connectors: names and scope (MariaDB)', () => {
  let sut: TestApp;
  let token: string;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig());
    token = await signToken(ALICE);
  });
  afterAll(() => sut.close());

  describe('active names are unique per bot, case-insensitively', () => {
    let tenant: Tenant;
    let base: string;

    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
      base = tenantPath(tenant);
    });

    it('is 409 for a name that only differs in case and surrounding spaces', async () => {
      await createConnector(sut, tenant, token, { name: 'Weather' });
      const before = await sut.dataSource.getRepository(RestConnector).countBy({ botUuid: tenant.bot.uuid });

      const res = await sut.http
        .post(base)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'weather ' }))
        .expect(409);

      expect(res.body).toEqual(errorBody(409, 'Conflict', 'A rest connector named "weather" already exists in this bot', base));
      await expect(sut.dataSource.getRepository(RestConnector).countBy({ botUuid: tenant.bot.uuid })).resolves.toBe(before);
    });

    it('is 409 for a PUT renaming a connector onto another active one, which stays unchanged', async () => {
      await createConnector(sut, tenant, token, { name: 'Taken name' });
      const uuid = await createConnector(sut, tenant, token, { name: 'Free name' });

      const res = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'TAKEN NAME' }))
        .expect(409);

      expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringContaining('already exists in this bot') });
      await expect(
        sut.http
          .get(`${base}/${uuid}`)
          .set(bearer(token))
          .then((r) => r.body.name),
      ).resolves.toBe('Free name');
    });

    it('lets a connector be renamed to its own name in another case', async () => {
      const uuid = await createConnector(sut, tenant, token, { name: 'Casing' });

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'CASING' }))
        .expect(200);

      await expect(
        sut.http
          .get(`${base}/${uuid}`)
          .set(bearer(token))
          .then((r) => r.body.name),
      ).resolves.toBe('CASING');
    });

    it('lets a connector keep its name on update', async () => {
      const uuid = await createConnector(sut, tenant, token, { name: 'Steady' });

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'Steady' }))
        .expect(200);
    });

    it('allows the same name in another bot', async () => {
      const other = await seedTenant(sut.dataSource);
      await createConnector(sut, tenant, token, { name: 'Shared name' });

      await sut.http
        .post(tenantPath(other))
        .set(bearer(token))
        .send(aConnectorBody({ name: 'Shared name' }))
        .expect(201);
    });

    it('allows the same name in another bot of the same environment', async () => {
      const sibling = aBot(tenant.environment.uuid);
      await importData(sut.dataSource, { bots: [sibling] });
      await createConnector(sut, tenant, token, { name: 'Sibling name' });

      await sut.http
        .post(connectorsPath(tenant.organization.uuid, tenant.environment.uuid, sibling.uuid))
        .set(bearer(token))
        .send(aConnectorBody({ name: 'sibling NAME' }))
        .expect(201);
    });

    it('frees the name of a deleted connector, for a create and for a rename', async () => {
      const first = await createConnector(sut, tenant, token, { name: 'Recycled' });
      const other = await createConnector(sut, tenant, token, { name: 'Recycled later' });
      await sut.http.delete(`${base}/${first}`).set(bearer(token)).expect(204);

      const again = await sut.http
        .post(base)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'recycled' }))
        .expect(201);
      await sut.http.delete(`${base}/${again.body.uuid}`).set(bearer(token)).expect(204);
      await sut.http
        .put(`${base}/${other}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'RECYCLED' }))
        .expect(200);
    });

    it('lets exactly one of several simultaneous creates of one name win, the others 409', async () => {
      const name = `Race ${randomUUID().slice(0, 8)}`;

      const results = await Promise.all(Array.from({ length: 6 }, () => sut.http.post(base).set(bearer(token)).send(aConnectorBody({ name }))));

      expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      await expect(sut.dataSource.getRepository(RestConnector).countBy({ botUuid: tenant.bot.uuid, name })).resolves.toBe(1);
    });
  });

  describe('scope', () => {
    let tenant: Tenant;
    let stranger: Tenant;
    let uuid: string;
    let sibling: string;
    let otherEnv: string;
    let otherEnvBot: string;

    type Operation = [string, (path: string, id: string) => ReturnType<TestApp['http']['get']>];
    const connectorOperations: Operation[] = [
      ['GET', (path, id) => sut.http.get(`${path}/${id}`).set(bearer(token))],
      ['PUT', (path, id) => sut.http.put(`${path}/${id}`).set(bearer(token)).send(aConnectorBody())],
      ['DELETE', (path, id) => sut.http.delete(`${path}/${id}`).set(bearer(token))],
    ];
    const botOperations: Array<[string, (path: string) => ReturnType<TestApp['http']['get']>]> = [
      ['POST', (path) => sut.http.post(path).set(bearer(token)).send(aConnectorBody())],
      ['GET list', (path) => sut.http.get(`${path}/list`).set(bearer(token))],
      ['GET pagination', (path) => sut.http.get(`${path}/pagination`).set(bearer(token))],
      ['GET quicksearch', (path) => sut.http.get(`${path}/quicksearch?searchTerm=a`).set(bearer(token))],
    ];
    const everyOperation: Array<[string, (path: string) => ReturnType<TestApp['http']['get']>]> = [
      ...botOperations,
      ...connectorOperations.map(([label, send]): [string, (path: string) => ReturnType<TestApp['http']['get']>] => [label, (path) => send(path, uuid)]),
    ];

    const expectUntouched = async () => {
      const res = await sut.http
        .get(`${tenantPath(tenant)}/${uuid}`)
        .set(bearer(token))
        .expect(200);
      expect(res.body.name).toBe('Scoped connector');
    };

    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
      stranger = await seedTenant(sut.dataSource);
      const siblingBot = aBot(tenant.environment.uuid);
      const environment = anEnvironment(tenant.organization.uuid);
      const environmentBot = aBot(environment.uuid);
      await importData(sut.dataSource, { environments: [environment], bots: [siblingBot, environmentBot] });
      sibling = siblingBot.uuid;
      otherEnv = environment.uuid;
      otherEnvBot = environmentBot.uuid;
      uuid = await createConnector(sut, tenant, token, { name: 'Scoped connector' });
    });

    it.each(connectorOperations)('%s under another bot of the environment is 404 naming that bot', async (_, send) => {
      const path = connectorsPath(tenant.organization.uuid, tenant.environment.uuid, sibling);

      const res = await send(path, uuid).expect(404);

      expect(res.body).toEqual(errorBody(404, 'Not Found', connectorNotFound(uuid, sibling), `${path}/${uuid}`));
      await expectUntouched();
    });

    it.each(connectorOperations)('%s under a bot of another environment of the organization is 404', async (_, send) => {
      const path = connectorsPath(tenant.organization.uuid, otherEnv, otherEnvBot);

      const res = await send(path, uuid).expect(404);

      expect(res.body.message).toBe(connectorNotFound(uuid, otherEnvBot));
      await expectUntouched();
    });

    it.each(connectorOperations)("%s of a connector of tenant A under tenant B's org/env/bot is 404, like a uuid that never existed", async (_, send) => {
      const path = tenantPath(stranger);
      const unknown = randomUUID();

      const foreign = await send(path, uuid).expect(404);
      const never = await send(path, unknown).expect(404);

      expect(foreign.body).toEqual(errorBody(404, 'Not Found', connectorNotFound(uuid, stranger.bot.uuid), `${path}/${uuid}`));
      expect({ ...foreign.body, message: never.body.message, path: never.body.path }).toEqual({
        ...never.body,
        timestamp: foreign.body.timestamp,
        requestId: foreign.body.requestId,
      });
      expect(never.body.message).toBe(connectorNotFound(unknown, stranger.bot.uuid));
      expect(Object.keys(foreign.headers).sort()).toEqual(Object.keys(never.headers).sort());
      await expectUntouched();
    });

    it('keeps a connector out of the pages, lists and suggestions of other bots', async () => {
      const path = connectorsPath(tenant.organization.uuid, tenant.environment.uuid, sibling);

      const page = await sut.http.get(`${path}/pagination?linesPerPage=100`).set(bearer(token)).expect(200);
      const list = await sut.http.get(`${path}/list`).set(bearer(token)).expect(200);
      const suggestions = await sut.http.get(`${path}/quicksearch?searchTerm=Scoped`).set(bearer(token)).expect(200);

      expect(page.body.content.map((item: { uuid: string }) => item.uuid)).not.toContain(uuid);
      expect(list.body.data.map((item: { uuid: string }) => item.uuid)).not.toContain(uuid);
      expect(suggestions.body).toEqual([]);
    });

    it.each(everyOperation)('%s under an unknown bot is 404 naming the bot and the environment', async (_, send) => {
      const bot = randomUUID();

      const res = await send(connectorsPath(tenant.organization.uuid, tenant.environment.uuid, bot)).expect(404);

      expect(res.body.message).toBe(`Bot ${bot} not found in environment ${tenant.environment.uuid}`);
    });

    it.each(everyOperation)('%s under a bot of another environment than the path names is 404 naming the bot', async (_, send) => {
      const res = await send(connectorsPath(tenant.organization.uuid, tenant.environment.uuid, otherEnvBot)).expect(404);

      expect(res.body.message).toBe(`Bot ${otherEnvBot} not found in environment ${tenant.environment.uuid}`);
    });

    it.each(everyOperation)('%s under an environment of another organization is 404 naming the environment', async (_, send) => {
      const res = await send(connectorsPath(tenant.organization.uuid, stranger.environment.uuid, stranger.bot.uuid)).expect(404);

      expect(res.body.message).toBe(`Environment ${stranger.environment.uuid} not found in organization ${tenant.organization.uuid}`);
    });

    it.each(everyOperation)('%s under an unknown organization is 404 naming the organization', async (_, send) => {
      const org = randomUUID();

      const res = await send(connectorsPath(org, tenant.environment.uuid, tenant.bot.uuid)).expect(404);

      expect(res.body.message).toBe(`Organization ${org} not found`);
    });

    it('creates nothing under a scope that does not hold', async () => {
      const name = `Misplaced ${randomUUID().slice(0, 8)}`;

      await sut.http
        .post(connectorsPath(tenant.organization.uuid, stranger.environment.uuid, stranger.bot.uuid))
        .set(bearer(token))
        .send(aConnectorBody({ name }))
        .expect(404);

      await expect(sut.dataSource.getRepository(RestConnector).countBy({ name })).resolves.toBe(0);
    });

    it.each(connectorOperations)('%s with a malformed serviceUUID is 400 naming it', async (_, send) => {
      const path = tenantPath(tenant);

      const res = await send(path, 'not-a-uuid').expect(400);

      expect(res.body).toEqual(errorBody(400, 'Bad Request', ['serviceUUID must be a UUID'], `${path}/not-a-uuid`));
    });

    it.each(everyOperation)('%s with malformed org, env and bot ids is 400 naming each', async (_, send) => {
      const res = await send(connectorsPath('org-x', 'env-y', '12345')).expect(400);

      expect(res.body.message).toEqual(expect.arrayContaining(['orgUUID must be a UUID', 'envUUID must be a UUID', 'botUUID must be a UUID']));
    });

    it('accepts every path id in upper case', async () => {
      const path = connectorsPath(tenant.organization.uuid.toUpperCase(), tenant.environment.uuid.toUpperCase(), tenant.bot.uuid.toUpperCase());

      const res = await sut.http.get(`${path}/${uuid.toUpperCase()}`).set(bearer(token)).expect(200);

      expect(res.body.uuid).toBe(uuid);
    });
  });
});

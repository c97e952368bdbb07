import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import type { paths as BotAdminPaths } from '../client/bot-admin.schema';
import type { paths as EnvironmentPaths } from '../client/environment.schema';
import type { paths as ConnectorPaths } from '../client/transactional-service.schema';
import { aContentEntry, aFlow, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { signToken } from '../support/tokens';
import { committedDocument } from './committed-documents';
import { DocumentValidator } from './document-validator';
import { listenOnLoopback } from './swagger-ui-browser';
import { farSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';

const C = '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/bot/{botUUID}/rest-connectors' as const;

/**
 * A client generated from the committed documents (openapi-typescript + openapi-fetch) drives every
 * operation of the three apps; every answer, success or error, is validated against the document.
 */
describe('The generated client against the three apps (MariaDB)', () => {
  const apps: TestApp[] = [];
  let tenant: Tenant;
  let headers: { Authorization: string };
  let connectors: ReturnType<typeof createClient<ConnectorPaths>>;
  let environments: ReturnType<typeof createClient<EnvironmentPaths>>;
  let bots: ReturnType<typeof createClient<BotAdminPaths>>;
  const documents = {
    connectors: new DocumentValidator(committedDocument('transactional-service')),
    environments: new DocumentValidator(committedDocument('environment')),
    bots: new DocumentValidator(committedDocument('bot-admin')),
  };

  beforeAll(async () => {
    // Test runs reach far sides on 127.0.0.2 only, names answered from a table (never a name server).
    const config = mysqlTestConfig({ connectorTests: loopbackTestRuns({ timeoutMs: 2_000 }) });
    apps.push(await startTestApp(TRANSACTIONAL_SERVICE_APP, config, withResolver()));
    for (const definition of [ENVIRONMENT_APP, BOT_ADMIN_APP]) apps.push(await startTestApp(definition, config));
    connectors = createClient<ConnectorPaths>({ baseUrl: await listenOnLoopback(apps[0]) });
    environments = createClient<EnvironmentPaths>({ baseUrl: await listenOnLoopback(apps[1]) });
    bots = createClient<BotAdminPaths>({ baseUrl: await listenOnLoopback(apps[2]) });
    tenant = await seedTenant(apps[0].dataSource);
    headers = {
      Authorization: `Bearer ${await signToken({ orgs: [tenant.organization.uuid], scope: 'connectors:write', username: 'ada', picture: 'https://img.example.com/ada.png' })}`,
    };
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const scope = () => ({ orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid, botUUID: tenant.bot.uuid });
  const writeBody = (name: string) => ({
    name,
    requestType: 'GET' as const,
    url: 'https://api.example.com/items/{{id}}',
    contentType: 'NONE' as const,
    authType: 'AUTH_BEARER' as const,
    bearerToken: 'a-real-token',
    body: '',
    output: '$.data',
    tags: [{ name: 'docs' }],
    headers: [{ header: 'Accept', value: 'application/json' }],
  });

  it('has a validator that rejects an undocumented field, a wrong type and an undocumented status', () => {
    const B = '/platform-bot-admin/org/{orgUUID}/env/{envUUID}/bots-admin/{botUUID}';
    const bot = { uuid: randomUUID(), environmentUuid: randomUUID(), name: 'x', image: null };

    expect(() => documents.bots.expectValid(B, 'get', 200, bot)).not.toThrow();
    expect(() => documents.bots.expectValid(B, 'get', 200, { ...bot, secret: 'x' })).toThrow(/must NOT have additional properties/);
    expect(() => documents.bots.expectValid(B, 'get', 200, { ...bot, name: 42 })).toThrow(/must be string/);
    expect(() => documents.bots.expectValid(B, 'get', 418, {})).toThrow(/does not list 418/);
  });

  it('drives the seven connector operations, every answer as documented', async () => {
    const created = await connectors.POST(C, { params: { path: scope() }, body: writeBody('Documented'), headers });
    documents.connectors.expectValid(C, 'post', created.response.status, created.data);
    expect(created.response.status).toBe(201);
    const uuid = created.data!.uuid;
    await importData(apps[0].dataSource, { flows: [aFlow(tenant.bot.uuid, { connectors: [uuid] })], connectorContent: { [uuid]: [aContentEntry()] } });
    const one = { params: { path: { ...scope(), serviceUUID: uuid } }, headers };

    const got = await connectors.GET(`${C}/{serviceUUID}`, one);
    documents.connectors.expectValid(`${C}/{serviceUUID}`, 'get', got.response.status, got.data);
    expect(got.data).toMatchObject({ name: 'Documented', bearerToken: '<BEARER_TOKEN>', flows: [expect.any(Object)] });

    const updated = await connectors.PUT(`${C}/{serviceUUID}`, { ...one, body: { ...writeBody('Documented again'), bearerToken: '<BEARER_TOKEN>' } });
    documents.connectors.expectValid(`${C}/{serviceUUID}`, 'put', updated.response.status, updated.data);
    expect(updated.data).toEqual({ message: 'Rest connector updated', data: uuid });

    const page = await connectors.GET(`${C}/pagination`, {
      params: { path: scope(), query: { page: 1, linesPerPage: 5, orderBy: 'name', direction: 'ASC', searchTerms: ['documented', 'docs'] } },
      headers,
    });
    documents.connectors.expectValid(`${C}/pagination`, 'get', page.response.status, page.data);
    expect(page.data!.content.map((item) => item.name)).toEqual(['Documented again']);
    expect(page.data!.content[0].user).toEqual({ username: 'ada', image: 'https://img.example.com/ada.png' });

    const suggestions = await connectors.GET(`${C}/quicksearch`, { params: { path: scope(), query: { searchTerm: 'docu', limit: 6 } }, headers });
    documents.connectors.expectValid(`${C}/quicksearch`, 'get', suggestions.response.status, suggestions.data);
    expect(suggestions.data).toEqual(['Documented again']);

    const list = await connectors.GET(`${C}/list`, { params: { path: scope() }, headers });
    documents.connectors.expectValid(`${C}/list`, 'get', list.response.status, list.data);
    expect(list.data!.data[0].content).toHaveLength(1);

    const deleted = await connectors.DELETE(`${C}/{serviceUUID}`, one);
    documents.connectors.expectValid(`${C}/{serviceUUID}`, 'delete', deleted.response.status, deleted.data);
    expect(deleted.response.status).toBe(204);
  });

  it('gets each documented error of the connector operations in the documented shape', async () => {
    const uuid = (await connectors.POST(C, { params: { path: scope() }, body: writeBody('Errors'), headers })).data!.uuid;
    const one = { params: { path: { ...scope(), serviceUUID: uuid } }, headers };
    const answers: Array<[string, string, Promise<{ response: Response; error?: unknown }>, number]> = [
      [`${C}/{serviceUUID}`, 'get', connectors.GET(`${C}/{serviceUUID}`, { ...one, params: { path: { ...scope(), serviceUUID: randomUUID() } } }), 404],
      [`${C}/{serviceUUID}`, 'get', connectors.GET(`${C}/{serviceUUID}`, { ...one, headers: {} }), 401],
      [C, 'post', connectors.POST(C, { params: { path: scope() }, body: { ...writeBody(''), requestType: 'TRACE' as never }, headers }), 400],
      [C, 'post', connectors.POST(C, { params: { path: scope() }, body: writeBody('Errors'), headers }), 409],
      [
        `${C}/{serviceUUID}`,
        'put',
        connectors.PUT(`${C}/{serviceUUID}`, { ...one, body: writeBody('Stale'), headers: { ...headers, 'If-Match': '"v0"' } }),
        412,
      ],
      [`${C}/pagination`, 'get', connectors.GET(`${C}/pagination`, { params: { path: scope(), query: { linesPerPage: 101 } }, headers }), 400],
      [
        `${C}/quicksearch`,
        'get',
        connectors.GET(`${C}/quicksearch`, { params: { path: { ...scope(), orgUUID: randomUUID() }, query: { searchTerm: 'x' } }, headers }),
        403,
      ],
      [`${C}/list`, 'get', connectors.GET(`${C}/list`, { params: { path: { ...scope(), botUUID: randomUUID() } }, headers }), 404],
      [`${C}/{serviceUUID}`, 'delete', connectors.DELETE(`${C}/{serviceUUID}`, { ...one, params: { path: { ...scope(), serviceUUID: randomUUID() } } }), 404],
    ];
    const key = `docs-${randomUUID()}`;
    await connectors.POST(C, { params: { path: scope() }, body: writeBody('Keyed'), headers: { ...headers, 'Idempotency-Key': key } });
    answers.push([
      C,
      'post',
      connectors.POST(C, { params: { path: scope() }, body: writeBody('Keyed differently'), headers: { ...headers, 'Idempotency-Key': key } }),
      422,
    ]);

    for (const [path, method, answer, status] of answers) {
      const { response, error } = await answer;
      expect({ path, method, status: response.status }).toEqual({ path, method, status });
      documents.connectors.expectValid(path, method, response.status, error);
    }
  });

  it('drives the test runs, every answer as documented, with and without a response', async () => {
    const side = await farSide();
    try {
      const connector = { ...writeBody('Tested'), url: `${side.url}/items/{{id}}`, output: '$.data.level' };
      const unsaved = await connectors.POST(`${C}/test`, { params: { path: scope() }, body: { connector, variables: { id: '7' } }, headers });
      documents.connectors.expectValid(`${C}/test`, 'post', unsaved.response.status, unsaved.data);
      expect(unsaved.data).toMatchObject({ outcome: 'SUCCESS', request: { url: `${side.url}/items/7` }, output: { values: [7] } });

      const blocked = await connectors.POST(`${C}/test`, {
        params: { path: scope() },
        body: { connector: { ...connector, url: 'http://127.0.0.1:9/x' }, variables: {} },
        headers,
      });
      documents.connectors.expectValid(`${C}/test`, 'post', blocked.response.status, blocked.data);
      expect(blocked.data).toMatchObject({ outcome: 'BLOCKED_DESTINATION', response: null, output: null });

      const uuid = (await connectors.POST(C, { params: { path: scope() }, body: connector, headers })).data!.uuid;
      const saved = await connectors.POST(`${C}/{serviceUUID}/test`, {
        params: { path: { ...scope(), serviceUUID: uuid } },
        body: { variables: { id: '8' } },
        headers,
      });
      documents.connectors.expectValid(`${C}/{serviceUUID}/test`, 'post', saved.response.status, saved.data);
      expect(saved.data).toMatchObject({
        outcome: 'SUCCESS',
        request: { headers: expect.arrayContaining([{ header: 'Authorization', value: 'Bearer <BEARER_TOKEN>' }]) },
      });

      const missing = await connectors.POST(`${C}/test`, { params: { path: scope() }, body: { connector, variables: {} }, headers });
      documents.connectors.expectValid(`${C}/test`, 'post', missing.response.status, missing.error);
      expect(missing.response.status).toBe(400);
    } finally {
      await side.close();
    }
  });

  it('drives history, trash and restore, every answer as documented', async () => {
    const uuid = (await connectors.POST(C, { params: { path: scope() }, body: writeBody('Historic'), headers })).data!.uuid;
    const one = { params: { path: { ...scope(), serviceUUID: uuid } }, headers };
    await connectors.PUT(`${C}/{serviceUUID}`, { ...one, body: { ...writeBody('Historic'), description: 'edited', bearerToken: '<BEARER_TOKEN>' } });
    await connectors.DELETE(`${C}/{serviceUUID}`, one);

    const page = await connectors.GET(`${C}/{serviceUUID}/versions`, {
      params: { path: { ...scope(), serviceUUID: uuid }, query: { page: 1, linesPerPage: 20 } },
      headers,
    });
    documents.connectors.expectValid(`${C}/{serviceUUID}/versions`, 'get', page.response.status, page.data);
    expect(page.data!.content.map((version) => version.operation)).toEqual(['DELETED', 'UPDATED', 'CREATED']);

    const first = await connectors.GET(`${C}/{serviceUUID}/versions/{version}`, { params: { path: { ...scope(), serviceUUID: uuid, version: 1 } }, headers });
    documents.connectors.expectValid(`${C}/{serviceUUID}/versions/{version}`, 'get', first.response.status, first.data);
    expect(first.data!.snapshot).toMatchObject({ name: 'Historic', bearerToken: '<BEARER_TOKEN>' });

    const trash = await connectors.GET(`${C}/deleted`, { params: { path: scope(), query: {} }, headers });
    documents.connectors.expectValid(`${C}/deleted`, 'get', trash.response.status, trash.data);
    expect(trash.data!.content.map((item) => item.uuid)).toContain(uuid);

    const restored = await connectors.POST(`${C}/{serviceUUID}/restore`, one);
    documents.connectors.expectValid(`${C}/{serviceUUID}/restore`, 'post', restored.response.status, restored.data);
    expect(restored.data).toEqual({ message: 'Rest connector restored', data: uuid });
    expect(restored.response.headers.get('etag')).toBe('"v4"');

    const errors: Array<[string, string, Promise<{ response: Response; error?: unknown }>, number]> = [
      [`${C}/{serviceUUID}/restore`, 'post', connectors.POST(`${C}/{serviceUUID}/restore`, one), 409],
      [
        `${C}/{serviceUUID}/restore`,
        'post',
        connectors.POST(`${C}/{serviceUUID}/restore`, { ...one, params: { path: { ...scope(), serviceUUID: randomUUID() } } }),
        404,
      ],
      [
        `${C}/{serviceUUID}/versions/{version}`,
        'get',
        connectors.GET(`${C}/{serviceUUID}/versions/{version}`, { params: { path: { ...scope(), serviceUUID: uuid, version: 99 } }, headers }),
        404,
      ],
      [
        `${C}/{serviceUUID}/versions`,
        'get',
        connectors.GET(`${C}/{serviceUUID}/versions`, { params: { path: { ...scope(), serviceUUID: uuid }, query: { linesPerPage: 101 } }, headers }),
        400,
      ],
    ];
    for (const [path, method, answer, status] of errors) {
      const { response, error } = await answer;
      expect({ path, method, status: response.status }).toEqual({ path, method, status });
      documents.connectors.expectValid(path, method, response.status, error);
    }
  });

  it('drives the environment operations, every answer as documented', async () => {
    const E = '/platform-environment/org/{orgUUID}/environments' as const;
    const list = await environments.GET(E, { params: { path: { orgUUID: tenant.organization.uuid } }, headers });
    const one = await environments.GET(`${E}/{envUUID}`, {
      params: { path: { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid } },
      headers,
    });
    const missing = await environments.GET(`${E}/{envUUID}`, { params: { path: { orgUUID: tenant.organization.uuid, envUUID: randomUUID() } }, headers });
    const malformed = await environments.GET(E, { params: { path: { orgUUID: 'not-a-uuid' } }, headers });

    documents.environments.expectValid(E, 'get', list.response.status, list.data);
    documents.environments.expectValid(`${E}/{envUUID}`, 'get', one.response.status, one.data);
    documents.environments.expectValid(`${E}/{envUUID}`, 'get', missing.response.status, missing.error);
    documents.environments.expectValid(E, 'get', malformed.response.status, malformed.error);
    expect([list.response.status, one.response.status, missing.response.status, malformed.response.status]).toEqual([200, 200, 404, 400]);
    expect(one.data!.applications[0].properties).toEqual(tenant.environment.applications![0].properties);
  });

  it('drives the bot operations, every answer as documented', async () => {
    const B = '/platform-bot-admin/org/{orgUUID}/env/{envUUID}/bots-admin' as const;
    const path = { orgUUID: tenant.organization.uuid, envUUID: tenant.environment.uuid };
    const list = await bots.GET(B, { params: { path }, headers });
    const one = await bots.GET(`${B}/{botUUID}`, { params: { path: { ...path, botUUID: tenant.bot.uuid } }, headers });
    const missing = await bots.GET(`${B}/{botUUID}`, { params: { path: { ...path, botUUID: randomUUID() } }, headers });
    const foreign = await bots.GET(B, { params: { path: { ...path, orgUUID: randomUUID() } }, headers });

    documents.bots.expectValid(B, 'get', list.response.status, list.data);
    documents.bots.expectValid(`${B}/{botUUID}`, 'get', one.response.status, one.data);
    documents.bots.expectValid(`${B}/{botUUID}`, 'get', missing.response.status, missing.error);
    documents.bots.expectValid(B, 'get', foreign.response.status, foreign.error);
    expect([list.response.status, one.response.status, missing.response.status, foreign.response.status]).toEqual([200, 200, 404, 403]);
    expect(one.data).toEqual({ uuid: tenant.bot.uuid, environmentUuid: tenant.environment.uuid, name: tenant.bot.name, image: tenant.bot.image });
  });
});

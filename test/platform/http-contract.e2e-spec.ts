import {
  BotRepository,
  ConnectorHistoryRepository,
  EnvironmentRepository,
  IdempotencyService,
  RestConnectorRepository,
  RestConnectorSearchRepository,
  ScopeService,
} from '@app/domain';
import { ModulesContainer } from '@nestjs/core';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

describe('HTTP contract shared by the apps', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig({ logLevel: 'info' }));
    tenant = await seedTenant(sut.dataSource);
    token = await signToken({ orgs: ['*'] });
  });
  afterAll(() => sut.close());

  it('echoes a given X-Request-Id in the header and the error body', async () => {
    const res = await sut.http
      .get(`/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin/nope`)
      .set(bearer(token))
      .set('X-Request-Id', 'support-ticket-42.attempt-1')
      .expect(400);

    expect(res.headers['x-request-id']).toBe('support-ticket-42.attempt-1');
    expect(res.body.requestId).toBe('support-ticket-42.attempt-1');
  });

  it('generates a request id when none, or an unacceptable one, is given', async () => {
    const res = await sut.http.get('/health/live').set('X-Request-Id', 'bad id\twith spaces').expect(200);

    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route with the error body', async () => {
    const res = await sut.http.get('/platform-bot-admin/nothing-here').set(bearer(token)).expect(404);

    expect(res.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Cannot GET /platform-bot-admin/nothing-here',
      path: '/platform-bot-admin/nothing-here',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      requestId: res.headers['x-request-id'],
    });
  });

  it('answers a method a path does not serve 405 with Allow listing what it serves, in the error body', async () => {
    const bots = `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin`;

    const patch = await sut.http.patch(`${bots}/${tenant.bot.uuid}`).set(bearer(token)).send({}).expect(405);
    const del = await sut.http.delete(bots).set(bearer(token)).expect(405);

    expect(patch.headers.allow).toBe('GET, HEAD');
    expect(patch.body).toMatchObject({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: 'PATCH is not an operation of this path; it answers GET, HEAD',
      requestId: patch.headers['x-request-id'],
    });
    expect(del.body.message).toBe('DELETE is not an operation of this path; it answers GET, HEAD');
  });

  it('answers malformed JSON with a 400 error body, never a 500', async () => {
    const res = await sut.http.post('/platform-bot-admin/anything').set(bearer(token)).set('Content-Type', 'application/json').send('{"name": ').expect(400);

    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', requestId: res.headers['x-request-id'] });
  });

  it('writes one JSON log line per request with request id, method, route template, status, duration and sub', async () => {
    const url = `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin`;
    const res = await sut.http.get(url).set(bearer(token)).set('X-Request-Id', 'log-line-check').expect(200);

    const line = sut.logs.find((entry) => entry.requestId === 'log-line-check');
    expect(res.body.bots).toHaveLength(1);
    expect(line).toMatchObject({
      level: 'info',
      req: { method: 'GET' },
      res: { statusCode: 200 },
      route: '/platform-bot-admin/org/:orgUUID/env/:envUUID/bots-admin',
      sub: 'user-1',
      durationMs: expect.any(Number),
    });
    expect(JSON.stringify(sut.logs)).not.toContain(token);
  });

  it('serves liveness and readiness at the root without a token', async () => {
    await sut.http.get('/health/live').expect(200, { status: 'ok' });
    await sut.http.get('/health/ready').expect(200, { status: 'ok', checks: { database: 'up' } });
  });
});

describe.each([
  [TRANSACTIONAL_SERVICE_APP, []],
  [ENVIRONMENT_APP, ['/platform-environment/org/{orgUUID}/environments', '/platform-environment/org/{orgUUID}/environments/{envUUID}']],
  [BOT_ADMIN_APP, ['/platform-bot-admin/org/{orgUUID}/env/{envUUID}/bots-admin', '/platform-bot-admin/org/{orgUUID}/env/{envUUID}/bots-admin/{botUUID}']],
])('%s.label documentation', (definition, paths) => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await startTestApp(definition, mysqlTestConfig());
  });
  afterAll(() => sut.close());

  it(`serves the OpenAPI document at /${definition.label}/docs-json with only its group's operations`, async () => {
    const res = await sut.http.get(`/${definition.label}/docs-json`).expect(200);

    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(paths));
    for (const path of Object.keys(res.body.paths)) expect(path.startsWith(`/${definition.label}/`)).toBe(true);
    expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it(`serves Swagger UI at /${definition.label}/docs`, async () => {
    const res = await sut.http.get(`/${definition.label}/docs`).redirects(1).expect(200);

    expect(res.text).toContain('swagger-ui');
  });
});

describe('API_DOCS=off (the production overlay)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig({ apiDocs: false }));
  });
  afterAll(() => sut.close());

  it('serves neither Swagger UI nor the OpenAPI documents, and still the API and the probes', async () => {
    for (const path of [
      '/platform-bot-admin/docs',
      '/platform-bot-admin/docs-json',
      '/platform-bot-admin/docs-yaml',
      '/platform-bot-admin/docs/swagger-ui.css',
    ]) {
      const res = await sut.http.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    await sut.http.get('/health/ready').expect(200);
    // The API's routes are there: a read without a token is its 401, not a 404.
    await sut.http.get('/platform-bot-admin/org/0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01/env/1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02/bots-admin').expect(401);
  });
});

describe('Without read replicas', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig());
  });
  afterAll(() => sut.close());

  it("registers only the repositories the app reads: the bot admin holds none of the connectors'", () => {
    const providers = new Set([...sut.app.get(ModulesContainer).values()].flatMap((module) => [...module.providers.keys()]));
    const registered = (type: unknown) => providers.has(type as never);

    expect([BotRepository, ScopeService].map(registered)).toEqual([true, true]);
    expect(
      [RestConnectorRepository, RestConnectorSearchRepository, ConnectorHistoryRepository, IdempotencyService, EnvironmentRepository].map(registered),
    ).toEqual([false, false, false, false, false]);
  });

  it('registers no global interceptor: every request skips Nest\'s interceptor path (docs/performance.md, "Read replicas")', () => {
    const config = (sut.app as unknown as { config: { getGlobalInterceptors(): unknown[]; getGlobalRequestInterceptors(): unknown[] } }).config;

    expect([...config.getGlobalInterceptors(), ...config.getGlobalRequestInterceptors()]).toEqual([]);
  });
});

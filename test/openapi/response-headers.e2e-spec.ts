import { OpenAPIObject } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { Response } from 'supertest';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { proxiedTestDatabase, TcpProxy } from '../support/tcp-proxy';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { committedDocument } from './committed-documents';

/** Headers an OpenAPI document does not describe: HTTP framing, and helmet's and CORS's, the same on every answer. */
const NOT_DOCUMENTED = new Set([
  'content-type', // OpenAPI ignores a declared Content-Type: the media type says it
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

type Headers = Record<string, { $ref?: string; required?: boolean }>;

/** Every header the answer carries is declared for its operation and status; every required one is sent. */
function expectDeclared(document: OpenAPIObject, path: string, method: string, answer: Response): void {
  const response = (document.paths[path] as any)[method].responses[String(answer.status)];
  const declared: Headers = response?.headers ?? {};
  const resolve = (header: { $ref?: string; required?: boolean }) =>
    header.$ref ? (document.components!.headers![header.$ref.split('/').pop()!] as { required?: boolean }) : header;
  const names = Object.keys(declared).map((name) => name.toLowerCase());
  const sent = Object.keys(answer.headers).filter((name) => !NOT_DOCUMENTED.has(name) && !name.startsWith('access-control-'));
  const required = Object.entries(declared)
    .filter(([, header]) => resolve(header).required)
    .map(([name]) => name.toLowerCase());

  expect({ method, path, status: answer.status, documented: response !== undefined, undeclared: sent.filter((name) => !names.includes(name)) }).toEqual({
    method,
    path,
    status: answer.status,
    documented: true,
    undeclared: [],
  });
  expect({ method, path, status: answer.status, missing: required.filter((name) => !(name in answer.headers)) }).toEqual({
    method,
    path,
    status: answer.status,
    missing: [],
  });
}

const C = '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/bot/{botUUID}/rest-connectors';

describe('The headers each kind of answer carries, as the documents declare them', () => {
  const connectors = committedDocument('transactional-service');
  const bots = committedDocument('bot-admin');
  let proxy: TcpProxy;
  let sut: TestApp;
  let limited: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    // The connectors app reaches MariaDB through a proxy, so the last test can cut it for a 503.
    const proxied = await proxiedTestDatabase();
    proxy = proxied.proxy;
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ database: proxied.database }));
    limited = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig({ rateLimitPerMinute: 1 }));
    tenant = await seedTenant(limited.dataSource);
    token = await signToken({ scope: 'connectors:write' });
  });
  afterAll(async () => {
    await sut.close();
    await limited.close();
    await proxy.stop();
  });

  it('declares the headers of every success and every error of the connector operations', async () => {
    const base = tenantPath(tenant);
    const auth = bearer(token);
    const key = `headers-${randomUUID()}`;
    const created = await sut.http
      .post(base)
      .set(auth)
      .set('Idempotency-Key', key)
      .send(aConnectorBody({ name: 'Headers' }));
    const one = `${base}/${created.body.uuid}`;
    const got = await sut.http.get(one).set(auth).set('X-Request-Id', 'caller-chosen-id');
    const answers: Array<[string, string, Response]> = [
      [C, 'post', created],
      [`${C}/{serviceUUID}`, 'get', got],
      [
        `${C}/{serviceUUID}`,
        'put',
        await sut.http
          .put(one)
          .set(auth)
          .send(aConnectorBody({ name: 'Headers again' })),
      ],
      [`${C}/pagination`, 'get', await sut.http.get(`${base}/pagination`).set(auth)],
      [`${C}/quicksearch`, 'get', await sut.http.get(`${base}/quicksearch?searchTerm=head`).set(auth)],
      [`${C}/list`, 'get', await sut.http.get(`${base}/list`).set(auth)],
      [`${C}/pagination`, 'get', await sut.http.get(`${base}/pagination?linesPerPage=101`).set(auth)],
      [C, 'post', await sut.http.post(base).set(auth).set('Content-Type', 'application/json').send('{"name": nope}')],
      [C, 'post', await sut.http.post(base).set(auth).set('Idempotency-Key', 'ä').send(aConnectorBody())],
      [`${C}/{serviceUUID}`, 'get', await sut.http.get(one)],
      [`${C}/{serviceUUID}`, 'get', await sut.http.get(one).set(bearer('not-a-token'))],
      [
        `${C}/list`,
        'get',
        await sut.http.get(`${base}/list`.replace(tenant.organization.uuid, randomUUID())).set(bearer(await signToken({ orgs: [tenant.organization.uuid] }))),
      ],
      [`${C}/{serviceUUID}`, 'get', await sut.http.get(`${base}/${randomUUID()}`).set(auth)],
      [
        C,
        'post',
        await sut.http
          .post(base)
          .set(auth)
          .send(aConnectorBody({ name: 'Headers again' })),
      ],
      [
        `${C}/{serviceUUID}`,
        'put',
        await sut.http
          .put(one)
          .set(auth)
          .set('If-Match', '"v0"')
          .send(aConnectorBody({ name: 'Stale' })),
      ],
      [
        C,
        'post',
        await sut.http
          .post(base)
          .set(auth)
          .send(aConnectorBody({ body: 'x'.repeat(300 * 1024) })),
      ],
      [C, 'post', await sut.http.post(base).set(auth).set('Content-Type', 'text/plain').send('name=x')],
      [
        C,
        'post',
        await sut.http
          .post(base)
          .set(auth)
          .set('Idempotency-Key', key)
          .send(aConnectorBody({ name: 'Another body' })),
      ],
      [`${C}/{serviceUUID}`, 'delete', await sut.http.delete(one).set(auth)],
    ];

    expect(answers.map(([, , answer]) => answer.status)).toEqual([
      201, 200, 200, 200, 200, 200, 400, 400, 400, 401, 401, 403, 404, 409, 412, 413, 415, 422, 204,
    ]);
    expect(got.headers['x-request-id']).toBe('caller-chosen-id');
    for (const [path, method, answer] of answers) expectDeclared(connectors, path, method, answer);
  });

  it('declares the headers of a 429', async () => {
    const B = '/platform-bot-admin/org/{orgUUID}/env/{envUUID}/bots-admin';
    const url = `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin`;
    const auth = bearer(await signToken({ sub: `headers-${randomUUID()}` }));
    const answers = [await limited.http.get(url).set(auth), await limited.http.get(url).set(auth)];

    expect(answers.map((answer) => answer.status)).toEqual([200, 429]);
    for (const answer of answers) expectDeclared(bots, B, 'get', answer);
  });

  it('declares the headers of a 503 (the database cut off)', async () => {
    await proxy.cut();
    const answer = await sut.http.get(`${tenantPath(tenant)}/list`).set(bearer(token));
    await proxy.restore();

    expect(answer.status).toBe(503);
    expectDeclared(connectors, `${C}/list`, 'get', answer);
  });
});

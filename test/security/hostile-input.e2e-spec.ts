import { RestConnector } from '@app/domain';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import {
  aConnectorBody,
  ALICE,
  ConnectorWriteBody,
  createConnector,
  withBasicAuth,
  withBearerAuth,
  withClientCredentials,
  withPasswordGrant,
} from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { startTenantApp } from '../support/tenant-app';

/** Every secret and credential of the auth settings, with a body whose auth type requires it. */
const CREDENTIALS = [
  ['basicToken', withBasicAuth],
  ['bearerToken', withBearerAuth],
  ['clientSecret', withClientCredentials],
  ['authPassword', withPasswordGrant],
  ['clientId', withClientCredentials],
  ['authUsername', withPasswordGrant],
  ['oauthUrl', withClientCredentials],
] as const;

/**
 * Input an attacker or a careless client sends (issue 13, "Input handling"): every one is a 400 (or a 415)
 * that names what is wrong, costs little, and stores nothing.
 */
describe('Hostile input to the write body, the query and the media type (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  const create = (body: unknown) =>
    sut.http
      .post(base)
      .set(bearer(token))
      .send(body as object);
  const storedCount = () => sut.dataSource.getRepository(RestConnector).countBy({ botUuid: tenant.bot.uuid });
  /** The 400's message names `field` (each message is one string of the array). */
  const naming = (field: string) => expect.arrayContaining([expect.stringContaining(field)]);

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig(), ALICE)));
  afterAll(() => sut.close());

  describe('wrong shapes at any depth', () => {
    const wrongShapes: Array<[string, unknown]> = [
      ['tags', [[{ name: 'x' }]]],
      ['tags', [[]]],
      ['tags', [null]],
      ['tags', ['x']],
      ['tags', [{ name: ['x'] }]],
      ['tags', [{ name: { x: 1 } }]],
      ['headers', [[{ header: 'Accept', value: 'a' }], []]],
      ['headers', [[]]],
      ['headers', [{ header: 'Accept', value: ['a'] }]],
      ['headers', [{ header: ['Accept'], value: 'a' }]],
      ['headers', { header: 'Accept', value: 'a' }],
      ['name', ['x']],
      ['name', { x: 'y' }],
      ['url', ['https://api.example.com']],
      ['description', { text: 'x' }],
      ['body', [[]]],
      ['output', { path: '$' }],
      ['requestType', ['GET']],
      ['authType', { type: 'AUTH_NONE' }],
    ];

    it.each(wrongShapes)('a create with %s = %j is a 400 naming the field, and stores nothing', async (field, value) => {
      const before = await storedCount();

      const res = await create(aConnectorBody({ [field]: value })).expect(400);

      expect(res.body.message).toEqual(naming(field));
      await expect(storedCount()).resolves.toBe(before);
    });

    it.each(CREDENTIALS)('a secret or credential %s of the wrong shape is a 400 naming it', async (field, withAuth) => {
      for (const value of [['s3cr3t'], { value: 's3cr3t' }, [[]]]) {
        const res = await create(withAuth({ [field]: value })).expect(400);

        expect(res.body.message).toEqual(naming(field));
      }
    });

    it('an array of 60 headers wrapped in one array is refused as such, not stored as one header past the limit', async () => {
      const headers = [Array.from({ length: 60 }, (_, i) => ({ header: `X-H${i}`, value: 'v' }))];

      const res = await create(aConnectorBody({ headers })).expect(400);

      expect(res.body.message).toEqual(['headers must be an array of objects (got an array)']);
    });

    it('a PUT with a wrong shape leaves the connector as it was', async () => {
      const uuid = await createConnector(sut, tenant, token, { tags: [{ name: 'kept' }] });

      const res = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ tags: [[{ name: 'x' }]] }))
        .expect(400);

      expect(res.body.message).toEqual(naming('tags'));
      const after = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      expect(after.body.tags).toEqual([{ name: 'kept' }]);
    });

    it.each([
      ['page=1&page=2', 'page'],
      ['linesPerPage=5&linesPerPage=6', 'linesPerPage'],
      ['orderBy=name&orderBy=updatedAt', 'orderBy'],
      ['direction=asc&direction=desc', 'direction'],
    ])('a repeated scalar query parameter (%s) is a 400 naming it', async (query, field) => {
      const res = await sut.http.get(`${base}/pagination?${query}`).set(bearer(token)).expect(400);

      expect(res.body.message).toEqual(naming(field));
    });

    it('a repeated quicksearch term is a 400 naming it', async () => {
      const res = await sut.http.get(`${base}/quicksearch?searchTerm=a&searchTerm=b`).set(bearer(token)).expect(400);

      expect(res.body.message).toEqual(naming('searchTerm'));
    });
  });

  describe('CR, LF and NUL', () => {
    it.each([
      ['a header value', { headers: [{ header: 'X-Test', value: 'a\r\nSet-Cookie: x=1' }] }, 'headers.0.value'],
      ['a header value with a bare LF', { headers: [{ header: 'X-Test', value: 'a\nb' }] }, 'headers.0.value'],
      ['a header name', { headers: [{ header: 'X-Test\r\nSet-Cookie', value: 'a' }] }, 'headers.0.header'],
      ['a name', { name: 'Weather\r\nforecast' }, 'name'],
      ['a tag', { tags: [{ name: 'a\nb' }] }, 'tags.0.name'],
      ['a url', { url: 'https://api.example.com/a\u0000b' }, 'url'],
    ])('%s holding them is a 400 naming the field', async (_what, overrides, field) => {
      const before = await storedCount();

      const res = await create(aConnectorBody(overrides as ConnectorWriteBody)).expect(400);

      expect(res.body.message).toEqual(naming(field));
      await expect(storedCount()).resolves.toBe(before);
    });

    it.each(CREDENTIALS)("%s, which goes into the connector's call, refuses CR and LF", async (field, withAuth) => {
      const res = await create(withAuth({ [field]: 'value\r\nX-Injected: 1' })).expect(400);

      expect(res.body.message).toEqual(naming(field));
    });

    it('NUL is refused in any string of the body, multi-line ones included', async () => {
      for (const field of ['description', 'body', 'output']) {
        const res = await create(aConnectorBody({ [field]: 'a\u0000b' })).expect(400);

        expect(res.body.message).toEqual([`${field} must not contain NUL characters`]);
      }
    });

    it('keeps line breaks where they belong: a multi-line body and description', async () => {
      await create(aConnectorBody({ description: 'line one\nline two', body: '{\r\n  "a": 1\r\n}', contentType: 'APPLICATION_JSON' })).expect(201);
    });

    it('refuses CR and LF in search terms', async () => {
      await sut.http.get(`${base}/pagination?searchTerms=a%0D%0Ab`).set(bearer(token)).expect(400);
      await sut.http.get(`${base}/quicksearch?searchTerm=a%0Ab`).set(bearer(token)).expect(400);
    });
  });

  describe('header names', () => {
    it('accepts an HTTP token of 256 characters and refuses 257', async () => {
      await create(aConnectorBody({ headers: [{ header: 'X'.repeat(256), value: 'v' }] })).expect(201);

      const res = await create(aConnectorBody({ headers: [{ header: 'X'.repeat(257), value: 'v' }] })).expect(400);

      expect(res.body.message).toEqual(naming('headers.0.header'));
    });
  });

  describe('lone UTF-16 surrogates', () => {
    it.each([
      ['name', { name: 'x\ud800y' }, 'name'],
      ['a low surrogate in a name', { name: 'x\udc00y' }, 'name'],
      ['description', { description: 'x\ud800' }, 'description'],
      ['body', { body: '\udfff' }, 'body'],
      ['a tag', { tags: [{ name: 'x\ud800' }] }, 'tags.0.name'],
      ['a header value', { headers: [{ header: 'X-A', value: '\ud800' }] }, 'headers.0.value'],
    ])('in %s: a 400 naming the field, nothing stored', async (_what, overrides, field) => {
      const before = await storedCount();

      const res = await create(aConnectorBody(overrides as ConnectorWriteBody)).expect(400);

      expect(res.body.message).toEqual([`${field} must not contain a lone UTF-16 surrogate`]);
      await expect(storedCount()).resolves.toBe(before);
    });

    it('in a field name: a 400', async () => {
      const res = await create({ ...aConnectorBody(), 'x\ud800': 1 }).expect(400);

      expect(res.body.message).toEqual([expect.stringContaining('must not contain a lone UTF-16 surrogate')]);
    });

    it('two different lone surrogates never collide as one stored name', async () => {
      await create(aConnectorBody({ name: 'Twin \ud800' })).expect(400);
      await create(aConnectorBody({ name: 'Twin \udc00' })).expect(400);
    });

    it('a well-formed pair (an emoji) is stored as sent', async () => {
      const uuid = await createConnector(sut, tenant, token, { name: 'Party \ud83c\udf89' });

      const res = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      expect(res.body.name).toBe('Party 🎉');
    });
  });

  describe('a kept secret stays bound to the scheme, host, port and user info of its URL', () => {
    it.each([
      ['https to http', 'https://api.example.com/v1', 'http://api.example.com/v1'],
      ['another port', 'https://api.example.com/v1', 'https://api.example.com:8443/v1'],
      ['user info added', 'https://api.example.com/v1', 'https://user@api.example.com/v1'],
    ])('%s with a placeholder is a 400 asking for the secret again', async (_what, stored, moved) => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: stored }));
      const fetched = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

      const res = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...fetched.body, url: moved })
        .expect(400);

      expect(res.body.message).toEqual([expect.stringContaining('bearerToken must be sent again')]);
      const after = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      expect(after.body.url).toBe(stored);
    });

    it('an OAuth secret does not follow oauthUrl from https to http', async () => {
      const uuid = await createConnector(sut, tenant, token, withClientCredentials());
      const fetched = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

      const res = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...fetched.body, oauthUrl: fetched.body.oauthUrl.replace('https:', 'http:') })
        .expect(400);

      expect(res.body.message).toEqual([expect.stringContaining('clientSecret must be sent again')]);
    });

    it('the same destination in another case keeps the secret', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: 'https://api.example.com/v1' }));
      const fetched = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...fetched.body, url: 'HTTPS://API.example.com/v2' })
        .expect(200);
    });
  });

  describe('media types', () => {
    const json = JSON.stringify(aConnectorBody());

    it.each([
      'application/merge-patch+json',
      'application/vnd.api+json',
      'application/json; charset=utf-16le',
      'application/json; charset=utf-7',
      'application/json; charset=iso-8859-1',
      'text/json',
    ])('%s is a 415', async (contentType) => {
      const before = await storedCount();

      const res = await sut.http.post(base).set(bearer(token)).set('Content-Type', contentType).send(json).expect(415);

      expect(res.body).toMatchObject({ statusCode: 415, message: 'The request body must be application/json in UTF-8' });
      await expect(storedCount()).resolves.toBe(before);
    });

    it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"'])('%s is accepted', async (contentType) => {
      await sut.http.post(base).set(bearer(token)).set('Content-Type', contentType).send(JSON.stringify(aConnectorBody())).expect(201);
    });
  });

  describe('unknown query parameters', () => {
    it.each(['list?x=1', 'list?verbose', '3fa85f64-5717-4562-b3fc-2c963f66afa6?fields=name'])('GET …/%s is a 400 naming the parameter', async (path) => {
      const res = await sut.http.get(`${base}/${path}`).set(bearer(token)).expect(400);

      expect(res.body.message).toEqual([expect.stringMatching(/^(x|verbose|fields) is not a query parameter of this operation \(it takes none\)$/)]);
    });

    it('a PUT or DELETE with an unknown query parameter changes nothing', async () => {
      const uuid = await createConnector(sut, tenant, token);

      await sut.http.delete(`${base}/${uuid}?force=true`).set(bearer(token)).expect(400);
      await sut.http
        .put(`${base}/${uuid}?dryRun=1`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'Changed' }))
        .expect(400);

      const after = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      expect(after.body.name).not.toBe('Changed');
    });

    it('the operations without query parameters still answer without one', async () => {
      await sut.http.get(`${base}/list`).set(bearer(token)).expect(200);
    });
  });

  describe('the cost of a bad body is bounded, and so is its answer', () => {
    it('3,300 invalid headers are refused in one cheap step, with one message', async () => {
      const headers = Array.from({ length: 3_300 }, () => ({ header: 'bad header', value: 'x'.repeat(20) }));

      const res = await create(aConnectorBody({ headers })).expect(400);

      expect(res.body.message).toBe('The request body holds more than 1000 JSON values');
    });

    it('10,000 unknown keys are refused in one cheap step', async () => {
      const body: Record<string, unknown> = aConnectorBody();
      for (let i = 0; i < 10_000; i++) body[`unknown${i}`] = i;

      const res = await create(body).expect(400);

      expect(res.body.message).toBe('The request body holds more than 1000 JSON values');
    });

    it('an array over its limit is one error, without an error for each element', async () => {
      const tags = Array.from({ length: 300 }, () => ({ name: '' }));

      const res = await create(aConnectorBody({ tags })).expect(400);

      expect(res.body.message).toEqual(['tags must contain no more than 20 elements']);
    });

    it('an error names at most 20 fields', async () => {
      const body: Record<string, unknown> = aConnectorBody();
      for (let i = 0; i < 60; i++) body[`unknown${i}`] = i;

      const res = await create(body).expect(400);

      expect(res.body.message).toHaveLength(21);
      expect(res.body.message[20]).toBe('… and 40 more');
    });

    it('an unknown key of 200 KB is quoted cut at 100 characters', async () => {
      const key = 'k'.repeat(200_000);

      const res = await create({ ...aConnectorBody(), [key]: 1 }).expect(400);

      expect(res.body.message).toEqual([`${'k'.repeat(100)}… is not a field of this body`]);
      expect(res.text.length).toBeLessThan(1_000);
    });

    it('an unknown key inside a header is named by its path, cut at 100 characters', async () => {
      const key = 'q'.repeat(500);

      const res = await create(aConnectorBody({ headers: [{ header: 'Accept', value: 'a', [key]: 1 } as never] })).expect(400);

      expect(res.body.message).toEqual([`headers.0.${'q'.repeat(100)}… is not a field of this body`]);
    });

    it('an unknown query parameter of 2,000 characters is quoted cut at 100', async () => {
      const res = await sut.http
        .get(`${base}/list?${'p'.repeat(2_000)}=1`)
        .set(bearer(token))
        .expect(400);

      expect(res.body.message).toEqual([`${'p'.repeat(100)}… is not a query parameter of this operation (it takes none)`]);
    });
  });
});

describe('Unknown query parameters on the environment and bot-admin apps (MariaDB)', () => {
  let environments: TestApp;
  let bots: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    environments = await startTestApp(ENVIRONMENT_APP, mysqlTestConfig());
    bots = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig());
    tenant = await seedTenant(environments.dataSource);
    token = await signToken(ALICE);
  });
  afterAll(async () => {
    await environments.close();
    await bots.close();
  });

  it('is a 400 naming the parameter on every operation', async () => {
    const org = `/platform-environment/org/${tenant.organization.uuid}/environments`;
    const env = `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin`;
    const answers = [
      await environments.http.get(`${org}?removed=false`).set(bearer(token)),
      await environments.http.get(`${org}/${tenant.environment.uuid}?removed=false`).set(bearer(token)),
      await bots.http.get(`${env}?removed=false`).set(bearer(token)),
      await bots.http.get(`${env}/${tenant.bot.uuid}?removed=false`).set(bearer(token)),
    ];

    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(['removed is not a query parameter of this operation (it takes none)']);
    }
    await environments.http.get(org).set(bearer(token)).expect(200);
    await bots.http.get(env).set(bearer(token)).expect(200);
  });
});

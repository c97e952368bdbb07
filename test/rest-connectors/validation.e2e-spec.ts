import { RestConnector } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { bearer } from '../support/tokens';
import {
  aConnectorBody,
  ALICE,
  basicTokenOf,
  ConnectorWriteBody,
  createConnector,
  errorBody,
  withBasicAuth,
  withBearerAuth,
  withClientCredentials,
  withPasswordGrant,
} from './connector-factories';
import { startTenantApp } from '../support/tenant-app';

const KIB_64 = 65536;
const naming = (...fields: string[]) => expect.arrayContaining(fields.map((field) => expect.stringContaining(field)));

describe('Rest connectors: validation of the write body (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  const create = (body: ConnectorWriteBody) => sut.http.post(base).set(bearer(token)).send(body);
  const activeCount = () => sut.dataSource.getRepository(RestConnector).countBy({ botUuid: tenant.bot.uuid });

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig(), ALICE)));
  afterAll(() => sut.close());

  describe('required fields', () => {
    it('lists every missing required field at once, in the contract error body', async () => {
      const res = await create({}).expect(400);

      expect(res.body).toEqual(errorBody(400, 'Bad Request', naming('name', 'requestType', 'url', 'contentType', 'authType', 'body', 'output'), base));
      expect(Array.isArray(res.body.message)).toBe(true);
    });

    it.each(['name', 'requestType', 'url', 'contentType', 'authType', 'body', 'output'])('is 400 naming %s when it is missing', async (field) => {
      const res = await create(aConnectorBody({ [field]: undefined })).expect(400);

      expect(res.body.message).toEqual(naming(field));
    });

    it('lists several failing fields of different kinds together', async () => {
      const res = await create(aConnectorBody({ name: '', requestType: 'FETCH', url: 'ftp://x', tags: 'not-an-array' })).expect(400);

      expect(res.body.message).toEqual(naming('name', 'requestType', 'url', 'tags'));
    });

    it('accepts empty body and output', async () => {
      await create(aConnectorBody({ body: '', output: '' })).expect(201);
    });

    it.each([
      ['name', 42],
      ['body', { a: 1 }],
      ['output', ['$']],
      ['headers', 'Accept: */*'],
      ['tags', [{ title: 'x' }]],
    ])('is 400 naming %s when it has the wrong type', async (field, value) => {
      const res = await create(aConnectorBody({ [field]: value })).expect(400);

      expect(res.body.message).toEqual(naming(field));
    });
  });

  describe('name', () => {
    it.each([
      ['empty', ''],
      ['blank', '    '],
      ['101 characters', 'n'.repeat(101)],
    ])('rejects a name that is %s', async (_, name) => {
      const res = await create(aConnectorBody({ name })).expect(400);

      expect(res.body.message).toEqual(naming('name'));
    });

    it('accepts 100 characters after trimming', async () => {
      const name = `  ${'m'.repeat(100)}  `;

      const res = await create(aConnectorBody({ name })).expect(201);

      await expect(sut.dataSource.getRepository(RestConnector).findOneBy({ uuid: res.body.uuid })).resolves.toMatchObject({
        name: 'm'.repeat(100),
      });
    });
  });

  describe('enums', () => {
    it.each([
      ['requestType', 'FETCH', 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
      ['contentType', 'application/json', 'NONE, APPLICATION_JSON, APPLICATION_XML, APPLICATION_FORM_URLENCODED, MULTIPART_FORM_DATA, TEXT_PLAIN'],
      ['authType', 'AUTH_DIGEST', 'AUTH_NONE, AUTH_BASIC, AUTH_BEARER, AUTH_OAUTH2, AUTH_API_KEY'],
    ])('rejects an unknown %s, listing the allowed values and quoting the one sent', async (field, value, allowed) => {
      const res = await create(aConnectorBody({ [field]: value })).expect(400);

      expect(res.body.message).toContain(`${field} must be one of ${allowed}; got ${JSON.stringify(value)}`);
    });

    it('rejects an unknown grantType, listing the allowed values', async () => {
      const res = await create(withClientCredentials({ grantType: 'IMPLICIT' })).expect(400);

      expect(res.body.message).toContain('grantType must be one of CLIENT_CREDENTIALS, PASSWORD; got "IMPLICIT"');
    });

    it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])('accepts requestType %s', async (requestType) => {
      await create(aConnectorBody({ requestType })).expect(201);
    });

    it.each(['NONE', 'APPLICATION_JSON', 'APPLICATION_XML', 'APPLICATION_FORM_URLENCODED', 'MULTIPART_FORM_DATA', 'TEXT_PLAIN'])(
      'accepts contentType %s',
      async (contentType) => {
        await create(aConnectorBody({ contentType })).expect(201);
      },
    );

    it("rejects a body enum value in the wrong case (the API's case rule: body enums are exact)", async () => {
      const res = await create(aConnectorBody({ requestType: 'get' })).expect(400);

      expect(res.body.message).toEqual(['requestType must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS; got "get"']);
    });
  });

  describe('url', () => {
    it.each([
      'https://{{host}}/api/{{version}}/items?id={{id}}',
      'http://api.example.com',
      'https://api.example.com:8443/path/{{a}}/{{b}}#frag',
      'https://{{host}}',
    ])('accepts %s', async (url) => {
      const res = await create(aConnectorBody({ url })).expect(201);

      await expect(sut.dataSource.getRepository(RestConnector).findOneBy({ uuid: res.body.uuid })).resolves.toMatchObject({ url });
    });

    it.each([
      ['HTTPS://API.EXAMPLE.COM/x', 'https://API.EXAMPLE.COM/x'],
      ['HTTP:/api.example.com/x', 'http://api.example.com/x'],
      ['https:api.example.com', 'https://api.example.com'],
      ['https:\\\\api.example.com\\{{Path}}', 'https://api.example.com\\{{Path}}'],
      ['https:///{{host}}/x?q={{Q}}', 'https://{{host}}/x?q={{Q}}'],
    ])('stores %j, which the parser reads as if it had them, with a lower-case scheme and exactly two slashes: %j', async (url, canonical) => {
      const res = await create(
        withClientCredentials({ url: url.replace('{{host}}', 'api.example.com'), oauthUrl: url.replace('{{host}}', 'id.example.com') }),
      ).expect(201);
      const anyAuth = await create(aConnectorBody({ url })).expect(201);

      const read = await sut.http.get(`${base}/${res.body.uuid}`).set(bearer(token)).expect(200);
      expect(read.body).toMatchObject({ url: canonical.replace('{{host}}', 'api.example.com'), oauthUrl: canonical.replace('{{host}}', 'id.example.com') });
      await expect(sut.dataSource.getRepository(RestConnector).findOneBy({ uuid: anyAuth.body.uuid })).resolves.toMatchObject({ url: canonical });
    });

    it.each(['ftp://x', '/relative', 'not a url', '', 'javascript:alert(1)', 'https://'])('rejects %j', async (url) => {
      const res = await create(aConnectorBody({ url })).expect(400);

      expect(res.body.message).toEqual(naming('url'));
    });

    it('accepts 2048 characters and rejects 2049', async () => {
      const prefix = 'https://api.example.com/';
      const url = (length: number) => prefix + 'p'.repeat(length - prefix.length);

      await create(aConnectorBody({ url: url(2048) })).expect(201);
      const res = await create(aConnectorBody({ url: url(2049) })).expect(400);

      expect(res.body.message).toEqual(naming('url'));
    });
  });

  describe('description', () => {
    it('accepts 1000 characters and rejects 1001', async () => {
      await create(aConnectorBody({ description: 'd'.repeat(1000) })).expect(201);
      const res = await create(aConnectorBody({ description: 'd'.repeat(1001) })).expect(400);

      expect(res.body.message).toEqual(naming('description'));
    });
  });

  describe('headers', () => {
    const header = (i: number) => ({ header: `X-Header-${i}`, value: `v${i}` });

    it('accepts 50 headers and rejects 51', async () => {
      await create(aConnectorBody({ headers: Array.from({ length: 50 }, (_, i) => header(i)) })).expect(201);
      const res = await create(aConnectorBody({ headers: Array.from({ length: 51 }, (_, i) => header(i)) })).expect(400);

      expect(res.body.message).toEqual(naming('headers'));
    });

    it.each(['X-Api-Key', 'Accept', "x-custom_header.v1!#$%&'*+^`|~"])('accepts the HTTP token %j as a header name', async (name) => {
      await create(aConnectorBody({ headers: [{ header: name, value: 'v' }] })).expect(201);
    });

    it.each(['Bad Header', 'a:b', '', 'X-Ünïcode', 'X-Api-Key\r\nInjected: 1'])('rejects %j as a header name', async (name) => {
      const res = await create(aConnectorBody({ headers: [{ header: name, value: 'v' }] })).expect(400);

      expect(res.body.message).toEqual(naming('header'));
    });

    it('rejects a header without value', async () => {
      const res = await create(aConnectorBody({ headers: [{ header: 'Accept' }] })).expect(400);

      expect(res.body.message).toEqual(naming('value'));
    });

    it('rejects an unknown field inside a header', async () => {
      const res = await create(aConnectorBody({ headers: [{ header: 'Accept', value: 'v', secret: 'x' }] })).expect(400);

      expect(res.body.message).toEqual(naming('secret'));
    });

    it('accepts a value of 8192 bytes and rejects 8193 bytes, counting UTF-8 bytes', async () => {
      await create(aConnectorBody({ headers: [{ header: 'X-Long', value: 'v'.repeat(8192) }] })).expect(201);
      const ascii = await create(aConnectorBody({ headers: [{ header: 'X-Long', value: 'v'.repeat(8193) }] })).expect(400);
      // 4097 characters, 8194 bytes.
      const multiByte = await create(aConnectorBody({ headers: [{ header: 'X-Long', value: 'é'.repeat(4097) }] })).expect(400);

      expect(ascii.body.message).toEqual(naming('value'));
      expect(multiByte.body.message).toEqual(naming('value'));
    });

    it('accepts a header name of 256 characters and rejects 257, as the document says', async () => {
      await create(aConnectorBody({ headers: [{ header: 'X'.repeat(256), value: 'v' }] })).expect(201);
      const res = await create(aConnectorBody({ headers: [{ header: 'X'.repeat(257), value: 'v' }] })).expect(400);

      expect(res.body.message).toEqual(naming('header'));
    });
  });

  describe('tags', () => {
    it('accepts 20 tags and rejects 21', async () => {
      const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `tag-${i}` }));

      await create(aConnectorBody({ tags: tags(20) })).expect(201);
      const res = await create(aConnectorBody({ tags: tags(21) })).expect(400);

      expect(res.body.message).toEqual(naming('tags'));
    });

    it.each([
      ['empty', ''],
      ['51 characters', 't'.repeat(51)],
    ])('rejects a tag name that is %s', async (_, name) => {
      const res = await create(aConnectorBody({ tags: [{ name }] })).expect(400);

      expect(res.body.message).toEqual(naming('name'));
    });

    it('accepts a tag name of 50 characters', async () => {
      await create(aConnectorBody({ tags: [{ name: 't'.repeat(50) }] })).expect(201);
    });
  });

  describe('body and output', () => {
    it.each(['body', 'output'])('accepts a %s of 64 KiB and rejects one byte more', async (field) => {
      await create(aConnectorBody({ [field]: 'a'.repeat(KIB_64) })).expect(201);
      const res = await create(aConnectorBody({ [field]: 'a'.repeat(KIB_64 + 1) })).expect(400);

      expect(res.body.message).toEqual(naming(field));
    });

    it.each(['body', 'output'])('counts the %s in UTF-8 bytes, not characters', async (field) => {
      // 32769 characters, 65538 bytes.
      const res = await create(aConnectorBody({ [field]: 'é'.repeat(KIB_64 / 2 + 1) })).expect(400);

      expect(res.body.message).toEqual(naming(field));
    });

    it('stores a 64 KiB body and output in full', async () => {
      const big = '☃'.repeat(KIB_64 / 3 - 1) + 'ab';
      const res = await create(aConnectorBody({ body: big, output: big })).expect(201);

      const read = await sut.http.get(`${base}/${res.body.uuid}`).set(bearer(token)).expect(200);

      expect(read.body.body).toBe(big);
      expect(read.body.output).toBe(big);
    });
  });

  describe('authentication settings by auth type', () => {
    it('AUTH_BASIC requires basicToken', async () => {
      const res = await create(withBasicAuth({ basicToken: undefined })).expect(400);

      expect(res.body.message).toEqual(naming('basicToken'));
    });

    it.each([
      ['text that is not Base64', 'user:password'],
      ['the URL-safe alphabet', basicTokenOf('u?>', 'p').replace('+', '-')],
      ['Base64 without its padding', basicTokenOf('user', 'password').replace(/=+$/, '')],
      ['the Base64 of text without a colon', Buffer.from('userpassword').toString('base64')],
      ['the Base64 of bytes that are not UTF-8', Buffer.from([0x75, 0x3a, 0xff]).toString('base64')],
      ['the Base64 of text with a control character', basicTokenOf('user', 'pass\u0001')],
    ])('AUTH_BASIC refuses a basicToken that is %s, saying what it must be', async (_what, basicToken) => {
      const res = await create(withBasicAuth({ basicToken })).expect(400);

      expect(res.body).toEqual(
        errorBody(400, 'Bad Request', ['basicToken must be the Base64 of user-id:password (RFC 7617), such as dXNlcjpwYXNzd29yZA== for user:password'], base),
      );
    });

    it('AUTH_BASIC accepts the Base64 of user-id:password, UTF-8 and colons in the password included, and its placeholder on a PUT', async () => {
      const uuid = await createConnector(sut, tenant, token, withBasicAuth({ basicToken: basicTokenOf('jürgen', 'pa:ss') }));
      await createConnector(sut, tenant, token, withBasicAuth({ basicToken: basicTokenOf('user', '') }));

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withBasicAuth({ basicToken: '<BASIC_TOKEN>' }))
        .expect(200);
    });

    it('does not check a basicToken the auth type discards', async () => {
      await create(withBearerAuth({ basicToken: 'not base64, and unused' })).expect(201);
    });

    it('AUTH_BEARER requires bearerToken', async () => {
      const res = await create(withBearerAuth({ bearerToken: undefined })).expect(400);

      expect(res.body.message).toEqual(naming('bearerToken'));
    });

    it('AUTH_OAUTH2 requires oauthUrl, grantType and clientId, each named', async () => {
      const res = await create(aConnectorBody({ authType: 'AUTH_OAUTH2' })).expect(400);

      expect(res.body.message).toEqual(naming('oauthUrl', 'grantType', 'clientId'));
    });

    it('AUTH_OAUTH2 with CLIENT_CREDENTIALS requires clientSecret', async () => {
      const res = await create(withClientCredentials({ clientSecret: undefined })).expect(400);

      expect(res.body.message).toEqual(naming('clientSecret'));
    });

    it('AUTH_OAUTH2 with PASSWORD requires authUsername and authPassword, each named', async () => {
      const res = await create(withPasswordGrant({ authUsername: undefined, authPassword: undefined })).expect(400);

      expect(res.body.message).toEqual(naming('authUsername', 'authPassword'));
    });

    it('AUTH_OAUTH2 with PASSWORD does not need clientSecret', async () => {
      await create(withPasswordGrant({ clientSecret: undefined })).expect(201);
    });

    it.each(['ftp://auth.example.com/token', 'auth.example.com/token', '/oauth/token'])('rejects oauthUrl %j', async (oauthUrl) => {
      const res = await create(withClientCredentials({ oauthUrl })).expect(400);

      expect(res.body.message).toEqual(naming('oauthUrl'));
    });
  });

  describe('unknown and read-only fields', () => {
    it('rejects an unknown field by name, suggesting the field it is close to or that other clients call so', async () => {
      const res = await create(aConnectorBody({ colour: 'blue', method: 'GET', nmae: 'x', OUTPUT: '$' })).expect(400);

      expect(res.body.message).toEqual([
        'colour is not a field of this body',
        'method is not a field of this body; did you mean requestType?',
        'nmae is not a field of this body; did you mean name?',
        'OUTPUT is not a field of this body; did you mean output?',
      ]);
    });

    it('says in one plain message per field what an empty create lacks', async () => {
      const res = await create({}).expect(400);

      expect(res.body.message).toEqual(['name', 'requestType', 'url', 'contentType', 'authType', 'body', 'output'].map((field) => `${field} is required`));
    });

    it('says that headers are an array of {header, value, secret?}, once, for headers sent as an object', async () => {
      const res = await create(aConnectorBody({ headers: { Accept: 'application/json' } as never })).expect(400);

      expect(res.body.message).toEqual(['headers must be an array of {header, value, secret?} (got an object)']);
    });

    it('never quotes a secret back', async () => {
      const res = await create(withBasicAuth({ basicToken: 12345 as never })).expect(400);

      expect(JSON.stringify(res.body)).not.toContain('12345');
    });

    it('ignores the read-only fields on create', async () => {
      const res = await create(
        aConnectorBody({
          flows: [{ uuid: '66666666-7777-4888-9999-000000000000', name: 'Forged' }],
          updatedAt: '2001-01-01T00:00:00.000Z',
          updatedBy: 'mallory',
          user: { username: 'mallory', image: null },
        }),
      ).expect(201);

      const read = await sut.http.get(`${base}/${res.body.uuid}`).set(bearer(token)).expect(200);
      expect(read.body).toMatchObject({ flows: [], updatedBy: 'alice' });
      expect(read.body.updatedAt).not.toBe('2001-01-01T00:00:00.000Z');
    });
  });

  describe('a rejected write writes nothing', () => {
    it('stores nothing for a rejected create', async () => {
      const before = await activeCount();
      const name = `Never stored ${Date.now()}`;

      await create(aConnectorBody({ name, requestType: 'FETCH' })).expect(400);
      await create(aConnectorBody({ name, colour: 'blue' })).expect(400);
      await create(withBasicAuth({ name, basicToken: undefined })).expect(400);

      await expect(activeCount()).resolves.toBe(before);
      const list = await sut.http.get(`${base}/list`).set(bearer(token)).expect(200);
      expect(list.body.data.map((item: { name: string }) => item.name)).not.toContain(name);
    });

    it('lists every failing field of a PUT too, and leaves the connector unchanged', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const before = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

      const res = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send({ colour: 'red' }).expect(400);

      expect(res.body).toEqual(
        errorBody(
          400,
          'Bad Request',
          expect.arrayContaining([
            'colour is not a field of this body',
            ...['name', 'requestType', 'url', 'contentType', 'authType', 'body', 'output'].map((f) => expect.stringContaining(f)),
          ]),
          `${base}/${uuid}`,
        ),
      );
      const after = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
      expect(after.body).toEqual(before.body);
      expect(after.headers.etag).toBe(before.headers.etag);
    });

    it.each([
      ['an invalid url', { url: 'ftp://x' }, 'url'],
      ['a missing bearerToken', { authType: 'AUTH_BEARER' }, 'bearerToken'],
      ['too many tags', { tags: Array.from({ length: 21 }, (_, i) => ({ name: `t${i}` })) }, 'tags'],
    ])('rejects a PUT with %s', async (_, change, field) => {
      const uuid = await createConnector(sut, tenant, token);
      const before = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

      const res = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(aConnectorBody(change)).expect(400);

      expect(res.body.message).toEqual(naming(field));
      await expect(
        sut.http
          .get(`${base}/${uuid}`)
          .set(bearer(token))
          .then((r) => r.body),
      ).resolves.toEqual(before.body);
    });
  });

  it('is 413 for a body over 256 KiB', async () => {
    await create(aConnectorBody({ body: 'a'.repeat(256 * 1024 + 1) })).expect(413);
  });
});

import { RestConnector } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aFlow, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import {
  aConnectorBody,
  ALICE,
  basicTokenOf,
  connectorInTrash,
  connectorNotFound,
  createConnector,
  errorBody,
  ISO_UTC_MILLIS,
  RECORD_KEYS,
  UUID_REGEX,
  withBasicAuth,
  withBearerAuth,
  withClientCredentials,
  withPasswordGrant,
  readStoredSecrets,
} from './connector-factories';
import { startTenantApp } from '../support/tenant-app';

describe('Rest connectors: create, get, update, delete (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  const storedRow = (uuid: string) => sut.dataSource.getRepository(RestConnector).findOneBy({ uuid });
  const get = (uuid: string) => sut.http.get(`${base}/${uuid}`).set(bearer(token));
  const storedSecrets = (uuid: string) => readStoredSecrets(sut, uuid);

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig(), ALICE)));
  afterAll(() => sut.close());

  describe('POST (create)', () => {
    it('answers 201 { uuid } with a Location header pointing at the new connector', async () => {
      const res = await sut.http.post(base).set(bearer(token)).send(aConnectorBody()).expect(201);

      expect(res.body).toEqual({ uuid: expect.stringMatching(UUID_REGEX) });
      expect(res.headers.location).toBe(
        `/platform-transactional-service/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bot/${tenant.bot.uuid}/rest-connectors/${res.body.uuid}`,
      );
    });

    it('stores the connector in the bot, recording who wrote it', async () => {
      const body = aConnectorBody();

      const res = await sut.http.post(base).set(bearer(token)).send(body).expect(201);

      await expect(storedRow(res.body.uuid)).resolves.toMatchObject({
        botUuid: tenant.bot.uuid,
        name: body.name,
        url: body.url,
        updatedBy: 'alice',
        updatedByImage: 'https://img.example.com/alice.png',
        deletedAt: null,
      });
    });

    it('assigns a new uuid to every create, even when the body names one', async () => {
      const sent = '0f0e0d0c-0b0a-4908-8706-050403020100';

      const first = await sut.http
        .post(base)
        .set(bearer(token))
        .send(aConnectorBody({ uuid: sent }))
        .expect(201);
      const second = await sut.http.post(base).set(bearer(token)).send(aConnectorBody()).expect(201);

      expect(first.body.uuid).not.toBe(sent);
      expect(first.body.uuid).not.toBe(second.body.uuid);
    });

    it('assigns time-ordered version-7 uuids: a later create sorts after an earlier one (inserts land at the end of the primary key)', async () => {
      const first = await sut.http.post(base).set(bearer(token)).send(aConnectorBody()).expect(201);
      const second = await sut.http.post(base).set(bearer(token)).send(aConnectorBody()).expect(201);

      expect(first.body.uuid[14]).toBe('7');
      expect(second.body.uuid[14]).toBe('7');
      expect(first.body.uuid < second.body.uuid).toBe(true);
    });
  });

  describe('GET /{serviceUUID}', () => {
    it('returns the full record with exactly the contract keys in order, absent optional fields null', async () => {
      const body = aConnectorBody();
      const uuid = await createConnector(sut, tenant, token, body);

      const res = await get(uuid).expect(200);

      expect(Object.keys(res.body)).toEqual(RECORD_KEYS);
      expect(res.body).toEqual({
        uuid,
        name: body.name,
        description: null,
        requestType: 'GET',
        url: 'https://api.example.com/items/{{id}}',
        headers: [{ header: 'Accept', value: 'application/json' }],
        contentType: 'NONE',
        authType: 'AUTH_NONE',
        grantType: null,
        basicToken: null,
        bearerToken: null,
        clientId: null,
        clientSecret: null,
        oauthUrl: null,
        authUsername: null,
        authPassword: null,
        apiKeyName: null,
        apiKeyIn: null,
        apiKey: null,
        body: '',
        output: '$.data',
        tags: [{ name: 'alpha' }],
        flows: [],
        updatedAt: expect.stringMatching(ISO_UTC_MILLIS),
        updatedBy: 'alice',
      });
    });

    it('returns every written field as written', async () => {
      const body = aConnectorBody({
        description: 'Looks up an order',
        requestType: 'POST',
        url: 'https://{{host}}/api/{{version}}/orders?id={{id}}',
        headers: [
          { header: 'X-Api-Key', value: 'k-1' },
          { header: 'Accept', value: 'application/xml' },
        ],
        contentType: 'APPLICATION_JSON',
        body: '{"id": "{{id}}", "note": "é ☃"}',
        output: '$.order.status',
        tags: [{ name: 'orders' }, { name: 'crm' }],
      });
      const uuid = await createConnector(sut, tenant, token, body);

      const res = await get(uuid).expect(200);

      expect(res.body).toMatchObject({
        description: body.description,
        requestType: body.requestType,
        url: body.url,
        headers: body.headers,
        contentType: body.contentType,
        body: body.body,
        output: body.output,
        tags: body.tags,
      });
    });

    it('answers with an ETag header', async () => {
      const uuid = await createConnector(sut, tenant, token);

      const res = await get(uuid).expect(200);

      expect(res.headers.etag).toEqual(expect.any(String));
      expect(res.headers.etag).not.toBe('');
    });

    it('stores the name trimmed', async () => {
      const uuid = await createConnector(sut, tenant, token, { name: '   Padded name  ' });

      const res = await get(uuid).expect(200);

      expect(res.body.name).toBe('Padded name');
    });

    it('defaults headers and tags to []', async () => {
      const uuid = await createConnector(sut, tenant, token, { headers: undefined, tags: undefined });

      const res = await get(uuid).expect(200);

      expect(res.body.headers).toEqual([]);
      expect(res.body.tags).toEqual([]);
    });

    it('keeps tags in the order written, de-duplicated case-insensitively with the first spelling kept', async () => {
      const uuid = await createConnector(sut, tenant, token, {
        tags: [{ name: 'Beta' }, { name: 'alpha' }, { name: 'BETA' }, { name: 'Alpha' }, { name: 'gamma' }],
      });

      const res = await get(uuid).expect(200);

      expect(res.body.tags).toEqual([{ name: 'Beta' }, { name: 'alpha' }, { name: 'gamma' }]);
    });

    it('lists the flows of the same bot that use the connector, ordered by name', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const other = await seedTenant(sut.dataSource);
      const checkout = aFlow(tenant.bot.uuid, { name: 'Checkout', connectors: [uuid] });
      const billing = aFlow(tenant.bot.uuid, { name: 'billing', connectors: [uuid] });
      await importData(sut.dataSource, {
        flows: [checkout, billing, aFlow(tenant.bot.uuid, { name: 'Unrelated' }), aFlow(other.bot.uuid, { name: 'Another bot', connectors: [uuid] })],
      });

      const res = await get(uuid).expect(200);

      expect(res.body.flows).toEqual([
        { uuid: billing.uuid, name: 'billing' },
        { uuid: checkout.uuid, name: 'Checkout' },
      ]);
    });

    it('accepts the serviceUUID in upper case', async () => {
      const uuid = await createConnector(sut, tenant, token);

      const res = await get(uuid.toUpperCase()).expect(200);

      expect(res.body.uuid).toBe(uuid);
    });

    it('is 404 with the error body for a connector that never existed', async () => {
      const unknown = '9a7c1f0e-2b3d-4e5f-8a9b-0c1d2e3f4a5b';

      const res = await get(unknown).expect(404);

      expect(res.body).toEqual(errorBody(404, 'Not Found', connectorNotFound(unknown, tenant.bot.uuid), `${base}/${unknown}`));
      expect(res.body.requestId).toBe(res.headers['x-request-id']);
    });
  });

  describe('updatedBy', () => {
    it.each([
      ['username', { username: 'u-name', preferred_username: 'p-name', sub: 'sub-1' }, 'u-name'],
      ['preferred_username when there is no username', { preferred_username: 'p-name', sub: 'sub-2' }, 'p-name'],
      ['sub when there is neither', { sub: 'sub-3' }, 'sub-3'],
    ])('records the token %s', async (_, claims, expected) => {
      const writer = await signToken({ scope: 'connectors:write', ...claims });
      const uuid = await createConnector(sut, tenant, writer);

      const res = await get(uuid).expect(200);

      expect(res.body.updatedBy).toBe(expected);
    });

    it('records the last writer on update', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const bob = await signToken({ scope: 'connectors:write', username: 'bob' });

      await sut.http.put(`${base}/${uuid}`).set(bearer(bob)).send(aConnectorBody()).expect(200);

      const res = await get(uuid).expect(200);
      expect(res.body.updatedBy).toBe('bob');
      await expect(storedRow(uuid)).resolves.toMatchObject({ updatedBy: 'bob', updatedByImage: null });
    });
  });

  describe('secrets', () => {
    it.each([
      ['AUTH_BASIC', withBasicAuth(), { basicToken: '<BASIC_TOKEN>' }],
      ['AUTH_BEARER', withBearerAuth(), { bearerToken: '<BEARER_TOKEN>' }],
      [
        'AUTH_OAUTH2 with CLIENT_CREDENTIALS',
        withClientCredentials(),
        {
          grantType: 'CLIENT_CREDENTIALS',
          oauthUrl: 'https://auth.example.com/oauth/token',
          clientId: 'client-42',
          clientSecret: '<CLIENT_SECRET>',
        },
      ],
      [
        'AUTH_OAUTH2 with PASSWORD',
        withPasswordGrant(),
        {
          grantType: 'PASSWORD',
          oauthUrl: 'https://auth.example.com/oauth/token',
          clientId: 'client-42',
          authUsername: 'svc-user',
          authPassword: '<PASSWORD>',
        },
      ],
    ])('shows a set secret of %s only as its placeholder', async (_, body, shown) => {
      const uuid = await createConnector(sut, tenant, token, body);

      const res = await get(uuid).expect(200);

      expect(res.body).toEqual(
        expect.objectContaining({
          grantType: null,
          basicToken: null,
          bearerToken: null,
          clientId: null,
          clientSecret: null,
          oauthUrl: null,
          authUsername: null,
          authPassword: null,
          apiKeyName: null,
          apiKeyIn: null,
          apiKey: null,
          ...shown,
        }),
      );
    });

    it('discards the secrets the auth type does not use', async () => {
      const uuid = await createConnector(
        sut,
        tenant,
        token,
        withBasicAuth({ bearerToken: 'unused-bearer', clientSecret: 'unused-client-secret', authPassword: 'unused-password' }),
      );

      const res = await get(uuid).expect(200);
      const row = await storedSecrets(uuid);

      expect(res.body).toMatchObject({ basicToken: '<BASIC_TOKEN>', bearerToken: null, clientSecret: null, authPassword: null });
      expect(row).toMatchObject({ bearerToken: null, clientSecret: null, authPassword: null });
    });

    it('discards every secret of a connector without authentication', async () => {
      const uuid = await createConnector(sut, tenant, token, {
        authType: 'AUTH_NONE',
        basicToken: 'unused-basic',
        bearerToken: 'unused-bearer',
      });

      const res = await get(uuid).expect(200);

      expect(res.body).toMatchObject({ basicToken: null, bearerToken: null, clientSecret: null, authPassword: null });
      await expect(storedSecrets(uuid)).resolves.toEqual({ basicToken: null, bearerToken: null, clientSecret: null, authPassword: null });
    });

    it('never shows a secret in pages or lists', async () => {
      await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: 'never-shown-bearer' }));

      const page = await sut.http.get(`${base}/pagination?linesPerPage=100`).set(bearer(token)).expect(200);
      const list = await sut.http.get(`${base}/list`).set(bearer(token)).expect(200);

      expect(JSON.stringify(page.body)).not.toContain('never-shown-bearer');
      expect(JSON.stringify(list.body)).not.toContain('never-shown-bearer');
    });

    it('keeps the stored secret when a PUT sends its placeholder, and replaces it when a PUT sends a new value', async () => {
      const uuid = await createConnector(sut, tenant, token, withBasicAuth({ basicToken: basicTokenOf('first', 'secret') }));
      const original = (await storedSecrets(uuid)).basicToken;
      const fetched = await get(uuid).expect(200);

      await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(fetched.body).expect(200);
      const kept = await get(uuid).expect(200);
      const afterPlaceholder = (await storedSecrets(uuid)).basicToken;

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...fetched.body, basicToken: basicTokenOf('second', 'secret') })
        .expect(200);
      const replaced = (await storedSecrets(uuid)).basicToken;
      await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(fetched.body).expect(200);
      const keptAgain = await get(uuid).expect(200);

      expect(kept.body.basicToken).toBe('<BASIC_TOKEN>');
      expect(afterPlaceholder).toEqual(expect.any(String));
      expect(afterPlaceholder).not.toContain('<BASIC_TOKEN>');
      expect(replaced).not.toBe(original);
      expect(keptAgain.body.basicToken).toBe('<BASIC_TOKEN>');
      await expect(storedSecrets(uuid)).resolves.toMatchObject({ basicToken: expect.not.stringContaining('<BASIC_TOKEN>') });
    });

    it('is 400 when a PUT moves a kept secret to another host of url, and keeps the connector unchanged', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: 'https://api.example.com/v1' }));
      const fetched = await get(uuid).expect(200);

      const res = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...fetched.body, url: 'https://attacker.example.net/v1' })
        .expect(400);

      expect(JSON.stringify(res.body.message)).toContain('bearerToken');
      await expect(get(uuid).then((r) => r.body.url)).resolves.toBe('https://api.example.com/v1');
    });

    it('is 400 when a PUT moves a kept OAuth secret to another host of oauthUrl', async () => {
      const uuid = await createConnector(sut, tenant, token, withClientCredentials());
      const fetched = await get(uuid).expect(200);

      const res = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...fetched.body, oauthUrl: 'https://attacker.example.net/oauth/token' })
        .expect(400);

      expect(JSON.stringify(res.body.message)).toContain('clientSecret');
    });

    it('accepts a host change of url when the PUT sends the secret again', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: 'https://api.example.com/v1' }));
      const fetched = await get(uuid).expect(200);

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...fetched.body, url: 'https://new-api.example.org/v1', bearerToken: 'a-fresh-token' })
        .expect(200);

      const res = await get(uuid).expect(200);
      expect(res.body).toMatchObject({ url: 'https://new-api.example.org/v1', bearerToken: '<BEARER_TOKEN>' });
    });
  });

  describe('PUT /{serviceUUID} (update)', () => {
    it('answers 200 { message, data: uuid } and replaces every field', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const update = aConnectorBody({
        name: 'Renamed connector',
        description: 'Now with a description',
        requestType: 'PATCH',
        url: 'https://api.example.com/v2/items',
        headers: [],
        contentType: 'TEXT_PLAIN',
        body: 'plain',
        output: '$',
        tags: [{ name: 'new-tag' }],
      });

      const res = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(update).expect(200);

      expect(res.body).toEqual({ message: 'Rest connector updated', data: uuid });
      const read = await get(uuid).expect(200);
      expect(read.body).toMatchObject({
        name: 'Renamed connector',
        description: 'Now with a description',
        requestType: 'PATCH',
        url: 'https://api.example.com/v2/items',
        headers: [],
        contentType: 'TEXT_PLAIN',
        body: 'plain',
        output: '$',
        tags: [{ name: 'new-tag' }],
      });
      await expect(storedRow(uuid)).resolves.toMatchObject({ name: 'Renamed connector', requestType: 'PATCH' });
    });

    it('is a full write: an optional field left out is cleared', async () => {
      const uuid = await createConnector(sut, tenant, token, { description: 'to be cleared' });

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ description: undefined, headers: undefined, tags: undefined }))
        .expect(200);

      const res = await get(uuid).expect(200);
      expect(res.body).toMatchObject({ description: null, headers: [], tags: [] });
    });

    it('accepts a GET-then-PUT round trip and ignores the read-only fields: nothing changed, nothing is written', async () => {
      const uuid = await createConnector(sut, tenant, token, withClientCredentials());
      const flow = aFlow(tenant.bot.uuid, { name: 'Checkout', connectors: [uuid] });
      await importData(sut.dataSource, { flows: [flow] });
      const fetched = await get(uuid).expect(200);
      const sent = {
        ...fetched.body,
        uuid: '11111111-2222-4333-8444-555555555555',
        flows: [{ uuid: '66666666-7777-4888-9999-000000000000', name: 'Forged' }],
        updatedAt: '2001-01-01T00:00:00.000Z',
        updatedBy: 'mallory',
        user: { username: 'mallory', image: 'https://evil.example.com/m.png' },
      };
      const bob = await signToken({ scope: 'connectors:write', username: 'bob' });

      const res = await sut.http.put(`${base}/${uuid}`).set(bearer(bob)).send(sent).expect(200);

      expect(res.body).toEqual({ message: 'Rest connector unchanged', data: uuid });
      expect(res.headers.etag).toBe(fetched.headers.etag);
      const after = await get(uuid).expect(200);
      expect(after.body).toEqual(fetched.body);
      expect(after.headers.etag).toBe(fetched.headers.etag);
      expect(after.body.flows).toEqual([{ uuid: flow.uuid, name: 'Checkout' }]);
    });

    it('takes a round trip with one field changed as an update by its writer, the read-only fields ignored', async () => {
      const uuid = await createConnector(sut, tenant, token, withClientCredentials());
      const fetched = await get(uuid).expect(200);
      const sent = {
        ...fetched.body,
        description: 'edited',
        uuid: '11111111-2222-4333-8444-555555555555',
        updatedAt: '2001-01-01T00:00:00.000Z',
        updatedBy: 'mallory',
      };
      const bob = await signToken({ scope: 'connectors:write', username: 'bob' });

      const res = await sut.http.put(`${base}/${uuid}`).set(bearer(bob)).send(sent).expect(200);

      expect(res.body).toEqual({ message: 'Rest connector updated', data: uuid });
      const after = await get(uuid).expect(200);
      expect(after.body).toEqual({ ...fetched.body, description: 'edited', updatedAt: expect.stringMatching(ISO_UTC_MILLIS), updatedBy: 'bob' });
      expect(after.body.updatedAt).not.toBe('2001-01-01T00:00:00.000Z');
    });

    it('changes the ETag with every update and returns the new one', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const before = await get(uuid).expect(200);

      const put = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(aConnectorBody()).expect(200);
      const after = await get(uuid).expect(200);

      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(put.headers.etag).toBe(after.headers.etag);
    });

    it('is 412 when If-Match is not the current ETag, and 200 when it is', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const stale = (await get(uuid).expect(200)).headers.etag;
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'First edit' }))
        .expect(200);

      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .set('If-Match', stale)
        .send(aConnectorBody({ name: 'Lost update' }))
        .expect(412);
      const current = (await get(uuid).expect(200)).headers.etag;
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .set('If-Match', current)
        .send(aConnectorBody({ name: 'Second edit' }))
        .expect(200);

      await expect(get(uuid).then((r) => r.body.name)).resolves.toBe('Second edit');
    });

    it('names the current ETag in its 412, and answers an unquoted If-Match 400 saying a quoted ETag is expected', async () => {
      const uuid = await createConnector(sut, tenant, token);

      const stale = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).set('If-Match', '"v0"').send(aConnectorBody()).expect(412);
      const unquoted = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .set('If-Match', 'v1')
        .send(aConnectorBody({ name: 'Not written' }))
        .expect(400);

      expect(stale.body.message).toBe(
        `Rest connector ${uuid} has changed since the ETag given in If-Match: its current ETag is "v1"; read it again, then send If-Match: "v1"`,
      );
      expect(unquoted.body.message).toBe('If-Match must be * or quoted ETags as a read answers them, such as "v4" (with the quotes); got "v1"');
      await expect(get(uuid).then((r) => r.headers.etag)).resolves.toBe('"v1"');
    });
  });

  it('answers PATCH on a connector 405 with the methods its path serves', async () => {
    const uuid = await createConnector(sut, tenant, token);

    const res = await sut.http.patch(`${base}/${uuid}`).set(bearer(token)).send({ name: 'Patched' }).expect(405);

    expect(res.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    expect(res.body.message).toBe('PATCH is not an operation of this path; it answers GET, HEAD, PUT, DELETE');
  });

  describe('conditional GET (If-None-Match)', () => {
    it('is a 304 without a body while the ETag is current, and a 200 with the record once it changed', async () => {
      const uuid = await createConnector(sut, tenant, token);

      const unchanged = await get(uuid).set('If-None-Match', '"v1"').expect(304);
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(aConnectorBody({ name: 'Changed' }))
        .expect(200);
      const changed = await get(uuid).set('If-None-Match', '"v1"').expect(200);

      expect(unchanged.text).toBe('');
      expect(unchanged.headers.etag).toBe('"v1"');
      expect(changed.body.name).toBe('Changed');
    });
  });

  describe('DELETE /{serviceUUID} (soft delete)', () => {
    it('answers 204 with an empty body and keeps the row, recording who and when', async () => {
      const uuid = await createConnector(sut, tenant, token);

      const res = await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(204);

      expect(res.text).toBe('');
      await expect(storedRow(uuid)).resolves.toMatchObject({ deletedAt: expect.any(Date), deletedBy: 'alice' });
    });

    it('makes later get, update and delete of the connector a 404 that says it is in the trash and how to restore it', async () => {
      const uuid = await createConnector(sut, tenant, token);
      await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(204);
      const message = connectorInTrash(tenant, uuid, 2);

      const got = await get(uuid).expect(404);
      const put = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(aConnectorBody()).expect(404);
      const deleted = await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(404);

      expect(got.body).toEqual(errorBody(404, 'Not Found', expect.stringMatching(message), `${base}/${uuid}`));
      expect(put.body.message).toMatch(message);
      expect(deleted.body.message).toMatch(message);
      expect(got.body.message).toContain(`${base}/${uuid}/restore`);
    });

    it('is a plain 404 for a connector that never was', async () => {
      const uuid = '01a21638-a4cd-7207-ab76-950a495ba8b2';

      const got = await get(uuid).expect(404);

      expect(got.body.message).toBe(connectorNotFound(uuid, tenant.bot.uuid));
    });

    it("honours If-Match: a stale ETag is a 412 naming the current one and deletes nothing; the current one deletes and answers the trash version's ETag", async () => {
      const uuid = await createConnector(sut, tenant, token);

      const stale = await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).set('If-Match', '"v99"').expect(412);
      await get(uuid).expect(200);
      const malformed = await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).set('If-Match', 'v1').expect(400);
      const deleted = await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).set('If-Match', '"v1"').expect(204);
      const trash = await sut.http.get(`${base}/deleted`).query({ linesPerPage: 100 }).set(bearer(token)).expect(200);
      const item = trash.body.content.find((c: { uuid: string }) => c.uuid === uuid);
      await sut.http.post(`${base}/${uuid}/restore`).set(bearer(token)).set('If-Match', item.etag).expect(200);

      expect(stale.body.message).toBe(
        `Rest connector ${uuid} has changed since the ETag given in If-Match: its current ETag is "v1"; read it again, then send If-Match: "v1"`,
      );
      expect(malformed.body.message).toBe('If-Match must be * or quoted ETags as a read answers them, such as "v4" (with the quotes); got "v1"');
      expect(deleted.headers.etag).toBe('"v2"');
      expect(item).toMatchObject({ version: 2, etag: '"v2"' });
    });

    it('removes the connector from pages, lists and suggestions', async () => {
      const name = `Doomed ${Date.now()}`;
      const uuid = await createConnector(sut, tenant, token, { name });
      await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(204);

      const page = await sut.http.get(`${base}/pagination`).query({ searchTerms: name, linesPerPage: 100 }).set(bearer(token)).expect(200);
      const list = await sut.http.get(`${base}/list`).set(bearer(token)).expect(200);
      const suggestions = await sut.http.get(`${base}/quicksearch`).query({ searchTerm: 'Doomed' }).set(bearer(token)).expect(200);

      expect(page.body.content).toEqual([]);
      expect(page.body.totalElements).toBe(0);
      expect(list.body.data.map((item: { uuid: string }) => item.uuid)).not.toContain(uuid);
      expect(suggestions.body).not.toContain(name);
    });

    it('frees the name for a new connector', async () => {
      const name = `Reusable ${Date.now()}`;
      const uuid = await createConnector(sut, tenant, token, { name });
      await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(204);

      const res = await sut.http.post(base).set(bearer(token)).send(aConnectorBody({ name })).expect(201);

      expect(res.body.uuid).not.toBe(uuid);
      await expect(get(res.body.uuid).then((r) => r.body.name)).resolves.toBe(name);
    });
  });

  describe('authentication and authorization', () => {
    let uuid: string;
    beforeAll(async () => {
      uuid = await createConnector(sut, tenant, token);
    });

    it.each([
      ['POST', () => sut.http.post(base).send(aConnectorBody())],
      ['GET one', () => sut.http.get(`${base}/${uuid}`)],
      ['PUT', () => sut.http.put(`${base}/${uuid}`).send(aConnectorBody())],
      ['DELETE', () => sut.http.delete(`${base}/${uuid}`)],
      ['GET list', () => sut.http.get(`${base}/list`)],
      ['GET pagination', () => sut.http.get(`${base}/pagination`)],
      ['GET quicksearch', () => sut.http.get(`${base}/quicksearch?searchTerm=a`)],
    ])('answers %s without a token 401 with WWW-Authenticate: Bearer', async (_, send) => {
      const res = await send().expect(401);

      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });

    it.each([
      ['POST', (t: string) => sut.http.post(base).set(bearer(t)).send(aConnectorBody())],
      [
        'PUT',
        (t: string) =>
          sut.http
            .put(`${base}/${uuid}`)
            .set(bearer(t))
            .send(aConnectorBody({ name: 'Never written' })),
      ],
      ['DELETE', (t: string) => sut.http.delete(`${base}/${uuid}`).set(bearer(t))],
    ])('answers %s with a token lacking connectors:write 403 and writes nothing', async (_, send) => {
      const reader = await signToken({ username: 'reader', scope: 'connectors:read profile' });
      const before = await storedRow(uuid);

      const res = await send(reader).expect(403);

      expect(res.body.message).toBe('This operation needs the connectors:write scope');
      await expect(storedRow(uuid)).resolves.toEqual(before);
    });

    it.each([
      ['POST', (t: string) => sut.http.post(base).set(bearer(t)).send(aConnectorBody())],
      ['GET one', (t: string) => sut.http.get(`${base}/${uuid}`).set(bearer(t))],
      ['PUT', (t: string) => sut.http.put(`${base}/${uuid}`).set(bearer(t)).send(aConnectorBody())],
      ['DELETE', (t: string) => sut.http.delete(`${base}/${uuid}`).set(bearer(t))],
      ['GET list', (t: string) => sut.http.get(`${base}/list`).set(bearer(t))],
      ['GET pagination', (t: string) => sut.http.get(`${base}/pagination`).set(bearer(t))],
      ['GET quicksearch', (t: string) => sut.http.get(`${base}/quicksearch?searchTerm=a`).set(bearer(t))],
    ])('answers %s with a token whose orgs exclude the organization 403', async (_, send) => {
      const outsider = await signToken({ ...ALICE, orgs: ['0c2b6a57-7f0e-4f43-9e5e-3cb1d2a8a1aa'] });

      const res = await send(outsider).expect(403);

      expect(res.body.message).toBe(`Not allowed to access organization ${tenant.organization.uuid}`);
      await expect(get(uuid).then((r) => r.status)).resolves.toBe(200);
    });

    it('lets a reader without the write scope read', async () => {
      const reader = await signToken({ orgs: [tenant.organization.uuid] });

      await sut.http.get(`${base}/${uuid}`).set(bearer(reader)).expect(200);
      await sut.http.get(`${base}/list`).set(bearer(reader)).expect(200);
      await sut.http.get(`${base}/pagination`).set(bearer(reader)).expect(200);
      await sut.http.get(`${base}/quicksearch?searchTerm=c`).set(bearer(reader)).expect(200);
    });
  });
});

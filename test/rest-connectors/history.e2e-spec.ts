import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aBot, aFlow, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import {
  aConnectorBody,
  ALICE,
  connectorsPath,
  createConnector,
  errorBody,
  ISO_UTC_MILLIS,
  readStoredSecrets,
  tenantPath,
  withBearerAuth,
} from './connector-factories';

/** Every row of every table of the database, as text: what a dump would hold. */
async function dumpOf(sut: TestApp): Promise<string> {
  const tables: Array<{ name: string }> = await sut.dataSource.query(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
  );
  const rows = await Promise.all(tables.map(({ name }) => sut.dataSource.query(`SELECT * FROM \`${name}\``)));
  return JSON.stringify(rows);
}

describe('History, trash and restore (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let reader: string;
  let base: string;

  const get = (uuid: string) => sut.http.get(`${base}/${uuid}`).set(bearer(token));
  const versions = (uuid: string, query = '', as = token) => sut.http.get(`${base}/${uuid}/versions${query}`).set(bearer(as));
  const version = (uuid: string, n: number | string, as = token) => sut.http.get(`${base}/${uuid}/versions/${n}`).set(bearer(as));
  const put = (uuid: string, body: object) => sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(body);
  const remove = (uuid: string) => sut.http.delete(`${base}/${uuid}`).set(bearer(token));
  const restore = (uuid: string, as = token) => sut.http.post(`${base}/${uuid}/restore`).set(bearer(as));
  const trash = (query = '', path = base) => sut.http.get(`${path}/deleted${query}`).set(bearer(token));
  /** What a version records of the request that made it: the token's sub, the request's id (its answer's X-Request-Id), no reason. */
  const trailOf = (res: { headers: Record<string, string> }) => ({
    sub: 'user-1',
    requestId: res.headers['x-request-id'],
    reason: null,
    revertedTo: null,
    promotionId: null,
  });
  const recordOf = (body: Record<string, unknown>) => {
    const { flows: _flows, ...snapshot } = body;
    return snapshot;
  };

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig());
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    reader = await signToken({ username: 'rita', picture: 'https://img.example.com/rita.png' });
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());

  describe('versions', () => {
    it("records every write with the ETag's number, who and when, the changed fields, and the record a get showed after it", async () => {
      const secret = `bearer-${randomUUID()}`;
      const creation = await sut.http
        .post(base)
        .set(bearer(token))
        .send(withBearerAuth({ bearerToken: secret, description: 'first' }))
        .expect(201);
      const { uuid } = creation.body;
      const created = await get(uuid).expect(200);
      const edited = { ...recordOf(created.body), description: 'second', bearerToken: `bearer-${randomUUID()}` };
      const updated = await put(uuid, edited).expect(200);
      const afterUpdate = await get(uuid).expect(200);
      const removed = await remove(uuid).expect(204);

      const page = await versions(uuid, '', reader).expect(200);

      expect(page.body).toMatchObject({ totalElements: 3, totalPages: 1, size: 20, number: 0, first: true, last: true, numberOfElements: 3 });
      expect(page.body.content).toEqual([
        {
          version: 3,
          operation: 'DELETED',
          updatedAt: expect.stringMatching(ISO_UTC_MILLIS),
          updatedBy: 'alice',
          user: { username: 'alice', image: ALICE.picture },
          ...trailOf(removed),
          changedFields: [],
        },
        {
          version: 2,
          operation: 'UPDATED',
          updatedAt: afterUpdate.body.updatedAt,
          updatedBy: 'alice',
          user: { username: 'alice', image: ALICE.picture },
          ...trailOf(updated),
          changedFields: ['description', 'bearerToken'],
        },
        {
          version: 1,
          operation: 'CREATED',
          updatedAt: created.body.updatedAt,
          updatedBy: 'alice',
          user: { username: 'alice', image: ALICE.picture },
          ...trailOf(creation),
          changedFields: ['name', 'description', 'requestType', 'url', 'headers', 'contentType', 'authType', 'bearerToken', 'output', 'tags'],
        },
      ]);
      expect(updated.headers.etag).toBe('"v2"');
      expect((await version(uuid, 1).expect(200)).body).toEqual({ ...page.body.content[2], snapshot: recordOf(created.body) });
      expect((await version(uuid, 2, reader).expect(200)).body.snapshot).toEqual(recordOf(afterUpdate.body));
      expect((await version(uuid, 3).expect(200)).body.snapshot).toEqual(recordOf(afterUpdate.body));
      expect(JSON.stringify(page.body)).not.toContain(secret);
    });

    it('names a secret only when its value changed: not when sent again unchanged, nor kept by its placeholder', async () => {
      const secret = `bearer-${randomUUID()}`;
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: secret }));
      const record = recordOf((await get(uuid).expect(200)).body);

      await put(uuid, { ...record, bearerToken: secret, description: 'sent again' }).expect(200);
      await put(uuid, { ...record, bearerToken: '<BEARER_TOKEN>', name: `${record.name} 2` }).expect(200);
      await put(uuid, { ...record, authType: 'AUTH_NONE', bearerToken: null, tags: [{ name: 'Alpha' }] }).expect(200);

      const page = await versions(uuid).expect(200);
      expect(page.body.content.map((v: { changedFields: string[] }) => v.changedFields)).toEqual([
        ['name', 'authType', 'bearerToken', 'tags'],
        ['name', 'description'],
        ['description'],
        expect.any(Array),
      ]);
    });

    it('pages newest first, 20 by default and at most 100, with 400s for bad numbers and 404s for what does not exist', async () => {
      const uuid = await createConnector(sut, tenant, token, aConnectorBody());
      const record = recordOf((await get(uuid).expect(200)).body);
      for (let i = 1; i <= 22; i++) await put(uuid, { ...record, description: `edit ${i}` }).expect(200);

      const first = await versions(uuid).expect(200);
      expect(first.body).toMatchObject({ totalElements: 23, totalPages: 2, size: 20, numberOfElements: 20, last: false });
      expect(first.body.content.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => 23 - i));
      const second = await versions(uuid, '?page=2&linesPerPage=20').expect(200);
      expect(second.body.content.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
      expect((await versions(uuid, '?linesPerPage=100').expect(200)).body.numberOfElements).toBe(23);

      for (const query of ['?linesPerPage=101', '?linesPerPage=0', '?page=0', '?page=x', '?size=5']) await versions(uuid, query).expect(400);
      for (const n of ['0', '-1', '1.5', 'x', '99999999999']) {
        const res = await version(uuid, n).expect(400);
        expect(res.body.message).toEqual([expect.stringMatching(/^version must be a positive integer/)]);
      }
      const missing = await version(uuid, 24).expect(404);
      expect(missing.body).toEqual(errorBody(404, 'Not Found', `Rest connector ${uuid} has no version 24`, `${base}/${uuid}/versions/24`));
      await versions(randomUUID()).expect(404);
      await version(randomUUID(), 1).expect(404);
    });

    it('is a 404 for a connector of another bot, and needs only read access', async () => {
      const uuid = await createConnector(sut, tenant, token, aConnectorBody());
      const otherBot = aBot(tenant.environment.uuid);
      await importData(sut.dataSource, { bots: [otherBot] });
      const other = connectorsPath(tenant.organization.uuid, tenant.environment.uuid, otherBot.uuid);

      await sut.http.get(`${other}/${uuid}/versions`).set(bearer(token)).expect(404);
      await sut.http.get(`${other}/${uuid}/versions/1`).set(bearer(token)).expect(404);
      await versions(uuid, '', await signToken({ orgs: [randomUUID()] })).expect(403);
      await versions(uuid, '', reader).expect(200);
    });

    it('records no version for a write that did not land, and every write lands with its version', async () => {
      const taken = await createConnector(sut, tenant, token, aConnectorBody());
      const takenName = (await get(taken).expect(200)).body.name;
      const uuid = await createConnector(sut, tenant, token, aConnectorBody());
      const record = recordOf((await get(uuid).expect(200)).body);

      await put(uuid, { ...record, name: takenName }).expect(409);
      await sut.http.put(`${base}/${uuid}`).set(bearer(token)).set('If-Match', '"v9"').send(record).expect(412);
      await sut.http
        .post(base)
        .set(bearer(token))
        .send(aConnectorBody({ name: takenName }))
        .expect(409);

      expect((await versions(uuid).expect(200)).body.totalElements).toBe(1);
      const rows: Array<{ connector: string; latest: number; current: number }> = await sut.dataSource.query(
        'SELECT c.uuid AS connector, MAX(v.version) AS latest, c.version AS current FROM rest_connectors c LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid WHERE c.bot_uuid = ? GROUP BY c.uuid, c.version',
        [tenant.bot.uuid],
      );
      for (const row of rows) expect(Number(row.latest)).toBe(Number(row.current));
    });

    it('keeps no plaintext secret in the version table, nor anywhere in a dump of the database', async () => {
      const secrets = [`bearer-${randomUUID()}`, `bearer-${randomUUID()}`];
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: secrets[0] }));
      await put(uuid, { ...recordOf((await get(uuid).expect(200)).body), bearerToken: secrets[1] }).expect(200);
      await remove(uuid).expect(204);
      await restore(uuid).expect(200);

      const versionRows = JSON.stringify(await sut.dataSource.query('SELECT * FROM rest_connector_versions WHERE connector_uuid = ?', [uuid]));
      expect(versionRows).toContain('<BEARER_TOKEN>');
      const dump = await dumpOf(sut);
      for (const secret of secrets) {
        expect(versionRows).not.toContain(secret);
        expect(dump).not.toContain(secret);
        expect(dump).not.toContain(Buffer.from(secret).toString('base64'));
      }
    });
  });

  describe('trash', () => {
    it("lists the bot's deleted connectors, newest deletion first, with tags and who deleted them; never active ones", async () => {
      const fresh = await seedTenant(sut.dataSource);
      const path = tenantPath(fresh);
      expect((await trash('', path).expect(200)).body).toMatchObject({ content: [], totalElements: 0, empty: true, size: 20 });
      const uuids: string[] = [];
      for (const name of ['One', 'Two', 'Three']) {
        uuids.push(await createConnector(sut, fresh, token, aConnectorBody({ name, tags: [{ name: `tag-${name}` }] })));
      }
      await createConnector(sut, fresh, token, aConnectorBody({ name: 'Active' }));
      for (const uuid of uuids) await sut.http.delete(`${path}/${uuid}`).set(bearer(token)).expect(204);

      const page = await trash('', path).expect(200);

      expect(page.body.content).toEqual(
        ['Three', 'Two', 'One'].map((name, index) => ({
          uuid: uuids[2 - index],
          name,
          tags: [{ name: `tag-${name}` }],
          deletedAt: expect.stringMatching(ISO_UTC_MILLIS),
          deletedBy: 'alice',
          // The delete's version: what a restore of exactly it sends in If-Match.
          version: 2,
          etag: '"v2"',
        })),
      );
      const deletedAts = page.body.content.map((item: { deletedAt: string }) => item.deletedAt);
      expect([...deletedAts].sort().reverse()).toEqual(deletedAts);
      expect((await trash('?linesPerPage=2&page=2', path).expect(200)).body).toMatchObject({
        totalElements: 3,
        numberOfElements: 1,
        content: [{ name: 'One' }],
      });
      await trash('?linesPerPage=101', path).expect(400);
      await trash('', connectorsPath(fresh.organization.uuid, fresh.environment.uuid, randomUUID())).expect(404);
    });
  });

  describe('restore', () => {
    it('brings a deleted connector back exactly as it was, secrets and flows included, with a new version and ETag', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: `bearer-${randomUUID()}`, tags: [{ name: 'kept' }] }));
      await importData(sut.dataSource, { flows: [aFlow(tenant.bot.uuid, { connectors: [uuid] })] });
      const before = await get(uuid).expect(200);
      const sealed = await readStoredSecrets(sut, uuid);
      await remove(uuid).expect(204);
      await get(uuid).expect(404);

      const res = await restore(uuid).expect(200);

      expect(res.body).toEqual({ message: 'Rest connector restored', data: uuid });
      expect(res.headers.etag).toBe('"v3"');
      const after = await get(uuid).expect(200);
      expect(after.body).toEqual(before.body);
      expect(after.headers.etag).toBe('"v3"');
      expect(await readStoredSecrets(sut, uuid)).toEqual(sealed);
      const history = await versions(uuid).expect(200);
      expect(history.body.content[0]).toMatchObject({ version: 3, operation: 'RESTORED', changedFields: [] });
      expect((await trash().expect(200)).body.content.map((item: { uuid: string }) => item.uuid)).not.toContain(uuid);
    });

    it("is a 409 for an active connector, a 404 for none or another bot's, a 412 for a stale If-Match, a 403 without write scope", async () => {
      const uuid = await createConnector(sut, tenant, token, aConnectorBody());
      const notDeleted = await restore(uuid).expect(409);
      expect(notDeleted.body).toEqual(
        errorBody(409, 'Conflict', `Rest connector ${uuid} is not deleted: only a deleted connector can be restored`, `${base}/${uuid}/restore`),
      );
      await remove(uuid).expect(204);

      await restore(randomUUID()).expect(404);
      const otherBot = aBot(tenant.environment.uuid);
      await importData(sut.dataSource, { bots: [otherBot] });
      await sut.http
        .post(`${connectorsPath(tenant.organization.uuid, tenant.environment.uuid, otherBot.uuid)}/${uuid}/restore`)
        .set(bearer(token))
        .expect(404);
      await restore(uuid, reader).expect(403);
      await sut.http.post(`${base}/${uuid}/restore`).set(bearer(token)).set('If-Match', '"v1"').expect(412);
      const res = await sut.http.post(`${base}/${uuid}/restore`).set(bearer(token)).set('If-Match', '"v2"').expect(200);
      expect(res.headers.etag).toBe('"v3"');
    });

    it('is a 409 naming the name when an active connector took it since', async () => {
      const uuid = await createConnector(sut, tenant, token, aConnectorBody({ name: `Taken ${randomUUID().slice(0, 8)}` }));
      const { name } = (await get(uuid).expect(200)).body;
      await remove(uuid).expect(204);
      await createConnector(sut, tenant, token, aConnectorBody({ name: name.toUpperCase() }));

      const res = await restore(uuid).expect(409);

      expect(res.body.message).toBe(`A rest connector named "${name}" already exists in this bot`);
      expect((await versions(uuid).expect(200)).body.totalElements).toBe(2);
    });

    it('under races: two restores give one 200 and one 409; a restore racing a create of the name leaves one active connector of that name', async () => {
      for (let round = 0; round < 5; round++) {
        const uuid = await createConnector(sut, tenant, token, aConnectorBody());
        await remove(uuid).expect(204);
        const statuses = (await Promise.all([restore(uuid), restore(uuid)])).map((res) => res.status).sort();
        expect(statuses).toEqual([200, 409]);
        expect((await versions(uuid).expect(200)).body.content.filter((v: { operation: string }) => v.operation === 'RESTORED')).toHaveLength(1);
      }
      for (let round = 0; round < 5; round++) {
        const name = `Raced ${randomUUID().slice(0, 8)}`;
        const uuid = await createConnector(sut, tenant, token, aConnectorBody({ name }));
        await remove(uuid).expect(204);
        const [restored, created] = await Promise.all([restore(uuid), sut.http.post(base).set(bearer(token)).send(aConnectorBody({ name }))]);
        // Exactly one wins (the restore 200 or the create 201); the other is the unique key's 409.
        expect([
          [200, 409],
          [409, 201],
        ]).toContainEqual([restored.status, created.status]);
        const [{ active }] = await sut.dataSource.query(
          'SELECT COUNT(*) AS active FROM rest_connectors WHERE bot_uuid = ? AND name = ? AND deleted_at IS NULL',
          [tenant.bot.uuid, name],
        );
        expect(Number(active)).toBe(1);
      }
    });
  });

  describe('rolling back an edit: read a version, PUT its snapshot', () => {
    it('restores the fields and tags, keeps the stored secret through its placeholder while the host stays', async () => {
      const secret = `bearer-${randomUUID()}`;
      const uuid = await createConnector(
        sut,
        tenant,
        token,
        withBearerAuth({ bearerToken: secret, url: 'https://api.example.com/v1/{{id}}', tags: [{ name: 'v1' }] }),
      );
      const original = await get(uuid).expect(200);
      await put(uuid, { ...recordOf(original.body), url: 'https://api.example.com/v2/{{id}}', body: 'changed', tags: [{ name: 'v2' }] }).expect(200);
      const sealed = await readStoredSecrets(sut, uuid);

      const { snapshot } = (await version(uuid, 1).expect(200)).body;
      const rolledBack = await put(uuid, snapshot).expect(200);

      expect(rolledBack.headers.etag).toBe('"v3"');
      const now = await get(uuid).expect(200);
      expect({ ...now.body, updatedAt: null }).toEqual({ ...original.body, updatedAt: null });
      expect(await readStoredSecrets(sut, uuid)).toEqual(sealed);
      expect((await versions(uuid).expect(200)).body.content[0].changedFields).toEqual(['url', 'body', 'tags']);
    });

    it("asks for the secret again when the snapshot's URL points to another host than the stored one (host binding)", async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: 'https://old.example.com/x', bearerToken: `bearer-${randomUUID()}` }));
      const original = await get(uuid).expect(200);
      await put(uuid, { ...recordOf(original.body), url: 'https://new.example.com/x', bearerToken: 'another-secret' }).expect(200);

      const { snapshot } = (await version(uuid, 1).expect(200)).body;
      const res = await put(uuid, snapshot).expect(400);

      expect(res.body.message).toEqual([expect.stringMatching(/^bearerToken must be sent again: url now points elsewhere/)]);
      await put(uuid, { ...snapshot, bearerToken: 'the-old-secret-again' }).expect(200);
    });
  });
});

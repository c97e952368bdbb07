import { randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { FeedConsumer } from '../connector-events/feed-consumer';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, ALICE, createConnector, errorBody, tenantPath, withBasicAuth, withBearerAuth } from './connector-factories';

/**
 * A UTF-8 text as the bytes of a header value: Node's client writes a header's characters as Latin-1 bytes, unless a
 * string body goes out in the same write (then it encodes both as UTF-8): requests with such a header send their
 * body as bytes (asBytes).
 */
const utf8Header = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
const asBytes = (body: object) => Buffer.from(JSON.stringify(body), 'utf8');

describe('Support trail: why, by whom, through which request; no-op saves; revert; diff (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let reader: string;
  let base: string;
  let feedPath: string;

  const get = (uuid: string) => sut.http.get(`${base}/${uuid}`).set(bearer(token));
  const versions = (uuid: string) => sut.http.get(`${base}/${uuid}/versions?linesPerPage=100`).set(bearer(reader));
  const recordOf = (body: Record<string, unknown>) => {
    const { flows: _flows, uuid: _uuid, updatedAt: _at, updatedBy: _by, ...fields } = body;
    return fields;
  };
  /** A consumer of the bot's events from now on (the relay numbers them as it goes). */
  const following = () => new FeedConsumer(sut, reader, feedPath, { botUUID: tenant.bot.uuid }).fromNow();
  /** The first `count` events of the connector the consumer reads, each its type and data. */
  const eventsOf = async (consumer: FeedConsumer, uuid: string, count: number) => {
    const ofConnector = () => consumer.events.filter(({ event }) => event.subject === uuid);
    for (let round = 0; ofConnector().length < count; round++) {
      if (round === 100) throw new Error(`the feed gave ${ofConnector().length} events of ${uuid}, not ${count}`);
      await consumer.next(10, 1000);
    }
    return ofConnector().map(({ event }) => ({ type: event.type, ...event.data }));
  };

  beforeAll(async () => {
    // At info, the access lines are written (and kept in sut.logs).
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ logLevel: 'info' }));
    tenant = await seedTenant(sut.dataSource);
    token = await signToken({ ...ALICE, sub: 'auth0|alice' });
    reader = await signToken({ username: 'rita' });
    base = tenantPath(tenant);
    feedPath = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`;
  });
  afterAll(() => sut.close());

  describe('an update that changes nothing', () => {
    it('answers 200 with the current ETag and writes no version and no event; If-Match is still checked', async () => {
      const consumer = await following();
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: 'kept-secret', tags: [{ name: 'Weather' }] }));
      const fetched = await get(uuid).expect(200);
      const record = recordOf(fetched.body);

      const byPlaceholder = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(record).expect(200);
      const secretResent = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .set('If-Match', '"v1"')
        .send({ ...record, bearerToken: 'kept-secret' })
        .expect(200);

      for (const res of [byPlaceholder, secretResent]) {
        expect(res.body).toEqual({ message: 'Rest connector unchanged', data: uuid });
        expect(res.headers.etag).toBe('"v1"');
      }
      expect((await versions(uuid).expect(200)).body.totalElements).toBe(1);
      expect((await get(uuid).expect(200)).body).toEqual(fetched.body);

      const stale = await sut.http.put(`${base}/${uuid}`).set(bearer(token)).set('If-Match', '"v7"').send(record).expect(412);
      expect(stale.body.message).toContain('its current ETag is "v1"');
      // A change after all is a write as ever.
      const changed = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...record, tags: [{ name: 'weather' }] })
        .expect(200);
      expect(changed.headers.etag).toBe('"v2"');
      expect((await versions(uuid).expect(200)).body.content[0]).toMatchObject({ version: 2, changedFields: ['tags'] });
      // The events: the creation, then that change; none between them for the saves that changed nothing.
      expect((await eventsOf(consumer, uuid, 2)).map(({ type, version }) => [type, version])).toEqual([
        ['connector.created.v1', 1],
        ['connector.updated.v1', 2],
      ]);
    });
  });

  describe('Change-Reason, the request id and the sub', () => {
    it('records them in each version (create, update, delete, restore) and carries the reason in each event', async () => {
      const consumer = await following();
      const requestId = `support-${randomUUID()}`;
      const created = await sut.http
        .post(base)
        .set(bearer(token))
        .set('X-Request-Id', requestId)
        .set('Change-Reason', utf8Header('New weather connector for the FAQ bot — Grüße 🚀'))
        .type('json')
        .serialize((bytes) => bytes)
        .send(asBytes(aConnectorBody()))
        .expect(201);
      const { uuid } = created.body;
      const record = recordOf((await get(uuid).expect(200)).body);
      const updated = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .set('Change-Reason', '  Vendor moved the API to v2 (OPS-1234)  ')
        .send({ ...record, url: 'https://api.example.com/v2' })
        .expect(200);
      const removed = await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).set('Change-Reason', 'Replaced by the v3 connector').expect(204);
      const restored = await sut.http.post(`${base}/${uuid}/restore`).set(bearer(token)).expect(200);

      const page = (await versions(uuid).expect(200)).body.content;
      expect(page.map((v: Record<string, unknown>) => [v.version, v.operation, v.sub, v.requestId, v.reason, v.revertedTo])).toEqual([
        [4, 'RESTORED', 'auth0|alice', restored.headers['x-request-id'], null, null],
        [3, 'DELETED', 'auth0|alice', removed.headers['x-request-id'], 'Replaced by the v3 connector', null],
        [2, 'UPDATED', 'auth0|alice', updated.headers['x-request-id'], 'Vendor moved the API to v2 (OPS-1234)', null],
        [1, 'CREATED', 'auth0|alice', requestId, 'New weather connector for the FAQ bot — Grüße 🚀', null],
      ]);
      expect((await sut.http.get(`${base}/${uuid}/versions/2`).set(bearer(reader)).expect(200)).body).toMatchObject({
        sub: 'auth0|alice',
        requestId: updated.headers['x-request-id'],
        reason: 'Vendor moved the API to v2 (OPS-1234)',
      });
      expect((await eventsOf(consumer, uuid, 4)).map(({ type, reason, revertedTo }) => [type, reason, revertedTo])).toEqual([
        ['connector.created.v1', 'New weather connector for the FAQ bot — Grüße 🚀', null],
        ['connector.updated.v1', 'Vendor moved the API to v2 (OPS-1234)', null],
        ['connector.deleted.v1', 'Replaced by the v3 connector', null],
        ['connector.restored.v1', null, null],
      ]);
    });

    it('gives each connector an import creates the reason of the import, and its request id', async () => {
      const imported = await sut.http
        .post(`${base}/import`)
        .set(bearer(token))
        .set('Change-Reason', 'Onboarding the weather vendor')
        .send({ format: 'curl', source: `curl https://api.example.com/forecast/${randomUUID()}`, dryRun: false })
        .expect(200);
      const uuids: string[] = imported.body.connectors.map(({ uuid }: { uuid: string }) => uuid);

      expect(uuids).toHaveLength(1);
      expect((await versions(uuids[0]).expect(200)).body.content).toEqual([
        expect.objectContaining({
          version: 1,
          operation: 'CREATED',
          reason: 'Onboarding the weather vendor',
          sub: 'auth0|alice',
          requestId: imported.headers['x-request-id'],
        }),
      ]);
    });

    it("puts the connector id beside the request id and the token's sub on the access line of each write", async () => {
      const created = await sut.http.post(base).set(bearer(token)).send(aConnectorBody()).expect(201);
      const { uuid } = created.body;
      const record = recordOf((await get(uuid).expect(200)).body);
      const updated = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...record, description: 'edited' })
        .expect(200);
      const removed = await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(204);

      const lineOf = (requestId: string) => sut.logs.find((line) => line.requestId === requestId && typeof line.route === 'string');
      for (const res of [created, updated, removed]) {
        expect(lineOf(res.headers['x-request-id'])).toMatchObject({ requestId: res.headers['x-request-id'], sub: 'auth0|alice', connectorId: uuid });
      }
    });

    it('names on the access line only a connector id the path holds, as the records write it (lower case)', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const upper = await sut.http.delete(`${base}/${uuid.toUpperCase()}`).set(bearer(token)).expect(204);
      // Not a connector id: refused (400), and not copied onto the line, whatever its length.
      const notAnId = await sut.http
        .post(`${base}/${'x'.repeat(4000)}/restore`)
        .set(bearer(token))
        .expect(400);

      const lineOf = (requestId: string) => sut.logs.find((line) => line.requestId === requestId && typeof line.route === 'string');
      expect(lineOf(upper.headers['x-request-id'])).toMatchObject({ connectorId: uuid });
      const refused = lineOf(notAnId.headers['x-request-id']);
      expect(refused).toMatchObject({ res: { statusCode: 400 }, sub: 'auth0|alice' });
      expect(refused).not.toHaveProperty('connectorId');
    });

    it('refuses a blank reason, one over 500 characters, one with a line break or a tab, and one that is not UTF-8, writing nothing', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const record = recordOf((await get(uuid).expect(200)).body);
      const cases: Array<[string, string]> = [
        ['   ', 'Change-Reason must not be blank: leave the header out to give no reason'],
        ['x'.repeat(501), 'Change-Reason must be at most 500 characters'],
        ['first line\tsecond', 'Change-Reason must not hold control characters or line separators (line breaks, tabs, U+2028, U+2029): write it on one line'],
        [
          utf8Header('first line\u2028second'),
          'Change-Reason must not hold control characters or line separators (line breaks, tabs, U+2028, U+2029): write it on one line',
        ],
        [Buffer.from([0x66, 0xff, 0x66]).toString('latin1'), 'Change-Reason must be UTF-8 text'],
      ];
      for (const [reason, message] of cases) {
        const res = await sut.http
          .put(`${base}/${uuid}`)
          .set(bearer(token))
          .set('Change-Reason', reason)
          .type('json')
          .serialize((bytes) => bytes)
          .send(asBytes({ ...record, description: 'never written' }))
          .expect(400);
        expect(res.body.message).toEqual([message]);
      }
      // 500 characters, the longest kept, counted as characters (astral ones too), not bytes.
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .set('Change-Reason', utf8Header('🚀'.repeat(500)))
        .type('json')
        .serialize((bytes) => bytes)
        .send(asBytes({ ...record, description: 'written' }))
        .expect(200);
      const page = (await versions(uuid).expect(200)).body;
      expect(page.totalElements).toBe(2);
      expect(page.content[0].reason).toBe('🚀'.repeat(500));
    });

    it('refuses Change-Reason sent twice (Node would join the two into a reason nobody wrote), writing nothing', async () => {
      const uuid = await createConnector(sut, tenant, token);
      const record = recordOf((await get(uuid).expect(200)).body);
      for (const lines of [
        ['first', 'second'],
        ['first', ''],
      ]) {
        const res = await sut.http
          .put(`${base}/${uuid}`)
          .set(bearer(token))
          // One field line per item (Node's setHeader with an array); superagent's types allow an array for Cookie only.
          .set('Change-Reason', lines as unknown as string)
          .send({ ...record, description: 'never written' })
          .expect(400);
        expect(res.body.message).toEqual(['Change-Reason must be sent once: give one reason in one header']);
      }
      expect((await versions(uuid).expect(200)).body.totalElements).toBe(1);
    });
  });

  describe('revert to a version', () => {
    const revert = (uuid: string, version: number | string, headers: Record<string, string> = {}) =>
      sut.http.post(`${base}/${uuid}/versions/${version}/revert`).set(bearer(token)).set(headers);

    it('puts the record of an earlier version back as an update naming it, keeping the stored secret, with its reason and event', async () => {
      const consumer = await following();
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: 'secret-one', url: 'https://api.example.com/v1/forecast' }));
      const v1 = (await get(uuid).expect(200)).body;
      const record = recordOf(v1);
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...record, url: 'https://api.example.com/v1/forecast?days=3', description: 'three days', tags: [] })
        .expect(200);

      const res = await revert(uuid, 1, { 'If-Match': '"v2"', 'Change-Reason': 'The three-day forecast broke the FAQ flow' }).expect(200);

      expect(res.body).toEqual({ message: 'Rest connector reverted to version 1', data: uuid });
      expect(res.headers.etag).toBe('"v3"');
      const after = (await get(uuid).expect(200)).body;
      expect(recordOf(after)).toEqual(record);
      const stored = await sut.dataSource.query('SELECT bearer_token AS sealed FROM rest_connectors WHERE uuid = ?', [uuid]);
      expect(stored[0].sealed).not.toBeNull();
      expect((await versions(uuid).expect(200)).body.content[0]).toMatchObject({
        version: 3,
        operation: 'UPDATED',
        revertedTo: 1,
        reason: 'The three-day forecast broke the FAQ flow',
        changedFields: ['description', 'url', 'tags'],
      });
      const events = await eventsOf(consumer, uuid, 3);
      expect(events[2]).toMatchObject({ type: 'connector.updated.v1', version: 3, revertedTo: 1, reason: 'The three-day forecast broke the FAQ flow' });

      // Reverting to what it already is writes nothing.
      const again = await revert(uuid, 1).expect(200);
      expect(again.body.message).toBe('Rest connector unchanged');
      expect(again.headers.etag).toBe('"v3"');
    });

    it('is a 409 saying why when the version needs a secret no longer stored, 412 for a stale If-Match, 404 for what is not there', async () => {
      const uuid = await createConnector(sut, tenant, token, withBasicAuth());
      const record = recordOf((await get(uuid).expect(200)).body);
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...record, authType: 'AUTH_NONE', basicToken: null })
        .expect(200);

      const gone = await revert(uuid, 1).expect(409);
      expect(gone.body.message).toBe(
        `Rest connector ${uuid} cannot be reverted to version 1: basicToken must be the secret itself: <BASIC_TOKEN> only stands for a stored one, and none is stored. ` +
          'PUT the snapshot of version 1 with the secrets it needs sent again instead',
      );
      await revert(uuid, 1, { 'If-Match': '"v1"' }).expect(412);
      const missing = await revert(uuid, 9).expect(404);
      expect(missing.body).toEqual(errorBody(404, 'Not Found', `Rest connector ${uuid} has no version 9`, `${base}/${uuid}/versions/9/revert`));
      await revert(randomUUID(), 1).expect(404);
      await revert(uuid, 0).expect(400);
      await sut.http.post(`${base}/${uuid}/versions/1/revert`).set(bearer(reader)).expect(403);
      expect((await versions(uuid).expect(200)).body.totalElements).toBe(2);
    });
  });

  describe('diff of two versions', () => {
    const diff = (uuid: string, a: number | string, b: number | string) => sut.http.get(`${base}/${uuid}/versions/${a}/diff/${b}`).set(bearer(reader));

    it('lists the fields whose value differs, either way round, and a secret replaced between them only by its placeholder', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: 'first-secret-value' }));
      const record = recordOf((await get(uuid).expect(200)).body);
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...record, bearerToken: 'second-secret-value' })
        .expect(200);
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send({ ...record, description: 'now described', headers: [{ header: 'Accept', value: 'text/plain' }] })
        .expect(200);

      const forward = (await diff(uuid, 1, 3).expect(200)).body;
      expect(forward).toEqual({
        from: 1,
        to: 3,
        changes: [
          { field: 'description', from: record.description, to: 'now described' },
          { field: 'headers', from: record.headers, to: [{ header: 'Accept', value: 'text/plain' }] },
          { field: 'bearerToken', from: '<BEARER_TOKEN>', to: '<BEARER_TOKEN>' },
        ],
      });
      expect((await diff(uuid, 3, 1).expect(200)).body.changes.map(({ field }: { field: string }) => field)).toEqual(['description', 'headers', 'bearerToken']);
      expect((await diff(uuid, 2, 3).expect(200)).body.changes.map(({ field }: { field: string }) => field)).toEqual(['description', 'headers']);
      expect((await diff(uuid, 2, 2).expect(200)).body).toEqual({ from: 2, to: 2, changes: [] });
      expect(JSON.stringify(forward)).not.toMatch(/first-secret-value|second-secret-value/);
    });

    it('is a 404 for a version or a connector that is not there, a 400 for a number that is not a version', async () => {
      const uuid = await createConnector(sut, tenant, token);

      const missing = await diff(uuid, 1, 5).expect(404);
      expect(missing.body.message).toBe(`Rest connector ${uuid} has no version 5`);
      await diff(randomUUID(), 1, 2).expect(404);
      const bad = await diff(uuid, 1, 'x').expect(400);
      expect(bad.body.message).toEqual([expect.stringMatching(/^otherVersion must be a positive integer/)]);
    });
  });
});

import { AppConfig } from '@app/platform';
import { IdempotencyKey, RestConnector } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { aConnectorBody, createConnector } from './connector-factories';
import { startTenantApp } from '../support/tenant-app';

const statuses = (responses: Array<{ status: number }>) => responses.map((r) => r.status).sort();
const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

describe.each([
  ['MariaDB', () => mysqlTestConfig()],
  ['SQLite', () => sqliteTestConfig()],
] as Array<[string, () => AppConfig]>)('Concurrent writes (%s)', (_engine, config) => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, config(), { scope: 'connectors:write' })));
  afterAll(() => sut.close());

  const countNamed = async (name: string) =>
    (await sut.dataSource.getRepository(RestConnector).findBy({ botUuid: tenant.bot.uuid })).filter((c) => c.name === name).length;

  it('gives ten concurrent PUTs with the same If-Match one 200 and nine 412s', async () => {
    const uuid = await createConnector(sut, tenant, token);
    const etag = (await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200)).headers.etag;

    const responses = await times(10, (i) =>
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .set('If-Match', etag)
        .send(aConnectorBody({ name: `Edit ${i}` })),
    );

    expect(statuses(responses)).toEqual([200, ...Array(9).fill(412)]);
    const winner = responses.find((r) => r.status === 200)!;
    const stored = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
    expect(stored.headers.etag).toBe(winner.headers.etag);
    expect(stored.headers.etag).not.toBe(etag);
  });

  it('gives ten concurrent creates of one name one 201 and nine 409s', async () => {
    const name = `Race ${Date.now()}`;

    const responses = await times(10, () => sut.http.post(base).set(bearer(token)).send(aConnectorBody({ name })));

    expect(statuses(responses)).toEqual([201, ...Array(9).fill(409)]);
    expect(await countNamed(name)).toBe(1);
  });

  it('accepts names and tags that grow when lower-cased, and tells ß from ss', async () => {
    const name = 'İ'.repeat(100);
    const tags = [{ name: 'İ'.repeat(50) }, { name: 'ß' }, { name: 'ss' }];

    const res = await sut.http.post(base).set(bearer(token)).send(aConnectorBody({ name, tags })).expect(201);

    const stored = await sut.http.get(`${base}/${res.body.uuid}`).set(bearer(token)).expect(200);
    expect(stored.body).toMatchObject({ name, tags });
    await sut.http
      .post(base)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'İ'.repeat(50) }))
      .expect(201);
    await sut.http
      .post(base)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'İ'.repeat(50).toLowerCase() }))
      .expect(409);
  });

  describe('Idempotency-Key', () => {
    it('creates once for ten concurrent retries: the others replay the answer or are told to retry (409)', async () => {
      const body = aConnectorBody();
      const key = `burst-${Math.random()}`;

      const responses = await times(10, () => sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body));

      expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      const created = responses.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.body.uuid)).size).toBe(1);
      expect(await countNamed(body.name as string)).toBe(1);
      const retry = await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body).expect(201);
      expect(retry.body).toEqual(created[0].body);
      expect(retry.headers.location).toBe(created[0].headers.location);
    });

    it('keeps keys apart per caller', async () => {
      const key = `shared-${Math.random()}`;
      const other = await signToken({ sub: 'someone-else', scope: 'connectors:write' });

      const mine = await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(aConnectorBody()).expect(201);
      const theirs = await sut.http.post(base).set(bearer(other)).set('Idempotency-Key', key).send(aConnectorBody()).expect(201);

      expect(theirs.body.uuid).not.toBe(mine.body.uuid);
    });

    it('frees the key of a create that failed, so the corrected retry goes through', async () => {
      const key = `failing-${Math.random()}`;
      const body = aConnectorBody();
      await sut.http.post(base).set(bearer(token)).send(body).expect(201);

      await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body).expect(409);
      await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body).expect(409);
      const renamed = await sut.http
        .post(base)
        .set(bearer(token))
        .set('Idempotency-Key', key)
        .send({ ...body, name: `${body.name} 2` });

      expect(renamed.status).toBe(201);
    });

    it('treats an expired key as new', async () => {
      const key = `expired-${Math.random()}`;
      const body = aConnectorBody();
      const first = await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body).expect(201);
      await sut.dataSource.getRepository(IdempotencyKey).update({ idempotencyKey: key }, { expiresAt: new Date(Date.now() - 1000) });
      await sut.http.delete(`${base}/${first.body.uuid}`).set(bearer(token)).expect(204);

      const again = await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', key).send(body).expect(201);

      expect(again.body.uuid).not.toBe(first.body.uuid);
    });

    it('tells keys apart by case, and callers whose sub differs only in case', async () => {
      const lower = await signToken({ sub: 'casey', scope: 'connectors:write' });
      const upper = await signToken({ sub: 'Casey', scope: 'connectors:write' });
      const key = `Case-${Math.random()}`;

      const a = await sut.http.post(base).set(bearer(lower)).set('Idempotency-Key', key).send(aConnectorBody()).expect(201);
      const b = await sut.http.post(base).set(bearer(upper)).set('Idempotency-Key', key).send(aConnectorBody()).expect(201);
      const c = await sut.http.post(base).set(bearer(lower)).set('Idempotency-Key', key.toLowerCase()).send(aConnectorBody()).expect(201);

      expect(new Set([a.body.uuid, b.body.uuid, c.body.uuid]).size).toBe(3);
    });

    it('is 400 for a malformed key', async () => {
      const res = await sut.http.post(base).set(bearer(token)).set('Idempotency-Key', 'has spaces').send(aConnectorBody()).expect(400);

      expect(res.body.message).toEqual(['Idempotency-Key must be 1 to 255 visible ASCII characters']);
    });
  });
});

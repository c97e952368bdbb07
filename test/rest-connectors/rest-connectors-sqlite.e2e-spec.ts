import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aContentEntry, aFlow, importData, seedTenant, Tenant } from '../support/fixtures';
import { sqliteTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { bearer } from '../support/tokens';
import {
  aConnectorBody,
  ALICE,
  connectorInTrash,
  createConnector,
  errorBody,
  ISO_UTC_MILLIS,
  names,
  RECORD_KEYS,
  tenantPath,
  withBasicAuth,
} from './connector-factories';
import { startTenantApp } from '../support/tenant-app';

/** The embedded default: the same operations on a SQLite file, migrated on connect. */
describe('Rest connectors on SQLite', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, sqliteTestConfig(), ALICE)));
  afterAll(() => sut.close());

  it('creates (201, Location) and gets the full record with placeholders for secrets', async () => {
    const res = await sut.http
      .post(base)
      .set(bearer(token))
      .send(withBasicAuth({ name: '  Sqlite one ', tags: [{ name: 'Beta' }, { name: 'beta' }, { name: 'gamma' }] }))
      .expect(201);
    const uuid = res.body.uuid;
    const flow = aFlow(tenant.bot.uuid, { name: 'Checkout', connectors: [uuid] });
    await importData(sut.dataSource, { flows: [flow] });

    const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

    expect(res.headers.location).toBe(`${base}/${uuid}`);
    expect(Object.keys(read.body)).toEqual(RECORD_KEYS);
    expect(read.headers.etag).toEqual(expect.any(String));
    expect(read.body).toMatchObject({
      uuid,
      name: 'Sqlite one',
      authType: 'AUTH_BASIC',
      basicToken: '<BASIC_TOKEN>',
      bearerToken: null,
      tags: [{ name: 'Beta' }, { name: 'gamma' }],
      flows: [{ uuid: flow.uuid, name: 'Checkout' }],
      updatedAt: expect.stringMatching(ISO_UTC_MILLIS),
      updatedBy: 'alice',
    });
  });

  it('updates with a GET-then-PUT round trip, keeping the secret', async () => {
    const uuid = await createConnector(sut, tenant, token, withBasicAuth());
    const fetched = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

    const res = await sut.http
      .put(`${base}/${uuid}`)
      .set(bearer(token))
      .send({ ...fetched.body, description: 'edited', user: { username: 'x', image: null } })
      .expect(200);

    expect(res.body).toEqual({ message: 'Rest connector updated', data: uuid });
    const after = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
    expect(after.body).toMatchObject({ description: 'edited', basicToken: '<BASIC_TOKEN>' });
  });

  it('pages in Spring form, ordered by name case-insensitively, without repeats across pages', async () => {
    const own = await seedTenant(sut.dataSource);
    for (const name of ['delta', 'Bravo', 'alpha', 'Charlie', 'echo']) await createConnector(sut, own, token, { name });

    const first = await sut.http
      .get(`${tenantPath(own)}/pagination?orderBy=name&direction=asc&linesPerPage=2`)
      .set(bearer(token))
      .expect(200);
    const rest = await Promise.all(
      [2, 3].map((page) =>
        sut.http
          .get(`${tenantPath(own)}/pagination?orderBy=name&direction=asc&linesPerPage=2&page=${page}`)
          .set(bearer(token))
          .expect(200),
      ),
    );
    const past = await sut.http
      .get(`${tenantPath(own)}/pagination?page=4&linesPerPage=2`)
      .set(bearer(token))
      .expect(200);

    expect(first.body).toMatchObject({
      totalElements: 5,
      totalPages: 3,
      size: 2,
      number: 0,
      first: true,
      last: false,
      numberOfElements: 2,
      empty: false,
      sort: { sorted: true, unsorted: false, empty: false },
      pageable: { pageNumber: 0, pageSize: 2, offset: 0, paged: true, unpaged: false },
    });
    expect([first, ...rest].flatMap((res) => names(res.body.content))).toEqual(['alpha', 'Bravo', 'Charlie', 'delta', 'echo']);
    expect(past.body).toMatchObject({ content: [], totalElements: 5, totalPages: 3, empty: true, numberOfElements: 0 });
  });

  it('searches names and tags case-insensitively, with %, _ and \\ literal', async () => {
    const own = await seedTenant(sut.dataSource);
    await createConnector(sut, own, token, { name: '100%_sure\\x', tags: [] });
    await createConnector(sut, own, token, { name: 'Plain', tags: [{ name: 'Finance' }] });
    await createConnector(sut, own, token, { name: 'Other', tags: [] });
    const search = async (query: string) =>
      names(
        (
          await sut.http
            .get(`${tenantPath(own)}/pagination?orderBy=name&direction=ASC&${query}`)
            .set(bearer(token))
            .expect(200)
        ).body.content,
      );

    await expect(search('searchTerms=%25_')).resolves.toEqual(['100%_sure\\x']);
    await expect(search('searchTerms=%25')).resolves.toEqual(['100%_sure\\x']);
    await expect(search('searchTerms=_')).resolves.toEqual(['100%_sure\\x']);
    await expect(search('searchTerms=%5C')).resolves.toEqual(['100%_sure\\x']);
    await expect(search('searchTerms=FINANCE')).resolves.toEqual(['Plain']);
    await expect(search('searchTerms=finance,plain')).resolves.toEqual(['Plain']);
    await expect(search('searchTerms=finance&searchTerms=other')).resolves.toEqual([]);
  });

  it('suggests names starting with the term first, and lists with content', async () => {
    const own = await seedTenant(sut.dataSource);
    const uuids: Record<string, string> = {};
    for (const name of ['Forecast weather', 'weatherman', 'Weather']) uuids[name] = await createConnector(sut, own, token, { name });
    const content = [aContentEntry()];
    await importData(sut.dataSource, { connectorContent: { [uuids.Weather]: content } });

    const suggestions = await sut.http
      .get(`${tenantPath(own)}/quicksearch?searchTerm=WEATHER`)
      .set(bearer(token))
      .expect(200);
    const list = await sut.http
      .get(`${tenantPath(own)}/list`)
      .set(bearer(token))
      .expect(200);

    expect(suggestions.body).toEqual(['Weather', 'weatherman', 'Forecast weather']);
    expect(list.body.data.map((item: { name: string; content: unknown[] }) => [item.name, item.content])).toEqual([
      ['Forecast weather', []],
      ['Weather', content],
      ['weatherman', []],
    ]);
  });

  it('lists in the order of the page by name: by code point, a key before the longer keys it begins', async () => {
    const own = await seedTenant(sut.dataSource);
    for (const name of ['z', '\u{1D49C} script', 'a', '\uFB00 ligature', 'a\tb', 'É', 'A b']) await createConnector(sut, own, token, { name });

    const list = await sut.http
      .get(`${tenantPath(own)}/list`)
      .set(bearer(token))
      .expect(200);
    const page = await sut.http
      .get(`${tenantPath(own)}/pagination?orderBy=name&direction=ASC&linesPerPage=100`)
      .set(bearer(token))
      .expect(200);

    const expected = ['a', 'a\tb', 'A b', 'z', 'É', '\uFB00 ligature', '\u{1D49C} script'];
    expect(list.body.data.map((item: { name: string }) => item.name)).toEqual(expected);
    expect(names(page.body.content)).toEqual(expected);
  });

  it('is 409 for an active name in other case, and frees the name on delete', async () => {
    const uuid = await createConnector(sut, tenant, token, { name: 'Unique here' });

    const conflict = await sut.http
      .post(base)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'unique here ' }))
      .expect(409);
    await sut.http.delete(`${base}/${uuid}`).set(bearer(token)).expect(204);
    const got = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(404);
    await sut.http
      .post(base)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'unique here ' }))
      .expect(201);

    expect(conflict.body).toEqual(errorBody(409, 'Conflict', 'A rest connector named "unique here" already exists in this bot', base));
    expect(got.body.message).toMatch(connectorInTrash(tenant, uuid, 2));
  });

  it('validates the body, listing every failing field', async () => {
    const res = await sut.http
      .post(base)
      .set(bearer(token))
      .send(aConnectorBody({ requestType: 'FETCH', url: 'ftp://x', colour: 'red' }))
      .expect(400);

    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'requestType must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS; got "FETCH"',
        'colour is not a field of this body',
        expect.stringContaining('url'),
      ]),
    );
  });
});

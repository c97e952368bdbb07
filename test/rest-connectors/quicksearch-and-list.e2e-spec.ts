import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aContentEntry, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { ALICE, createConnector, errorBody, tenantPath } from './connector-factories';

describe('Rest connectors: quicksearch and list (MariaDB)', () => {
  let sut: TestApp;
  let token: string;

  /** GET …/quicksearch with a raw query string. */
  const quicksearch = (tenant: Tenant, query: string) => sut.http.get(`${tenantPath(tenant)}/quicksearch${query ? `?${query}` : ''}`).set(bearer(token));
  const suggest = async (tenant: Tenant, term: string, extra = '') => {
    const res = await quicksearch(tenant, `searchTerm=${encodeURIComponent(term)}${extra}`).expect(200);
    return res.body as string[];
  };

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig());
    token = await signToken(ALICE);
  });
  afterAll(() => sut.close());

  describe('GET /quicksearch', () => {
    let tenant: Tenant;

    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
      const other = await seedTenant(sut.dataSource);
      for (const name of ['Forecast weather', 'WEATHERSTATION', 'Snow', 'aweather', 'weatherman', 'Weather', '50% off']) {
        await createConnector(sut, tenant, token, { name, tags: [{ name: 'weather-tag' }] });
      }
      const deleted = await createConnector(sut, tenant, token, { name: 'weatherdeleted' });
      await sut.http
        .delete(`${tenantPath(tenant)}/${deleted}`)
        .set(bearer(token))
        .expect(204);
      await createConnector(sut, other, token, { name: 'weather of another bot' });
    });

    it('answers an array of names: those starting with the term first, then the rest, each alphabetical', async () => {
      await expect(suggest(tenant, 'weather')).resolves.toEqual(['Weather', 'weatherman', 'WEATHERSTATION', 'aweather', 'Forecast weather']);
    });

    it('matches case-insensitively', async () => {
      await expect(suggest(tenant, 'WeAtHeR')).resolves.toEqual(['Weather', 'weatherman', 'WEATHERSTATION', 'aweather', 'Forecast weather']);
    });

    it('matches names only, not tags', async () => {
      await expect(suggest(tenant, 'weather-tag')).resolves.toEqual([]);
    });

    it('leaves out deleted connectors and connectors of other bots', async () => {
      const found = await suggest(tenant, 'weather', '&limit=50');

      expect(found).not.toContain('weatherdeleted');
      expect(found).not.toContain('weather of another bot');
    });

    it('answers [] when nothing matches', async () => {
      await expect(suggest(tenant, 'hurricane')).resolves.toEqual([]);
    });

    it('treats % and _ in the term as literal characters', async () => {
      await expect(suggest(tenant, '%')).resolves.toEqual(['50% off']);
      await expect(suggest(tenant, '_')).resolves.toEqual([]);
    });

    it('limits the suggestions to 6 by default and to limit when given', async () => {
      const many = await seedTenant(sut.dataSource);
      const all = ['Lim a', 'Lim b', 'Lim c', 'Lim d', 'Lim e', 'Lim f', 'Lim g', 'Lim h'];
      for (const name of [...all].reverse()) await createConnector(sut, many, token, { name });

      await expect(suggest(many, 'lim')).resolves.toEqual(all.slice(0, 6));
      await expect(suggest(many, 'lim', '&limit=2')).resolves.toEqual(all.slice(0, 2));
      await expect(suggest(many, 'lim', '&limit=1')).resolves.toEqual(['Lim a']);
      await expect(suggest(many, 'lim', '&limit=50')).resolves.toEqual(all);
    });

    it('fills the limit with names starting with the term before the others', async () => {
      await expect(suggest(tenant, 'weather', '&limit=2')).resolves.toEqual(['Weather', 'weatherman']);
    });

    it.each([
      ['no searchTerm', '', 'searchTerm'],
      ['an empty searchTerm', 'searchTerm=', 'searchTerm'],
      ['a blank searchTerm', 'searchTerm=%20%20', 'searchTerm'],
      ['limit=0', 'searchTerm=a&limit=0', 'limit'],
      ['limit=51', 'searchTerm=a&limit=51', 'limit'],
      ['limit=abc', 'searchTerm=a&limit=abc', 'limit'],
    ])('is 400 naming the parameter for %s', async (_, query, parameter) => {
      const res = await quicksearch(tenant, query).expect(400);

      expect(res.body).toEqual(
        errorBody(
          400,
          'Bad Request',
          expect.arrayContaining([expect.stringContaining(parameter)]),
          `${tenantPath(tenant)}/quicksearch${query ? `?${query}` : ''}`,
        ),
      );
    });
  });

  describe('GET /list', () => {
    it('answers { data } with every active connector of the bot ordered by name, content or []', async () => {
      const tenant = await seedTenant(sut.dataSource);
      const other = await seedTenant(sut.dataSource);
      const bravo = await createConnector(sut, tenant, token, { name: 'bravo', tags: [{ name: 'b2' }, { name: 'B1' }] });
      const alpha = await createConnector(sut, tenant, token, { name: 'Alpha', tags: [] });
      const charlie = await createConnector(sut, tenant, token, { name: 'Charlie' });
      const deleted = await createConnector(sut, tenant, token, { name: 'Deleted one' });
      await sut.http
        .delete(`${tenantPath(tenant)}/${deleted}`)
        .set(bearer(token))
        .expect(204);
      await createConnector(sut, other, token, { name: 'Another bot' });
      const content = [aContentEntry(), aContentEntry({ urlRedirect: false, buttonUrl: undefined })];
      await importData(sut.dataSource, { connectorContent: { [alpha]: content, [charlie]: [] } });

      const res = await sut.http
        .get(`${tenantPath(tenant)}/list`)
        .set(bearer(token))
        .expect(200);

      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data.map((item: object) => Object.keys(item).sort())).toEqual([
        ['content', 'name', 'tags', 'uuid'],
        ['content', 'name', 'tags', 'uuid'],
        ['content', 'name', 'tags', 'uuid'],
      ]);
      expect(res.body).toEqual({
        data: [
          { uuid: alpha, name: 'Alpha', tags: [], content },
          { uuid: bravo, name: 'bravo', tags: [{ name: 'b2' }, { name: 'B1' }], content: [] },
          { uuid: charlie, name: 'Charlie', tags: [{ name: 'alpha' }], content: [] },
        ],
      });
    });

    it('orders as the page ordered by name does, by code point after padding with spaces (utf8mb4_bin)', async () => {
      const tenant = await seedTenant(sut.dataSource);
      // TAB sorts below the padding space; U+1D49C is above U+FB00 by code point, below it by UTF-16 code unit.
      for (const name of ['z', '\u{1D49C} script', 'a', '\uFB00 ligature', 'a\tb', 'É', 'A b']) await createConnector(sut, tenant, token, { name });

      const list = await sut.http
        .get(`${tenantPath(tenant)}/list`)
        .set(bearer(token))
        .expect(200);
      const page = await sut.http
        .get(`${tenantPath(tenant)}/pagination?orderBy=name&direction=ASC&linesPerPage=100`)
        .set(bearer(token))
        .expect(200);

      const expected = ['a\tb', 'a', 'A b', 'z', 'É', '\uFB00 ligature', '\u{1D49C} script'];
      expect(list.body.data.map((item: { name: string }) => item.name)).toEqual(expected);
      expect(page.body.content.map((item: { name: string }) => item.name)).toEqual(expected);
    });

    it('answers { data: [] } for a bot without connectors', async () => {
      const tenant = await seedTenant(sut.dataSource);

      await sut.http
        .get(`${tenantPath(tenant)}/list`)
        .set(bearer(token))
        .expect(200, { data: [] });
    });

    it('shows the new name and tags after an update', async () => {
      const tenant = await seedTenant(sut.dataSource);
      const uuid = await createConnector(sut, tenant, token, { name: 'Before' });
      const record = await sut.http
        .get(`${tenantPath(tenant)}/${uuid}`)
        .set(bearer(token))
        .expect(200);
      await sut.http
        .put(`${tenantPath(tenant)}/${uuid}`)
        .set(bearer(token))
        .send({ ...record.body, name: 'After', tags: [{ name: 'updated' }] })
        .expect(200);

      const res = await sut.http
        .get(`${tenantPath(tenant)}/list`)
        .set(bearer(token))
        .expect(200);

      expect(res.body.data).toEqual([{ uuid, name: 'After', tags: [{ name: 'updated' }], content: [] }]);
    });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aFlow, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { ALICE, createConnector, errorBody, ISO_UTC_MILLIS, names, tenantPath } from './connector-factories';

const PAGE_KEYS = ['content', 'pageable', 'totalPages', 'totalElements', 'last', 'size', 'number', 'sort', 'numberOfElements', 'first', 'empty'].sort();
const SORT = { sorted: true, unsorted: false, empty: false };

interface PageItem {
  uuid: string;
  name: string;
}

describe('Rest connectors: pagination (MariaDB)', () => {
  let sut: TestApp;
  let token: string;

  /** GET …/pagination with a raw query string, so repeated and comma-separated terms are sent as written. */
  const page = (tenant: Tenant, query = '') => sut.http.get(`${tenantPath(tenant)}/pagination${query ? `?${query}` : ''}`).set(bearer(token));
  const term = (value: string) => `searchTerms=${encodeURIComponent(value)}`;

  /** Creates connectors one after the other, a few milliseconds apart, so updatedAt orders them. */
  async function createInOrder(tenant: Tenant, writer: string, bodies: Array<Record<string, unknown>>) {
    const uuids: string[] = [];
    for (const body of bodies) {
      uuids.push(await createConnector(sut, tenant, writer, body));
      await sleep(5);
    }
    return uuids;
  }

  async function walk(tenant: Tenant, query: string) {
    const seen: string[] = [];
    const first = await page(tenant, `${query}&page=1&linesPerPage=2`).expect(200);
    for (let number = 1; number <= first.body.totalPages; number++) {
      const res = await page(tenant, `${query}&page=${number}&linesPerPage=2`).expect(200);
      seen.push(...res.body.content.map((item: PageItem) => item.uuid));
    }
    return seen;
  }

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig());
    token = await signToken(ALICE);
  });
  afterAll(() => sut.close());

  describe('the page object', () => {
    let tenant: Tenant;
    let created: string[];

    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
      created = await createInOrder(
        tenant,
        token,
        ['one', 'two', 'three', 'four', 'five'].map((name) => ({ name })),
      );
    });

    it('follows Spring Data Page for a middle page', async () => {
      const res = await page(tenant, 'page=2&linesPerPage=2').expect(200);

      expect(Object.keys(res.body).sort()).toEqual(PAGE_KEYS);
      expect(Object.keys(res.body.pageable).sort()).toEqual(['offset', 'pageNumber', 'pageSize', 'paged', 'sort', 'unpaged']);
      expect(res.body).toEqual({
        content: expect.any(Array),
        pageable: { pageNumber: 1, pageSize: 2, offset: 2, paged: true, unpaged: false, sort: SORT },
        totalPages: 3,
        totalElements: 5,
        last: false,
        size: 2,
        number: 1,
        sort: SORT,
        numberOfElements: 2,
        first: false,
        empty: false,
      });
      expect(res.body.content).toHaveLength(2);
    });

    it('marks the first and the last page', async () => {
      const first = await page(tenant, 'page=1&linesPerPage=2').expect(200);
      const last = await page(tenant, 'page=3&linesPerPage=2').expect(200);

      expect(first.body).toMatchObject({ first: true, last: false, number: 0, numberOfElements: 2 });
      expect(first.body.pageable).toMatchObject({ pageNumber: 0, offset: 0 });
      expect(last.body).toMatchObject({ first: false, last: true, number: 2, numberOfElements: 1, empty: false });
      expect(last.body.pageable).toMatchObject({ pageNumber: 2, pageSize: 2, offset: 4 });
    });

    it('defaults to page 1, 5 lines, most recently updated first', async () => {
      const res = await page(tenant).expect(200);

      expect(res.body).toMatchObject({ number: 0, size: 5, totalElements: 5, totalPages: 1, first: true, last: true });
      expect(res.body.content.map((item: PageItem) => item.uuid)).toEqual([...created].reverse());
    });

    it('answers a page past the end with empty content and the true totals', async () => {
      const res = await page(tenant, 'page=9&linesPerPage=2').expect(200);

      expect(res.body).toMatchObject({
        content: [],
        totalElements: 5,
        totalPages: 3,
        number: 8,
        size: 2,
        numberOfElements: 0,
        empty: true,
        first: false,
      });
      expect(res.body.pageable).toMatchObject({ pageNumber: 8, offset: 16 });
    });

    it('answers an empty bot with an empty first page', async () => {
      const empty = await seedTenant(sut.dataSource);

      const res = await page(empty).expect(200);

      expect(res.body).toMatchObject({ content: [], totalElements: 0, totalPages: 0, numberOfElements: 0, empty: true, first: true });
    });

    it('moves an updated connector to the front of the default order', async () => {
      const record = (await sut.http.get(`${tenantPath(tenant)}/${created[0]}`).set(bearer(token))).body;
      // An update that changes a field: one that changes nothing writes nothing, updatedAt included.
      await sut.http
        .put(`${tenantPath(tenant)}/${created[0]}`)
        .set(bearer(token))
        .send({ ...record, description: `${record.description ?? ''} (edited)` })
        .expect(200);

      const res = await page(tenant, 'linesPerPage=1').expect(200);

      expect(res.body.content[0].uuid).toBe(created[0]);
    });
  });

  describe('page items', () => {
    it('carry uuid, name, flows, tags, updatedAt, updatedBy and the writer as user', async () => {
      const tenant = await seedTenant(sut.dataSource);
      const uuid = await createConnector(sut, tenant, token, { name: 'Item shape', tags: [{ name: 'Zeta' }, { name: 'alpha' }] });
      const flowB = aFlow(tenant.bot.uuid, { name: 'b-flow', connectors: [uuid] });
      const flowA = aFlow(tenant.bot.uuid, { name: 'A-flow', connectors: [uuid] });
      await importData(sut.dataSource, { flows: [flowB, flowA] });

      const res = await page(tenant).expect(200);

      expect(res.body.content).toHaveLength(1);
      expect(Object.keys(res.body.content[0]).sort()).toEqual(['flows', 'name', 'tags', 'updatedAt', 'updatedBy', 'user', 'uuid']);
      expect(res.body.content[0]).toEqual({
        uuid,
        name: 'Item shape',
        flows: [
          { uuid: flowA.uuid, name: 'A-flow' },
          { uuid: flowB.uuid, name: 'b-flow' },
        ],
        tags: [{ name: 'Zeta' }, { name: 'alpha' }],
        updatedAt: expect.stringMatching(ISO_UTC_MILLIS),
        updatedBy: 'alice',
        user: { username: 'alice', image: 'https://img.example.com/alice.png' },
      });
    });

    it('show image null for a writer without a picture claim, and agree with the record', async () => {
      const tenant = await seedTenant(sut.dataSource);
      const writer = await signToken({ scope: 'connectors:write', preferred_username: 'pat' });
      const uuid = await createConnector(sut, tenant, writer);

      const res = await page(tenant).expect(200);
      const record = await sut.http
        .get(`${tenantPath(tenant)}/${uuid}`)
        .set(bearer(token))
        .expect(200);

      expect(res.body.content[0]).toMatchObject({ updatedBy: 'pat', user: { username: 'pat', image: null } });
      expect(res.body.content[0].updatedAt).toBe(record.body.updatedAt);
    });
  });

  describe('ordering', () => {
    let tenant: Tenant;
    let byName: Record<string, string>;

    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
      const writers = await Promise.all(['carol', 'alice', 'bob'].map((username) => signToken({ scope: 'connectors:write', username })));
      const specs = [
        ['bravo', 0],
        ['Alpha', 1],
        ['charlie', 2],
        ['Delta', 1],
        ['echo', 0],
      ] as const;
      byName = {};
      for (const [name, writer] of specs) {
        byName[name] = await createConnector(sut, tenant, writers[writer], { name });
        await sleep(5);
      }
    });

    it('orders by name case-insensitively, ascending', async () => {
      const res = await page(tenant, 'orderBy=name&direction=ASC&linesPerPage=10').expect(200);

      expect(names(res.body.content)).toEqual(['Alpha', 'bravo', 'charlie', 'Delta', 'echo']);
    });

    it('orders by name descending', async () => {
      const res = await page(tenant, 'orderBy=name&direction=DESC&linesPerPage=10').expect(200);

      expect(names(res.body.content)).toEqual(['echo', 'Delta', 'charlie', 'bravo', 'Alpha']);
    });

    it('takes direction and orderBy in any case, as every value of a query parameter from a fixed list', async () => {
      const lower = await page(tenant, 'orderBy=name&direction=asc&linesPerPage=10').expect(200);
      const mixed = await page(tenant, 'orderBy=NAME&direction=Desc&linesPerPage=10').expect(200);
      const camel = await page(tenant, 'orderBy=UPDATEDAT&direction=asc&linesPerPage=10').expect(200);

      expect(names(lower.body.content)).toEqual(['Alpha', 'bravo', 'charlie', 'Delta', 'echo']);
      expect(names(mixed.body.content)).toEqual(['echo', 'Delta', 'charlie', 'bravo', 'Alpha']);
      expect(names(camel.body.content)).toEqual(['bravo', 'Alpha', 'charlie', 'Delta', 'echo']);
    });

    it('orders by updatedAt ascending (oldest first)', async () => {
      const res = await page(tenant, 'orderBy=updatedAt&direction=ASC&linesPerPage=10').expect(200);

      expect(names(res.body.content)).toEqual(['bravo', 'Alpha', 'charlie', 'Delta', 'echo']);
    });

    it('orders by updatedBy', async () => {
      const asc = await page(tenant, 'orderBy=updatedBy&direction=ASC&linesPerPage=10').expect(200);
      const desc = await page(tenant, 'orderBy=updatedBy&direction=DESC&linesPerPage=10').expect(200);

      expect(asc.body.content.map((item: { updatedBy: string }) => item.updatedBy)).toEqual(['alice', 'alice', 'bob', 'carol', 'carol']);
      expect(desc.body.content.map((item: { updatedBy: string }) => item.updatedBy)).toEqual(['carol', 'carol', 'bob', 'alice', 'alice']);
    });

    it.each(['name', 'updatedAt', 'updatedBy'])('echoes a sorted sort object for orderBy=%s', async (orderBy) => {
      const res = await page(tenant, `orderBy=${orderBy}`).expect(200);

      expect(res.body.sort).toEqual(SORT);
      expect(res.body.pageable.sort).toEqual(SORT);
    });
  });

  describe('ties are broken by uuid', () => {
    let tenant: Tenant;
    let all: string[];

    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
      // One writer, created in parallel: updatedBy ties everywhere, updatedAt ties likely.
      all = [];
      for (let batch = 0; batch < 3; batch++) {
        all.push(...(await Promise.all(Array.from({ length: 4 }, () => createConnector(sut, tenant, token)))));
      }
    });

    it.each([
      ['updatedBy', 'ASC'],
      ['updatedBy', 'DESC'],
      ['updatedAt', 'ASC'],
      ['updatedAt', 'DESC'],
      ['name', 'ASC'],
      ['name', 'DESC'],
    ])('walking every page of orderBy=%s %s with 2 lines visits each connector exactly once', async (orderBy, direction) => {
      const seen = await walk(tenant, `orderBy=${orderBy}&direction=${direction}`);

      expect(seen).toHaveLength(all.length);
      expect([...seen].sort()).toEqual([...all].sort());
    });

    it('returns the same order for the same query every time', async () => {
      const once = await page(tenant, 'orderBy=updatedBy&linesPerPage=100').expect(200);
      const twice = await page(tenant, 'orderBy=updatedBy&linesPerPage=100').expect(200);

      expect(twice.body.content).toEqual(once.body.content);
    });
  });

  describe('searchTerms', () => {
    let tenant: Tenant;
    const WILD = '100%_sure\\x';
    const ALL = ['100%_sure\\x', "O'Brien lookup", 'Payments', 'Rainfall', 'Stock Quotes', 'Weather Forecast'];

    const search = async (query: string) => {
      const res = await page(tenant, `orderBy=name&direction=ASC&linesPerPage=100&${query}`).expect(200);
      expect(res.body.totalElements).toBe(res.body.content.length);
      return names(res.body.content);
    };

    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
      const other = await seedTenant(sut.dataSource);
      const specs: Array<[string, string[]]> = [
        ['Weather Forecast', ['Weather', 'External']],
        ['Stock Quotes', ['finance', 'external']],
        ['Payments', ['Finance']],
        [WILD, []],
        ['Rainfall', ['weather']],
        ["O'Brien lookup", []],
      ];
      for (const [name, tags] of specs) {
        await createConnector(sut, tenant, token, { name, tags: tags.map((tag) => ({ name: tag })) });
      }
      await createConnector(sut, other, token, { name: 'Weather elsewhere', tags: [{ name: 'external' }] });
    });

    it('matches a term in the name or in a tag', async () => {
      await expect(search(term('weather'))).resolves.toEqual(['Rainfall', 'Weather Forecast']);
    });

    it('matches a term found only in tags', async () => {
      await expect(search(term('external'))).resolves.toEqual(['Stock Quotes', 'Weather Forecast']);
    });

    it('matches case-insensitively, on part of a word', async () => {
      await expect(search(term('EXTERN'))).resolves.toEqual(['Stock Quotes', 'Weather Forecast']);
      await expect(search(term('fOrEc'))).resolves.toEqual(['Weather Forecast']);
    });

    it('requires every repeated term to match', async () => {
      await expect(search(`${term('external')}&${term('finance')}`)).resolves.toEqual(['Stock Quotes']);
      await expect(search(`${term('forecast')}&${term('external')}`)).resolves.toEqual(['Weather Forecast']);
      await expect(search(`${term('payments')}&${term('external')}`)).resolves.toEqual([]);
    });

    it('splits comma-separated terms, every one of them required', async () => {
      await expect(search('searchTerms=external,finance')).resolves.toEqual(['Stock Quotes']);
      await expect(search(`${term('external,finance')}`)).resolves.toEqual(['Stock Quotes']);
    });

    it('ignores blank terms', async () => {
      await expect(search('searchTerms=&searchTerms=%20%20')).resolves.toEqual(ALL);
      await expect(search('searchTerms=finance,,%20')).resolves.toEqual(['Payments', 'Stock Quotes']);
    });

    it('reports the filtered totals', async () => {
      const res = await page(tenant, `${term('finance')}&linesPerPage=1`).expect(200);

      expect(res.body).toMatchObject({ totalElements: 2, totalPages: 2, numberOfElements: 1 });
    });

    it('treats % and _ as literal characters', async () => {
      await expect(search(term('%_'))).resolves.toEqual([WILD]);
      await expect(search(term('%'))).resolves.toEqual([WILD]);
      await expect(search(term('_'))).resolves.toEqual([WILD]);
      await expect(search(term('r_f'))).resolves.toEqual([]);
      await expect(search(term('s%s'))).resolves.toEqual([]);
    });

    it('treats \\ as a literal character', async () => {
      await expect(search(term('\\'))).resolves.toEqual([WILD]);
      await expect(search(term('sure\\x'))).resolves.toEqual([WILD]);
      await expect(search(term('\\%'))).resolves.toEqual([]);
    });

    it('matches a quote as a plain character', async () => {
      await expect(search(term("o'b"))).resolves.toEqual(["O'Brien lookup"]);
      await expect(search(term("' OR '1'='1"))).resolves.toEqual([]);
    });

    it('finds nothing of another bot', async () => {
      await expect(search(term('elsewhere'))).resolves.toEqual([]);
    });
  });

  describe('invalid parameters', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await seedTenant(sut.dataSource);
    });

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['linesPerPage=0', 'linesPerPage'],
      ['linesPerPage=101', 'linesPerPage'],
      ['linesPerPage=ten', 'linesPerPage'],
      ['orderBy=uuid', 'orderBy'],
      ['orderBy=name;DROP', 'orderBy'],
      ['direction=sideways', 'direction'],
    ])('is 400 naming the parameter for %s', async (query, parameter) => {
      const res = await page(tenant, query).expect(400);

      expect(res.body).toEqual(
        errorBody(400, 'Bad Request', expect.arrayContaining([expect.stringContaining(parameter)]), `${tenantPath(tenant)}/pagination?${query}`),
      );
    });

    it('lists every invalid parameter at once', async () => {
      const res = await page(tenant, 'page=0&linesPerPage=101&orderBy=uuid&direction=sideways').expect(400);

      expect(res.body.message).toEqual(expect.arrayContaining(['page', 'linesPerPage', 'orderBy', 'direction'].map((p) => expect.stringContaining(p))));
    });

    it('accepts the bounds: page 1 and linesPerPage 1 and 100', async () => {
      await page(tenant, 'page=1&linesPerPage=1').expect(200);
      await page(tenant, 'page=1&linesPerPage=100').expect(200);
    });
  });
});

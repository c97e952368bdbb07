import { ServerConnection } from '@app/domain';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aContentEntry, aFlow, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { ALICE, createConnector, tenantPath } from './connector-factories';
import { PAUSED_RELAY } from '../connector-events/relay-timing';

const CONNECTORS = 100;

/** No N+1: the SQL a read runs does not grow with the number of connectors it returns. */
describe('Rest connectors: number of SQL queries per read (MariaDB)', () => {
  let sut: TestApp;
  let token: string;
  let crowded: Tenant;
  let lonely: Tenant;
  /** The crowded tenant's connectors, in the order they were created. */
  let uuids: string[];
  let spy: jest.SpyInstance;

  /** Number of SQL statements the app ran while answering `path` (after one warm-up call). */
  async function queriesFor(path: string): Promise<{ count: number; body: any }> {
    await sut.http.get(path).set(bearer(token)).expect(200);
    spy.mockClear();
    const res = await sut.http.get(path).set(bearer(token)).expect(200);
    return { count: spy.mock.calls.length, body: res.body };
  }

  async function seedConnectors(tenant: Tenant, count: number) {
    const uuids: string[] = [];
    for (let start = 0; start < count; start += 10) {
      const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) =>
        createConnector(sut, tenant, token, {
          name: `Connector ${String(start + i).padStart(3, '0')}`,
          tags: [{ name: `tag-${start + i}` }, { name: 'shared' }],
        }),
      );
      uuids.push(...(await Promise.all(batch)));
    }
    await importData(sut.dataSource, {
      flows: [
        ...uuids.map((uuid, i) => aFlow(tenant.bot.uuid, { name: `Flow ${i}`, connectors: [uuid] })),
        aFlow(tenant.bot.uuid, { name: 'Shared flow', connectors: uuids }),
      ],
      connectorContent: Object.fromEntries(uuids.map((uuid) => [uuid, [aContentEntry()]])),
    });
    return uuids;
  }

  beforeAll(async () => {
    // The change events relay runs its statements in the background: paused here, so that only the request's are counted.
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig(), { providers: [PAUSED_RELAY] });
    token = await signToken(ALICE);
    crowded = await seedTenant(sut.dataSource);
    lonely = await seedTenant(sut.dataSource);
    uuids = await seedConnectors(crowded, CONNECTORS);
    await seedConnectors(lonely, 1);
    // Every statement the app sends to MySQL goes through a ServerConnection of the Database's pools.
    spy = jest.spyOn(ServerConnection.prototype, 'query');
  }, 120_000);
  afterAll(async () => {
    spy?.mockRestore();
    await sut.close();
  });

  it('counts the queries of a request at all', async () => {
    const { count } = await queriesFor(`${tenantPath(crowded)}/pagination?linesPerPage=1`);

    expect(count).toBeGreaterThan(0);
  });

  it('reads one connector with its tags and flows in one statement', async () => {
    const [uuid] = uuids;
    const { count, body } = await queriesFor(`${tenantPath(crowded)}/${uuid}`);

    expect(count).toBe(1);
    expect(body.tags).toEqual([{ name: 'tag-0' }, { name: 'shared' }]);
    expect(body.flows.map((flow: { name: string }) => flow.name)).toEqual(['Flow 0', 'Shared flow']);
  });

  it.each(['updatedAt', 'name', 'updatedBy'])(
    'runs as many queries for a page of 100 connectors with tags and flows as for a page of 1 (orderBy=%s)',
    async (orderBy) => {
      const one = await queriesFor(`${tenantPath(crowded)}/pagination?orderBy=${orderBy}&linesPerPage=1`);
      const hundred = await queriesFor(`${tenantPath(crowded)}/pagination?orderBy=${orderBy}&linesPerPage=100`);

      expect(hundred.body.content).toHaveLength(CONNECTORS);
      for (const item of hundred.body.content) {
        expect(item.tags).toHaveLength(2);
        expect(item.flows).toHaveLength(2);
      }
      expect(hundred.count).toBe(one.count);
    },
  );

  it('runs as many queries for a filtered page of 100 as for a filtered page of 1', async () => {
    const one = await queriesFor(`${tenantPath(crowded)}/pagination?searchTerms=shared&searchTerms=connector&linesPerPage=1`);
    const hundred = await queriesFor(`${tenantPath(crowded)}/pagination?searchTerms=shared&searchTerms=connector&linesPerPage=100`);

    expect(hundred.body.totalElements).toBe(CONNECTORS);
    expect(hundred.count).toBe(one.count);
  });

  it('reads nothing of the environment for a create that names no {{env.NAME}}, and reads it for one that does', async () => {
    const own = await seedTenant(sut.dataSource);
    const environmentReads = () => spy.mock.calls.filter(([sql]) => String(sql).includes('connector_variable')).length;
    spy.mockClear();
    await createConnector(sut, own, token, { name: 'Plain create' });
    const plain = environmentReads();
    spy.mockClear();
    await createConnector(sut, own, token, { name: 'Create from the environment', url: '{{env.BASE_URL}}/items' });
    const referring = environmentReads();

    expect({ plain, referring: referring > 0 }).toEqual({ plain: 0, referring: true });
  });

  it('lists the connectors with their tags and content in one statement', async () => {
    const { count, body } = await queriesFor(`${tenantPath(crowded)}/list`);

    expect(count).toBe(1);
    expect(body.data[0]).toMatchObject({ name: 'Connector 000', tags: [{ name: 'tag-0' }, { name: 'shared' }] });
  });

  it('runs as many queries to list 100 connectors with content as to list 1', async () => {
    const one = await queriesFor(`${tenantPath(lonely)}/list`);
    const hundred = await queriesFor(`${tenantPath(crowded)}/list`);

    expect(one.body.data).toHaveLength(1);
    expect(hundred.body.data).toHaveLength(CONNECTORS);
    expect(hundred.body.data.every((item: { content: unknown[]; tags: unknown[] }) => item.content.length === 1 && item.tags.length === 2)).toBe(true);
    expect(hundred.count).toBe(one.count);
  });

  it('runs as many queries for the suggestions of 50 names as for 1', async () => {
    const one = await queriesFor(`${tenantPath(crowded)}/quicksearch?searchTerm=connector&limit=1`);
    const fifty = await queriesFor(`${tenantPath(crowded)}/quicksearch?searchTerm=connector&limit=50`);

    expect(fifty.body).toHaveLength(50);
    expect(fifty.count).toBe(one.count);
  });
});

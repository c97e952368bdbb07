import type { Server as BenchServer } from '../../bench/processes';
import type { Scenario } from '../../bench/scenarios';
import type { Fixtures } from '../../bench/database';
import { AGAINST_FAR_SIDE, OPERATIONS } from '../../bench/args';
import { DENORMALIZED_OPS } from '../../bench/report';
import { createConnection } from 'mysql2/promise';
import { dropDatabase, TEST_MYSQL_SERVER } from '../support/test-database';

/**
 * The bench's floor must do the app's work: for one request of every operation of `npm run bench`,
 * the raw baseline (bench/baseline-server.js) and the built app, on the bench's own 1k data set (seeded
 * by the bench into a database of its own), answer with the same status and a body of the same shape; a read
 * with the very same body; and the denormalized floor (FLOOR=denormalized) the reads it serves with the very same body.
 * No load and no timing: this is not a bench run.
 */
describe('bench: the raw baseline answers every operation as the app does', () => {
  const prefix = `platform_bench_parity_${process.pid}`;
  const servers: BenchServer[] = [];
  let fixtures: Fixtures;
  let plan: Scenario[];
  let probe: typeof import('../../bench/scenarios').probe;
  let tokens: string[];
  const byName = new Map<string, BenchServer>();

  beforeAll(async () => {
    // Read when bench/database is loaded: its own database, on the tests' server.
    process.env.BENCH_DATABASE_PREFIX = prefix;
    process.env.BENCH_MYSQL_SERVER = TEST_MYSQL_SERVER;
    const database = await import('../../bench/database');
    const processes = await import('../../bench/processes');
    const scenarios = await import('../../bench/scenarios');
    probe = scenarios.probe;
    ({ fixtures } = await database.prepareDatabase('1k', false, () => undefined));
    plan = scenarios.scenarios(fixtures, { ops: [...OPERATIONS], connections: 1, writeConnections: 1 } as never);
    tokens = [await processes.benchToken(fixtures.organization, 1)];
    const url = database.databaseUrlOf('1k');
    for (const app of new Set(plan.map((s) => s.app))) {
      const server = await processes.startApp(app, url);
      servers.push(server);
      byName.set(app, server);
    }
    const baseline = await processes.startBaseline(url);
    servers.push(baseline);
    byName.set('baseline', baseline);
    const denormalized = await processes.startBaseline(url, 'denormalized');
    servers.push(denormalized);
    byName.set('denormalized', denormalized);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await dropDatabase(`${prefix}_1k`);
  });

  // The test run's floor is its far side, not the baseline (bench/test-run-bench.ts).
  it.each(OPERATIONS.filter((op) => !AGAINST_FAR_SIDE.includes(op)))('%s', async (op) => {
    const scenario = plan.find((s) => s.op === op)!;
    const request = scenario.next();
    const app = await probe(scenario, byName.get(scenario.app)!.port, tokens[0], request);
    // A create needs a name of its own, a delete a connector of its own; every other request is the very same.
    const own = scenario.method === 'POST' || scenario.method === 'DELETE';
    const baseline = await probe(scenario, byName.get('baseline')!.port, tokens[0], own ? undefined : request);

    expect(app.status).toBe({ create: 201, delete: 204 }[op as string] ?? 200);
    // A read answers the very same JSON, order included; a write's answer differs in its own values (names, times).
    if (scenario.method === 'GET') expect(baseline).toEqual(app);
    else expect({ status: baseline.status, shape: baseline.shape }).toEqual({ status: app.status, shape: app.shape });
  });

  // The denormalized floor reads its own copy (bench/database.ts): the very same JSON as the app's, order included.
  it.each(DENORMALIZED_OPS)('%s from the denormalized floor', async (op) => {
    const scenario = plan.find((s) => s.op === op)!;
    const request = scenario.next();
    const app = await probe(scenario, byName.get(scenario.app)!.port, tokens[0], request);
    const denormalized = await probe(scenario, byName.get('denormalized')!.port, tokens[0], request);

    expect(app.status).toBe(200);
    expect(denormalized).toEqual(app);
  });

  it("records a version for each of the baseline's writes, as the app does: every connector's current version is in the history, with its name", async () => {
    const db = await createConnection({ uri: `${TEST_MYSQL_SERVER}/${prefix}_1k` });
    try {
      const [missing] = await db.query(
        'SELECT c.uuid, c.version FROM rest_connectors c LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version ' +
          "WHERE v.connector_uuid IS NULL OR JSON_VALUE(v.snapshot, '$.name') <> c.name",
      );

      expect(missing).toEqual([]);
    } finally {
      await db.end();
    }
  });
});

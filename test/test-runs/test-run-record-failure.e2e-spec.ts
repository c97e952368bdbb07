import { parseServerUrl } from '@app/platform';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { aConnectorBody, ALICE, createConnector, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { bearer, signToken } from '../support/tokens';
import { requestIds, startRunsApp } from './run-records';

// A file of its own: the table is taken away from a database of its own, and the warning is read from the log of
// the file's first app (nestjs-pino's loggers write to the first app a process starts).
describe('A database that fails to record a test run (a MariaDB database of its own)', () => {
  const name = uniqueDatabaseName('platform_test_run_records');
  let sut: TestApp;
  let side: FarSide;

  beforeAll(async () => {
    sut = await startRunsApp({ ...mysqlTestConfig(), database: parseServerUrl(await createMigratedDatabase(name)) });
    side = await farSide();
  });
  afterAll(async () => {
    await side?.close();
    await sut?.close();
    await dropDatabase(name);
  });

  it('still answers the run, whole, and says in a warning that it was not recorded', async () => {
    const tenant = await seedTenant(sut.dataSource);
    const writer = await signToken(ALICE);
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/items`, output: '$.data.level' }));
    const run = (requestId: string) =>
      sut.http
        .post(`${tenantPath(tenant)}/${uuid}/test`)
        .set(bearer(writer))
        .set('X-Request-Id', requestId)
        .send({});
    const recorded = (await run('db-up-1').expect(200)).body;

    await sut.dataSource.query('RENAME TABLE connector_test_runs TO connector_test_runs_away');
    let unrecorded: Record<string, unknown>;
    try {
      unrecorded = (await run('db-failing').expect(200)).body;
    } finally {
      await sut.dataSource.query('RENAME TABLE connector_test_runs_away TO connector_test_runs');
    }

    expect(unrecorded).toEqual({ ...recorded, durationMs: expect.any(Number), response: { ...recorded.response, headers: expect.any(Array) } });
    expect(unrecorded).toMatchObject({ outcome: 'SUCCESS', response: { status: 200 }, output: { values: [7] } });
    expect(sut.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        requestId: 'db-failing',
        connectorUuid: uuid,
        error: expect.objectContaining({ code: 'ER_NO_SUCH_TABLE' }),
        msg: 'connector test run not recorded: its answer was sent anyway',
      }),
    );
    await run('db-up-2').expect(200);
    const page = await sut.http
      .get(`${tenantPath(tenant)}/${uuid}/test-runs`)
      .set(bearer(writer))
      .expect(200);
    expect(requestIds(page)).toEqual(['db-up-2', 'db-up-1']);
  });
});

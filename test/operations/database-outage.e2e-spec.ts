import { buildDataSourceOptions, PlatformDataSource, RestConnector } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { In } from 'typeorm';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { proxiedTestDatabase, TcpProxy } from '../support/tcp-proxy';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

const UNAVAILABLE = { statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable; retry later' };

/** MariaDB goes away behind the app and comes back: 503s meanwhile, recovery without a restart. */
describe('Database outage', () => {
  let proxy: TcpProxy;
  let direct: PlatformDataSource;
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    const proxied = await proxiedTestDatabase();
    proxy = proxied.proxy;
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ database: proxied.database }));
    direct = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(process.env.TEST_DATABASE_URL!), { migrationsRun: false }));
    await direct.initialize();
    tenant = await seedTenant(direct);
    token = await signToken({ scope: 'connectors:write' });
  });
  afterAll(async () => {
    await sut.close();
    await proxy.stop();
    await direct.destroy();
  });

  it('answers 503 with the error body while the database is unreachable, recovers by itself, and loses no acknowledged write', async () => {
    const base = tenantPath(tenant);
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) acknowledged.push((await sut.http.post(base).set(bearer(token)).send(aConnectorBody()).expect(201)).body.uuid);

    await proxy.cut();
    const ready = await sut.http.get('/health/ready');
    const reads = await Promise.all([sut.http.get(`${base}/list`).set(bearer(token)), sut.http.get(`${base}/${acknowledged[0]}`).set(bearer(token))]);
    const write = await sut.http
      .post(base)
      .set(bearer(token))
      .send(aConnectorBody({ name: 'Written during the outage' }));

    expect(ready.status).toBe(503);
    for (const answer of [...reads, write]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ ...UNAVAILABLE, requestId: answer.headers['x-request-id'] });
      expect(answer.headers['retry-after']).toBe('5');
    }
    await sut.http.get('/health/live').expect(200);

    await proxy.restore();
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      recovered = (await sut.http.get('/health/ready')).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(200);
    const after = await sut.http.post(base).set(bearer(token)).send(aConnectorBody()).expect(201);
    acknowledged.push(after.body.uuid);
    const list = await sut.http.get(`${base}/list`).set(bearer(token)).expect(200);

    const stored = await direct.getRepository(RestConnector).findBy({ uuid: In(acknowledged) });
    expect(stored.map((c) => c.uuid).sort()).toEqual([...acknowledged].sort());
    expect(list.body.data.map((c: { uuid: string }) => c.uuid).sort()).toEqual([...acknowledged].sort());
  });
});

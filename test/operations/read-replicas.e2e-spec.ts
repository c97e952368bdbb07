import { buildDataSourceOptions, PlatformDataSource, RestConnector } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, tenantPath } from '../rest-connectors/connector-factories';
import { aBot, anEnvironment, anOrganization, importData } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/**
 * DATABASE_READ_URLS: the "replica" here is a second database that replicates nothing, so every
 * answer shows where its query went: a name only the replica has came from the replica; a row only the
 * primary has was written to the primary.
 */
describe('Read replicas (DATABASE_READ_URLS)', () => {
  const replicaName = uniqueDatabaseName('platform_replica');
  const organization = anOrganization();
  const environment = anEnvironment(organization.uuid);
  const bot = aBot(environment.uuid, { name: 'Bot on the primary' });
  let primary: PlatformDataSource;
  let replica: PlatformDataSource;
  let bots: TestApp;
  let connectors: TestApp;
  let token: string;

  beforeAll(async () => {
    const replicaUrl = await createMigratedDatabase(replicaName);
    const open = (url: string) => new PlatformDataSource(buildDataSourceOptions(parseServerUrl(url), { migrationsRun: false })).initialize();
    primary = await open(process.env.TEST_DATABASE_URL!);
    replica = await open(replicaUrl);
    const tenant = { organizations: [organization], environments: [environment] };
    await importData(primary, { ...tenant, bots: [bot] });
    await importData(replica, { ...tenant, bots: [{ ...bot, name: 'Bot on the replica' }] });
    const config = mysqlTestConfig({ database: parseServerUrl(process.env.TEST_DATABASE_URL!, [replicaUrl]) });
    bots = await startTestApp(BOT_ADMIN_APP, config);
    connectors = await startTestApp(TRANSACTIONAL_SERVICE_APP, config);
    token = await signToken({ orgs: [organization.uuid], scope: 'connectors:write' });
  });
  afterAll(async () => {
    await bots.close();
    await connectors.close();
    await primary.destroy();
    await replica.destroy();
    await dropDatabase(replicaName);
  });

  const base = () => tenantPath({ organization, environment, bot });

  it('sends reads to the replica', async () => {
    const res = await bots.http
      .get(`/platform-bot-admin/org/${organization.uuid}/env/${environment.uuid}/bots-admin/${bot.uuid}`)
      .set(bearer(token))
      .expect(200);

    expect(res.body.name).toBe('Bot on the replica');
  });

  it('sends writes, and the reads a write depends on, to the primary', async () => {
    const created = await connectors.http.post(base()).set(bearer(token)).send(aConnectorBody({ name: 'Primary only' })).expect(201);
    const uuid = created.body.uuid;

    expect(await primary.getRepository(RestConnector).countBy({ uuid })).toBe(1);
    expect(await replica.getRepository(RestConnector).countBy({ uuid })).toBe(0);
    await connectors.http.put(`${base()}/${uuid}`).set(bearer(token)).send(aConnectorBody({ name: 'Renamed on the primary' })).expect(200);
    await expect(primary.getRepository(RestConnector).findOneBy({ uuid })).resolves.toMatchObject({ name: 'Renamed on the primary', version: 2 });
    await connectors.http.delete(`${base()}/${uuid}`).set(bearer(token)).expect(204);
  });

  it('shows the documented read-after-write lag: a read misses a write until the replica has it', async () => {
    const uuid = (await connectors.http.post(base()).set(bearer(token)).send(aConnectorBody()).expect(201)).body.uuid;

    await connectors.http.get(`${base()}/${uuid}`).set(bearer(token)).expect(404);
    const row = await primary.getRepository(RestConnector).findOneByOrFail({ uuid });
    await replica.getRepository(RestConnector).insert(row);
    await connectors.http.get(`${base()}/${uuid}`).set(bearer(token)).expect(200);
  });
});

import { ConnectorEnvironments } from '../../apps/transactional-service/src/rest-connectors/connector-environment';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, ALICE, createConnector, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant } from '../support/fixtures';
import { sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/**
 * SQLite runs one transaction at a time, yet a connector write reads its environment before its unit of work: a
 * variables write can land in between (test/connector-variables/variables-race.e2e-spec.ts holds the MariaDB orders).
 * The read is held here while the variables change.
 */
describe('A connector write that reads its environment before a variables write lands (SQLite)', () => {
  let sut: TestApp;
  let token: string;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, sqliteTestConfig());
    token = await signToken(ALICE);
  });
  afterAll(() => sut.close());

  it('is checked again with the moved host: a kept token is never bound to where the variable now points', async () => {
    const tenant = await seedTenant(sut.dataSource);
    const variables = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-variables`;
    await sut.http
      .put(variables)
      .set(bearer(token))
      .send({ variables: [{ name: 'BASE', value: 'https://api.example.com' }] })
      .expect(200);
    const bearerConnector = { name: 'Orders', url: 'https://api.example.com/x', authType: 'AUTH_BEARER', bearerToken: 'prod-token' };
    const uuid = await createConnector(sut, tenant, token, bearerConnector);
    const [{ bearer_token: sealed }] = await sut.dataSource.query('SELECT bearer_token FROM rest_connectors WHERE uuid = ?', [uuid]);

    // The PUT moves its URL onto {{env.BASE}}, the same host while it is read: its token would be kept.
    const environments = sut.app.get(ConnectorEnvironments);
    const readEnvironment = environments.of.bind(environments);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let read!: () => void;
    const wasRead = new Promise<void>((resolve) => (read = resolve));
    jest.spyOn(environments, 'of').mockImplementationOnce(async (...args) => {
      const environment = await readEnvironment(...args);
      read();
      await held;
      return environment;
    });
    const put = sut.http
      .put(`${tenantPath(tenant)}/${uuid}`)
      .set(bearer(token))
      .send(aConnectorBody({ ...bearerConnector, url: '{{env.BASE}}/x', bearerToken: '<BEARER_TOKEN>' }))
      .then((res) => res);
    await wasRead;
    // No stored secret refers to {{env.BASE}} yet: nothing to refuse or clear.
    await sut.http
      .put(variables)
      .set(bearer(token))
      .send({ variables: [{ name: 'BASE', value: 'https://evil.example' }] })
      .expect(200);
    release();
    const res = await put;

    expect(res.status).toBe(400);
    expect(res.body.message.join(' ')).toContain('bearerToken must be sent again');
    const [row] = await sut.dataSource.query('SELECT url, bearer_token FROM rest_connectors WHERE uuid = ?', [uuid]);
    expect(row).toEqual({ url: 'https://api.example.com/x', bearer_token: sealed });
  });
});

import { randomUUID } from 'node:crypto';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { anEnvironment, anOrganization, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

describe('platform-environment (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  const base = (org: string) => `/platform-environment/org/${org}/environments`;

  beforeAll(async () => {
    sut = await startTestApp(ENVIRONMENT_APP, mysqlTestConfig());
    tenant = await seedTenant(sut.dataSource);
    token = await signToken({ orgs: [tenant.organization.uuid] });
  });
  afterAll(() => sut.close());

  describe('GET /org/{orgUUID}/environments', () => {
    it('returns every environment of the organization ordered by name, removed ones flagged', async () => {
      const organization = anOrganization();
      const zulu = anEnvironment(organization.uuid, { name: 'zulu' });
      const alpha = anEnvironment(organization.uuid, { name: 'Alpha', removed: true });
      const bravo = anEnvironment(organization.uuid, { name: 'bravo' });
      await importData(sut.dataSource, { organizations: [organization], environments: [zulu, alpha, bravo] });
      const caller = await signToken({ orgs: [organization.uuid] });

      const res = await sut.http.get(base(organization.uuid)).set(bearer(caller)).expect(200);

      expect(res.body.map((e: { name: string }) => e.name)).toEqual(['Alpha', 'bravo', 'zulu']);
      expect(res.body.map((e: { removed: boolean }) => e.removed)).toEqual([true, false, false]);
    });

    it('returns every field of the seed exactly as imported', async () => {
      const res = await sut.http.get(base(tenant.organization.uuid)).set(bearer(token)).expect(200);

      expect(res.body).toEqual([
        {
          uuid: tenant.environment.uuid,
          organizationUuid: tenant.organization.uuid,
          instanceUuid: tenant.environment.instanceUuid,
          instanceName: 'instance-a',
          channelInstanceUuid: tenant.environment.channelInstanceUuid,
          channelInstanceName: 'channels-a',
          connectorInstanceUuid: tenant.environment.connectorInstanceUuid,
          connectorInstanceName: 'connectors-a',
          dns: 'env-a.bots.example.com',
          apiURL: 'https://env-a.bots.example.com/api',
          name: tenant.environment.name,
          removed: false,
          channelApiUrl: 'https://env-a.bots.example.com/channels',
          connectorApiUrl: 'https://env-a.bots.example.com/connectors',
          applications: [{ version: '1.2.3', name: 'gateway', properties: { region: 'eu', 'weird key.with dots': 'v', '': 'empty key' } }],
          permissions: ['bots:read', 'connectors:write'],
        },
      ]);
    });

    it('returns [] for an organization without environments', async () => {
      const organization = anOrganization();
      await importData(sut.dataSource, { organizations: [organization] });
      const caller = await signToken({ orgs: ['*'] });

      await sut.http.get(base(organization.uuid)).set(bearer(caller)).expect(200, []);
    });

    it('is 404 for an unknown organization', async () => {
      const unknown = randomUUID();
      const caller = await signToken({ orgs: ['*'] });

      const res = await sut.http.get(base(unknown)).set(bearer(caller)).expect(404);

      expect(res.body.message).toBe(`Organization ${unknown} not found`);
    });

    it('accepts the organization uuid in upper case', async () => {
      const res = await sut.http.get(base(tenant.organization.uuid.toUpperCase())).set(bearer(token)).expect(200);

      expect(res.body).toHaveLength(1);
    });

    it('is 400 naming the parameter when orgUUID is not a UUID', async () => {
      const res = await sut.http.get(base('not-a-uuid')).set(bearer(token)).expect(400);

      expect(res.body.message).toEqual(['orgUUID must be a UUID']);
    });
  });

  describe('GET /org/{orgUUID}/environments/{envUUID}', () => {
    it('returns the environment', async () => {
      const res = await sut.http
        .get(`${base(tenant.organization.uuid)}/${tenant.environment.uuid}`)
        .set(bearer(token))
        .expect(200);

      expect(res.body.uuid).toBe(tenant.environment.uuid);
      expect(res.body.applications[0].properties).toEqual({ region: 'eu', 'weird key.with dots': 'v', '': 'empty key' });
    });

    it('is 404 for an environment of another organization', async () => {
      const other = await seedTenant(sut.dataSource);
      const caller = await signToken({ orgs: ['*'] });

      const res = await sut.http
        .get(`${base(tenant.organization.uuid)}/${other.environment.uuid}`)
        .set(bearer(caller))
        .expect(404);

      expect(res.body.message).toBe(`Environment ${other.environment.uuid} not found in organization ${tenant.organization.uuid}`);
    });

    it('is 404 naming the organization when the organization is unknown', async () => {
      const unknown = randomUUID();
      const caller = await signToken({ orgs: ['*'] });

      const res = await sut.http
        .get(`${base(unknown)}/${tenant.environment.uuid}`)
        .set(bearer(caller))
        .expect(404);

      expect(res.body.message).toBe(`Organization ${unknown} not found`);
    });

    it('is 400 naming every malformed parameter', async () => {
      const res = await sut.http
        .get(`${base('x')}/y`)
        .set(bearer(token))
        .expect(400);

      expect(res.body.message).toEqual(['orgUUID must be a UUID', 'envUUID must be a UUID']);
    });
  });
});

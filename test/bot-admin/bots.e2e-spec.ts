import { randomUUID } from 'node:crypto';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { aBot, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

describe('platform-bot-admin (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  const base = (org: string, env: string) => `/platform-bot-admin/org/${org}/env/${env}/bots-admin`;

  beforeAll(async () => {
    sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig());
    tenant = await seedTenant(sut.dataSource);
    token = await signToken({ orgs: [tenant.organization.uuid] });
  });
  afterAll(() => sut.close());

  it('lists the bots of the environment as { bots } ordered by name', async () => {
    const { organization, environment } = tenant;
    const names = ['Zeta', 'alpha', 'Mu'];
    await importData(sut.dataSource, {
      bots: names.map((name) => aBot(environment.uuid, { name, image: undefined })),
    });

    const res = await sut.http.get(base(organization.uuid, environment.uuid)).set(bearer(token)).expect(200);

    expect(Object.keys(res.body)).toEqual(['bots']);
    expect(res.body.bots.map((b: { name: string }) => b.name)).toEqual(['alpha', tenant.bot.name, 'Mu', 'Zeta']);
    expect(res.body.bots.find((b: { name: string }) => b.name === 'Mu')).toEqual({
      uuid: expect.any(String),
      environmentUuid: environment.uuid,
      name: 'Mu',
      image: null,
    });
  });

  it('returns one bot with every field', async () => {
    const { organization, environment, bot } = tenant;

    const res = await sut.http
      .get(`${base(organization.uuid, environment.uuid)}/${bot.uuid}`)
      .set(bearer(token))
      .expect(200);

    expect(res.body).toEqual({ uuid: bot.uuid, environmentUuid: environment.uuid, name: bot.name, image: bot.image });
  });

  it('is 404 for a bot of another environment', async () => {
    const other = await seedTenant(sut.dataSource);
    const caller = await signToken({ orgs: ['*'] });

    const res = await sut.http
      .get(`${base(tenant.organization.uuid, tenant.environment.uuid)}/${other.bot.uuid}`)
      .set(bearer(caller))
      .expect(404);

    expect(res.body.message).toBe(`Bot ${other.bot.uuid} not found in environment ${tenant.environment.uuid}`);
  });

  it('is 404 for an environment of another organization, in the list and in the get', async () => {
    const other = await seedTenant(sut.dataSource);
    const caller = await signToken({ orgs: ['*'] });
    const expected = `Environment ${other.environment.uuid} not found in organization ${tenant.organization.uuid}`;

    const list = await sut.http.get(base(tenant.organization.uuid, other.environment.uuid)).set(bearer(caller)).expect(404);
    const get = await sut.http
      .get(`${base(tenant.organization.uuid, other.environment.uuid)}/${other.bot.uuid}`)
      .set(bearer(caller))
      .expect(404);

    expect(list.body.message).toBe(expected);
    expect(get.body.message).toBe(expected);
  });

  it('is 404 for an unknown organization', async () => {
    const unknown = randomUUID();
    const caller = await signToken({ orgs: ['*'] });

    const res = await sut.http.get(base(unknown, tenant.environment.uuid)).set(bearer(caller)).expect(404);

    expect(res.body.message).toBe(`Organization ${unknown} not found`);
  });

  it('is 400 naming botUUID when it is not a UUID', async () => {
    const res = await sut.http
      .get(`${base(tenant.organization.uuid, tenant.environment.uuid)}/12345`)
      .set(bearer(token))
      .expect(400);

    expect(res.body.message).toEqual(['botUUID must be a UUID']);
  });
});

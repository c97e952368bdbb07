import { randomUUID } from 'node:crypto';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { aBot, anEnvironment, anOrganization, importData } from '../support/fixtures';
import { sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

/** The embedded default: the same apps on a SQLite file, migrated on connect. */
describe('The read-only apps on SQLite', () => {
  const config = sqliteTestConfig();
  let environments: TestApp;
  let bots: TestApp;
  const organization = anOrganization();
  const production = anEnvironment(organization.uuid, { name: 'production' });
  const archive = anEnvironment(organization.uuid, { name: 'Archive', removed: true });
  const zed = aBot(production.uuid, { name: 'zed' });
  const amy = aBot(production.uuid, { name: 'Amy' });

  beforeAll(async () => {
    environments = await startTestApp(ENVIRONMENT_APP, config);
    bots = await startTestApp(BOT_ADMIN_APP, config);
    await importData(environments.dataSource, {
      organizations: [organization],
      environments: [production, archive],
      bots: [zed, amy],
    });
  });
  afterAll(async () => {
    await environments.close();
    await bots.close();
  });

  it('lists environments ordered by name case-insensitively, with every field', async () => {
    const token = await signToken({ orgs: [organization.uuid] });

    const res = await environments.http.get(`/platform-environment/org/${organization.uuid}/environments`).set(bearer(token)).expect(200);

    expect(res.body.map((e: { name: string }) => e.name)).toEqual(['Archive', 'production']);
    expect(res.body[0].removed).toBe(true);
    expect(res.body[1]).toMatchObject({ apiURL: production.apiURL, applications: production.applications, permissions: production.permissions });
  });

  it('lists and gets bots, 404 outside the environment', async () => {
    const token = await signToken({ orgs: [organization.uuid] });
    const base = `/platform-bot-admin/org/${organization.uuid}/env/${production.uuid}/bots-admin`;

    const list = await bots.http.get(base).set(bearer(token)).expect(200);
    await bots.http.get(`${base}/${amy.uuid}`).set(bearer(token)).expect(200);
    await bots.http.get(`${base}/${randomUUID()}`).set(bearer(token)).expect(404);
    await bots.http.get(`/platform-bot-admin/org/${organization.uuid}/env/${archive.uuid}/bots-admin/${amy.uuid}`).set(bearer(token)).expect(404);

    expect(list.body.bots.map((b: { name: string }) => b.name)).toEqual(['Amy', 'zed']);
  });

  it('rejects a foreign organization (403) and a missing token (401)', async () => {
    const token = await signToken({ orgs: [randomUUID()] });
    const url = `/platform-environment/org/${organization.uuid}/environments`;

    await environments.http.get(url).set(bearer(token)).expect(403);
    await environments.http.get(url).expect(401);
  });
});

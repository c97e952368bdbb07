import { DEMO_IDS, seedDemoData } from '@app/seed-data';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SignJWT } from 'jose';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody } from '../rest-connectors/connector-factories';
import { runCli, runTs } from '../support/run-command';
import { sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/tokens';

const ACME_CONNECTORS = `/platform-transactional-service/org/${DEMO_IDS.acme}/env/${DEMO_IDS.acmeProduction}/bot/${DEMO_IDS.supportBot}/rest-connectors`;
const GLOBEX_CONNECTORS = `/platform-transactional-service/org/${DEMO_IDS.globex}/env/${DEMO_IDS.globexProduction}/bot/${DEMO_IDS.globexBot}/rest-connectors`;

/**
 * `npm run token -- --user … --orgs … --scope …`, each token used against an app that checks it with the development
 * secret beside the embedded database, as `npm start`'s apps do.
 */
describe('npm run token', () => {
  let sut: TestApp;
  let database: string;

  beforeAll(async () => {
    const config = sqliteTestConfig();
    if (config.database.type !== 'sqlite') throw new Error('expected a SQLite test config');
    database = config.database.path;
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, { ...config, auth: { mode: 'development', secretFile: join(dirname(database), 'dev-jwt-secret') } });
    expect(await seedDemoData(sut.dataSource)).toBe(true);
  });
  afterAll(() => sut.close());

  /**
   * What `npm run token -- <args>` prints, run on the same embedded database (so the same development secret): the
   * command's code as built (the suite builds first), which starts in a second where ts-node takes several.
   */
  async function token(...args: string[]): Promise<string> {
    const result = await runCli(['token', ...args], { DATABASE_URL: `sqlite:${database}` });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+\n$/);
    return result.stdout.trim();
  }

  it("without options, prints the demo user's token: every organization, connectors:write", async () => {
    const demo = await token();

    await sut.http.get(`${GLOBEX_CONNECTORS}/list`).set(bearer(demo)).expect(200);
    const created = await sut.http.post(ACME_CONNECTORS).set(bearer(demo)).send(aConnectorBody()).expect(201);
    expect((await sut.http.get(`${ACME_CONNECTORS}/${created.body.uuid}`).set(bearer(demo)).expect(200)).body.updatedBy).toBe('demo');
  });

  it('--user names the caller the writes record', async () => {
    const alice = await token('--user', 'alice');

    const created = await sut.http.post(ACME_CONNECTORS).set(bearer(alice)).send(aConnectorBody()).expect(201);
    expect((await sut.http.get(`${ACME_CONNECTORS}/${created.body.uuid}`).set(bearer(alice)).expect(200)).body.updatedBy).toBe('alice');
  });

  it("--scope '' makes a read-only token: reads answer, a write is 403", async () => {
    const reader = await token('--user', 'reader', '--scope', '');

    await sut.http.get(`${ACME_CONNECTORS}/list`).set(bearer(reader)).expect(200);
    const refused = await sut.http.post(ACME_CONNECTORS).set(bearer(reader)).send(aConnectorBody()).expect(403);
    expect(refused.body.message).toMatch(/connectors:write/);
  });

  it('--orgs limits the token to its organizations: another one is 403', async () => {
    const acmeOnly = await token('--orgs', DEMO_IDS.acme.toUpperCase());

    await sut.http.get(`${ACME_CONNECTORS}/list`).set(bearer(acmeOnly)).expect(200);
    await sut.http.post(ACME_CONNECTORS).set(bearer(acmeOnly)).send(aConnectorBody()).expect(201);
    await sut.http.get(`${GLOBEX_CONNECTORS}/list`).set(bearer(acmeOnly)).expect(403);
  });

  it('refuses a bad option with one line naming it and how to see the options, exit 2, no token', async () => {
    const result = await runCli(['token', '--orgs', 'acme'], { DATABASE_URL: `sqlite:${database}` });

    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'npm run token: --orgs: "acme" is not an organization uuid (such as 0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01), nor * for every organization\n' +
        '(npm run token -- --help for the options)\n',
    });
  });

  it('--help prints the options (from the sources, as the npm script runs them)', async () => {
    const result = await runTs('tools/cli/src/main.ts', ['token', '--help'], { DATABASE_URL: `sqlite:${database}` });

    expect(result.code).toBe(0);
    for (const option of ['--user <name>', '--orgs <list>', '--scope <scopes>']) expect(result.stdout).toContain(option);
  });

  it('the development secret file is the bare secret: a token signed with its raw content is accepted', async () => {
    const raw = readFileSync(join(dirname(database), 'dev-jwt-secret'));
    const naive = await new SignJWT({ orgs: ['*'] }).setProtectedHeader({ alg: 'HS256' }).setSubject('naive-signer').setExpirationTime('5m').sign(raw);

    await sut.http.get(`${ACME_CONNECTORS}/list`).set(bearer(naive)).expect(200);
  });
});

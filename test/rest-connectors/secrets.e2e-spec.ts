import { keyIdOf, rotateSecrets, SECRET_FIELDS, secretContext, SecretCipher } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { randomBytes } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { runTs } from '../support/run-command';
import { mysqlTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, serverUrl, uniqueDatabaseName } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import {
 createConnector,
 tenantPath,
 withBasicAuth,
 withBearerAuth,
 withClientCredentials,
 withPasswordGrant,
} from './connector-factories';

type SecretRow = Record<'uuid' | (typeof SECRET_FIELDS)[number], string | null> & { version: number };

const rawSecrets = (app: TestApp, botUuid: string): Promise<SecretRow[]> =>
  app.dataSource.query(
    'SELECT uuid, basic_token AS basicToken, bearer_token AS bearerToken, client_secret AS clientSecret, auth_password AS authPassword, version FROM rest_connectors WHERE bot_uuid = ? ORDER BY uuid',
    [botUuid],
  );

describe('Secret rotation (a MariaDB database of its own)', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const plaintexts = ['basic-Zm9vOmJhcg', 'bearer-eyJhbGciOi', 'client-secret-42', 'password-hunter2', 'deleted-bearer-7'];
  let name: string;
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    name = uniqueDatabaseName('platform_rotation');
    const url = await createMigratedDatabase(name);
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ database: parseServerUrl(url), secretsKey: oldKey }));
    tenant = await seedTenant(sut.dataSource);
    token = await signToken({ scope: 'connectors:write' });
    await createConnector(sut, tenant, token, withBasicAuth({ basicToken: plaintexts[0] }));
    await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: plaintexts[1] }));
    await createConnector(sut, tenant, token, withClientCredentials({ clientSecret: plaintexts[2] }));
    await createConnector(sut, tenant, token, withPasswordGrant({ authPassword: plaintexts[3] }));
    const deleted = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: plaintexts[4] }));
    await sut.http.delete(`${tenantPath(tenant)}/${deleted}`).set(bearer(token)).expect(204);
  });
  afterAll(async () => {
    await sut.close();
    await dropDatabase(name);
  });

  const decryptAll = (rows: SecretRow[], cipher: SecretCipher) =>
    rows.flatMap((row) => SECRET_FIELDS.flatMap((field) => (row[field] ? [cipher.decrypt(row[field]!, secretContext(row.uuid!, field))] : [])));

  it('re-encrypts every stored secret, deleted connectors included, with the new key, leaving ETags alone', async () => {
    const before = await rawSecrets(sut, tenant.bot.uuid);

    const summary = await rotateSecrets(sut.dataSource, new SecretCipher(newKey, oldKey));

    const after = await rawSecrets(sut, tenant.bot.uuid);
    expect(summary).toEqual({ connectors: 5, secrets: 5 });
    expect(JSON.stringify(after)).not.toContain(keyIdOf(oldKey));
    expect(decryptAll(after, new SecretCipher(newKey)).sort()).toEqual([...plaintexts].sort());
    expect(after.map((row) => row.version)).toEqual(before.map((row) => row.version));
    await expect(rotateSecrets(sut.dataSource, new SecretCipher(newKey, oldKey))).resolves.toEqual({ connectors: 0, secrets: 0 });
  });

  it('runs as npm run secrets:rotate with SECRETS_KEY and SECRETS_KEY_PREVIOUS', async () => {
    const newest = randomBytes(32);

    const result = await runTs('tools/cli/src/main.ts', ['secrets:rotate'], {
      DATABASE_URL: serverUrl(name),
      SECRETS_KEY: newest.toString('base64'),
      SECRETS_KEY_PREVIOUS: newKey.toString('base64'),
    });

    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Re-encrypted 5 secrets of 5 connectors\n');
    expect(decryptAll(await rawSecrets(sut, tenant.bot.uuid), new SecretCipher(newest)).sort()).toEqual([...plaintexts].sort());
  });
});

describe('Secrets never leak (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  const secret = (label: string) => `leak-canary-${label}-${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ logLevel: 'trace' }));
    tenant = await seedTenant(sut.dataSource);
    token = await signToken({ scope: 'connectors:write' });
  });
  afterAll(() => sut.close());

  it('keeps every secret out of the logs, the error bodies and every read, whatever the request', async () => {
    const base = tenantPath(tenant);
    const canaries = ['create', 'update', 'conflict', 'invalid', 'moved', 'malformed', 'oauth'].map(secret);
    const [onCreate, onUpdate, onConflict, onInvalid, onMove, inMalformed, onOauth] = canaries;
    const answers: unknown[] = [];
    const send = async (request: Promise<{ body: unknown; headers: unknown; text: string }>) => {
      const { body, headers, text } = await request;
      answers.push({ body, headers, text });
    };

    const uuid = await createConnector(sut, tenant, token, withBearerAuth({ bearerToken: onCreate }));
    await send(sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(withBearerAuth({ bearerToken: onUpdate, name: 'Renamed' })));
    await send(sut.http.post(base).set(bearer(token)).send(withBearerAuth({ bearerToken: onConflict, name: 'Renamed' })));
    await send(sut.http.post(base).set(bearer(token)).send({ ...withBasicAuth({ basicToken: onInvalid }), url: 'nope', colour: 1 }));
    await send(sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(withBearerAuth({ bearerToken: '<BEARER_TOKEN>', url: `https://${onMove}.example.com/` })));
    await send(sut.http.post(base).set(bearer(token)).set('Content-Type', 'application/json').send(`{"bearerToken": "${inMalformed}", `));
    await send(sut.http.post(base).set(bearer(token)).send(withClientCredentials({ clientSecret: onOauth, name: 'OAuth one' })));
    await send(sut.http.get(`${base}/${uuid}`).set(bearer(token)));
    await send(sut.http.get(`${base}/pagination?linesPerPage=100`).set(bearer(token)));
    await send(sut.http.get(`${base}/list`).set(bearer(token)));

    const everything = JSON.stringify({ logs: sut.logs, answers });
    expect(sut.logs.filter((line) => line.req)).toHaveLength(answers.length + 1);
    for (const canary of [onCreate, onUpdate, onConflict, onInvalid, inMalformed, onOauth]) {
      expect(everything).not.toContain(canary);
    }
    expect(everything).not.toContain(token);
  });
});

import { keyIdOf, RestConnector, rotateSecrets, SECRET_FIELDS, secretContext, SecretCipher } from '@app/domain';
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
  basicTokenOf,
  createConnector,
  errorBody,
  tenantPath,
  withBasicAuth,
  withBearerAuth,
  withClientCredentials,
  withPasswordGrant,
} from './connector-factories';
import { startTenantApp } from '../support/tenant-app';

type SecretRow = Record<'uuid' | (typeof SECRET_FIELDS)[number], string | null> & { version: number };

const rawSecrets = (app: TestApp, botUuid: string): Promise<SecretRow[]> =>
  app.dataSource.query(
    'SELECT uuid, basic_token AS basicToken, bearer_token AS bearerToken, client_secret AS clientSecret, auth_password AS authPassword, version FROM rest_connectors WHERE bot_uuid = ? ORDER BY uuid',
    [botUuid],
  );

describe('Secret rotation (a MariaDB database of its own)', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const plaintexts = [basicTokenOf('rotation', 'basic-Zm9vOmJhcg'), 'bearer-eyJhbGciOi', 'client-secret-42', 'password-hunter2', 'deleted-bearer-7'];
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
    await sut.http
      .delete(`${tenantPath(tenant)}/${deleted}`)
      .set(bearer(token))
      .expect(204);
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
    expect(summary).toEqual({ connectors: 5, secrets: 5, variables: 0 });
    expect(JSON.stringify(after)).not.toContain(keyIdOf(oldKey));
    expect(decryptAll(after, new SecretCipher(newKey)).sort()).toEqual([...plaintexts].sort());
    expect(after.map((row) => row.version)).toEqual(before.map((row) => row.version));
    await expect(rotateSecrets(sut.dataSource, new SecretCipher(newKey, oldKey))).resolves.toEqual({ connectors: 0, secrets: 0, variables: 0 });
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
    await send(
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withBearerAuth({ bearerToken: onUpdate, name: 'Renamed' })),
    );
    await send(
      sut.http
        .post(base)
        .set(bearer(token))
        .send(withBearerAuth({ bearerToken: onConflict, name: 'Renamed' })),
    );
    await send(
      sut.http
        .post(base)
        .set(bearer(token))
        .send({ ...withBasicAuth({ basicToken: onInvalid }), url: 'nope', colour: 1 }),
    );
    await send(
      sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withBearerAuth({ bearerToken: '<BEARER_TOKEN>', url: `https://${onMove}.example.com/` })),
    );
    await send(sut.http.post(base).set(bearer(token)).set('Content-Type', 'application/json').send(`{"bearerToken": "${inMalformed}", `));
    await send(
      sut.http
        .post(base)
        .set(bearer(token))
        .send(withClientCredentials({ clientSecret: onOauth, name: 'OAuth one' })),
    );
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

/**
 * Where a stored secret may go (docs/api-contract.md, "Rest connectors"): to the destination its URLs had when it was
 * stored, as undici's parser reads them. No test here sends anything: every write is refused or stored, and the test
 * runs are refused before a call (their URLs are loopback literals the default guard refuses anyway).
 */
describe('A stored secret stays bound to where it goes (MariaDB)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;

  const get = async (uuid: string) => sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);
  const put = (uuid: string, body: object) => sut.http.put(`${base}/${uuid}`).set(bearer(token)).send(body);
  const storedCount = () => sut.dataSource.getRepository(RestConnector).countBy({ botUuid: tenant.bot.uuid });
  const sentAgain = (field: string, moved: string) =>
    `${field} must be sent again: ${moved} elsewhere (another scheme, host, port or user info) than when it was stored`;
  const variableIn = (field: string, when: string, carried: string) =>
    `${field} must not have a {{variable}} in its scheme, user info, host or port while ${when}: ${carried} would go wherever the variable points. ` +
    'Write them out in full; variables may stand in the path, query and fragment';

  /** A PUT that must be a 400 with exactly `messages`, and leave the connector as it was, ETag included. */
  async function expectRefusedPut(uuid: string, body: object, messages: string[]) {
    const before = await get(uuid);

    const res = await put(uuid, body).expect(400);

    expect(res.body).toEqual(errorBody(400, 'Bad Request', messages, `${base}/${uuid}`));
    const after = await get(uuid);
    expect(after.body).toEqual(before.body);
    expect(after.headers.etag).toBe(before.headers.etag);
  }

  beforeAll(async () => ({ sut, tenant, token, base } = await startTenantApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig(), { scope: 'connectors:write' })));
  afterAll(() => sut.close());

  describe('URLs without `//`, which the parser reads as if they had it', () => {
    it('stores and answers them with a lower-case scheme and exactly two slashes, variables untouched', async () => {
      const uuid = await createConnector(
        sut,
        tenant,
        token,
        withClientCredentials({ url: 'HTTPS:\\\\api.example.com/{{Path}}?q={{q}}', oauthUrl: 'https:///id.example.com/token' }),
      );

      const read = await get(uuid);

      expect(read.body).toMatchObject({ url: 'https://api.example.com/{{Path}}?q={{q}}', oauthUrl: 'https://id.example.com/token' });
    });

    it.each([
      ['https:api.example.com/x', 'http:/evil.example.net/x'],
      ['https:\\\\api.example.com/x', 'https:\\\\evil.example.net/x'],
      ['HTTPS:/api.example.com/x', 'https:evil.example.net'],
    ])('keep the secret of a connector stored as %j from following a PUT to %j', async (storedUrl, moved) => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth());
      // As a row written before URLs were stored canonical.
      await sut.dataSource.query('UPDATE rest_connectors SET url = ? WHERE uuid = ?', [storedUrl, uuid]);

      await expectRefusedPut(uuid, withBearerAuth({ bearerToken: '<BEARER_TOKEN>', url: moved }), [sentAgain('bearerToken', 'url now points')]);
    });

    it('keep a secret across spellings of the same destination', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: 'https:api.example.com/x' }));

      await put(uuid, withBearerAuth({ bearerToken: '<BEARER_TOKEN>', url: 'HTTPS://API.example.com:443/y' })).expect(200);
    });
  });

  describe('OAuth 2.0 secrets, bound to oauthUrl and to url, where the access token got with them goes', () => {
    it.each([
      ['url', { url: 'https://elsewhere.example.org/x' }, 'url now points'],
      ['oauthUrl', { oauthUrl: 'https://id.example.net/token' }, 'oauthUrl now points'],
      ['both', { url: 'http://api.example.com/items/{{id}}', oauthUrl: 'https://auth.example.com:8443/oauth/token' }, 'oauthUrl and url now point'],
    ])('a PUT that moves %s and sends the placeholder is a 400 naming what moved', async (_what, moved, message) => {
      const uuid = await createConnector(sut, tenant, token, withClientCredentials());

      await expectRefusedPut(uuid, withClientCredentials({ clientSecret: '<CLIENT_SECRET>', ...moved }), [sentAgain('clientSecret', message)]);
    });

    it('binds the password of the PASSWORD grant to url too', async () => {
      const uuid = await createConnector(sut, tenant, token, withPasswordGrant());

      await expectRefusedPut(uuid, withPasswordGrant({ authPassword: '<PASSWORD>', url: 'https://elsewhere.example.org/' }), [
        sentAgain('authPassword', 'url now points'),
      ]);
    });

    it('keeps them while both URLs keep their destinations', async () => {
      const uuid = await createConnector(sut, tenant, token, withClientCredentials());

      await put(
        uuid,
        withClientCredentials({ clientSecret: '<CLIENT_SECRET>', url: 'https://api.example.com/other', oauthUrl: 'https://auth.example.com/v2/token' }),
      ).expect(200);
    });
  });

  describe('variables in the destination of a URL that carries a secret', () => {
    it.each([
      ['AUTH_BASIC', withBasicAuth({ url: 'https://{{host}}/x' }), [variableIn('url', 'authType is AUTH_BASIC', 'the basic token')]],
      ['AUTH_BEARER', withBearerAuth({ url: 'https://{{user}}@api.example.com/x' }), [variableIn('url', 'authType is AUTH_BEARER', 'the bearer token')]],
      [
        'AUTH_OAUTH2',
        withClientCredentials({ url: 'https://api.{{env}}.example.com/x', oauthUrl: 'https:{{idp}}/token' }),
        [
          variableIn('url', 'authType is AUTH_OAUTH2', 'the access token'),
          variableIn('oauthUrl', 'authType is AUTH_OAUTH2 and grantType is CLIENT_CREDENTIALS', 'the client secret'),
        ],
      ],
    ])('are refused with %s on a create, one message per URL, and nothing is stored', async (_authType, body, messages) => {
      const before = await storedCount();

      const res = await sut.http.post(base).set(bearer(token)).send(body).expect(400);

      expect(res.body).toEqual(errorBody(400, 'Bad Request', messages, base));
      await expect(storedCount()).resolves.toBe(before);
    });

    it('are refused on a PUT, with the kept secret asked for again', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth());

      await expectRefusedPut(uuid, withBearerAuth({ bearerToken: '<BEARER_TOKEN>', url: 'https://{{host}}/items' }), [
        variableIn('url', 'authType is AUTH_BEARER', 'the bearer token'),
        sentAgain('bearerToken', 'url now points'),
      ]);
    });

    it('are allowed in the path, query and fragment, and anywhere without a secret', async () => {
      await createConnector(sut, tenant, token, withBearerAuth({ url: 'https://api.example.com/{{path}}?q={{q}}#{{f}}' }));
      await createConnector(sut, tenant, token, { url: 'https://{{host}}:8443/x' });
    });
  });

  describe('headers that route by host', () => {
    const hostMessage = (index: number, header: string) =>
      `headers.${index}.value must name the host (and port) of url in ${header}: a front end may route the call by it, and the secret sent with it, to another site`;

    it('refuses every Host, X-Forwarded-Host, X-Host, X-Original-Host and Forwarded host= that names another host, and a variable in one', async () => {
      const headers = [
        { header: 'Accept', value: 'application/json' },
        { header: 'host', value: 'evil.example.net' },
        { header: 'X-Forwarded-Host', value: 'api.example.com, evil.example.net' },
        { header: 'X-Host', value: 'api.example.com:8443' },
        { header: 'X-Original-Host', value: 'evil.example.net' },
        { header: 'Forwarded', value: 'for=192.0.2.1;host="evil.example.net"' },
        { header: 'X-Forwarded-Host', value: '{{tenant}}.example.com' },
      ];

      const res = await sut.http
        .post(base)
        .set(bearer(token))
        .send(withBearerAuth({ url: 'https://api.example.com/x', headers }))
        .expect(400);

      expect(res.body.message).toEqual([
        hostMessage(1, 'host'),
        hostMessage(2, 'X-Forwarded-Host'),
        hostMessage(3, 'X-Host'),
        hostMessage(4, 'X-Original-Host'),
        hostMessage(5, 'Forwarded'),
        "headers.6.value must not hold a {{variable}} in X-Forwarded-Host: it could name another host than url's, and a front end may route the call, and the secret sent with it, there",
      ]);
    });

    it('accepts one that names the host of url, in any case, with its default port; and any without a secret', async () => {
      await createConnector(
        sut,
        tenant,
        token,
        withBearerAuth({ url: 'https://api.example.com/x', headers: [{ header: 'Host', value: 'API.example.com:443' }] }),
      );
      await createConnector(sut, tenant, token, { url: 'https://192.0.2.10/x', headers: [{ header: 'Host', value: 'vhost.example.com' }] });
    });
  });

  it('lists the problems of a create at once', async () => {
    const body = withClientCredentials({ oauthUrl: 'https://{{idp}}/token', headers: [{ header: 'X-Forwarded-Host', value: 'evil.example.net' }] });

    const res = await sut.http.post(base).set(bearer(token)).send(body).expect(400);

    expect(res.body.message).toEqual([
      variableIn('oauthUrl', 'authType is AUTH_OAUTH2 and grantType is CLIENT_CREDENTIALS', 'the client secret'),
      'headers.0.value must name the host (and port) of url in X-Forwarded-Host: a front end may route the call by it, and the secret sent with it, to another site',
    ]);
  });

  describe('test runs, which build the connector as a write would', () => {
    it('refuses an unsaved connector whose secret would go where a variable points, before anything is sent', async () => {
      const connector = withBearerAuth({ url: 'https://{{host}}/x' });

      const res = await sut.http
        .post(`${base}/test`)
        .set(bearer(token))
        .send({ connector, variables: { host: '127.0.0.3' } })
        .expect(400);

      expect(res.body).toEqual(errorBody(400, 'Bad Request', [variableIn('url', 'authType is AUTH_BEARER', 'the bearer token')], `${base}/test`));
    });

    it('refuses edits of a saved connector that move url while keeping its OAuth secret, before anything is sent', async () => {
      const uuid = await createConnector(sut, tenant, token, withClientCredentials({ url: 'https://127.0.0.2/x', oauthUrl: 'https://127.0.0.2/token' }));
      const connector = withClientCredentials({ clientSecret: '<CLIENT_SECRET>', url: 'https://127.0.0.3/x', oauthUrl: 'https://127.0.0.2/token' });

      const res = await sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).send({ connector }).expect(400);

      expect(res.body).toEqual(errorBody(400, 'Bad Request', [sentAgain('clientSecret', 'url now points')], `${base}/${uuid}/test`));
    });
  });
});

import { SecretCipher, secretContext } from '@app/domain';
import { AppConfig, parseServerUrl } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, ALICE, ConnectorWriteBody, connectorsPath, withBearerAuth } from '../rest-connectors/connector-factories';
import { aBot, anEnvironment, anOrganization, importData } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

const ENGINES: Array<[string, () => Promise<{ config: AppConfig; drop: () => Promise<void> }>]> = [
  [
    'MariaDB',
    async () => {
      const name = uniqueDatabaseName('platform_stage_attacks');
      const url = await createMigratedDatabase(name);
      return { config: mysqlTestConfig({ database: parseServerUrl(url) }), drop: () => dropDatabase(name) };
    },
  ],
  ['SQLite', async () => ({ config: sqliteTestConfig(), drop: async () => undefined })],
];

/**
 * A hostile or careless caller against connector variables and promotions (issue 42): a secret never reaches a
 * destination it is not bound to, a plan says what its apply does, and every bad input is a 4xx saying how to fix it.
 */
describe.each(ENGINES)('Stages under attack: connector variables and promotions (%s)', (_engine, engine) => {
  let config: AppConfig;
  let drop: () => Promise<void>;
  let sut: TestApp;
  let token: string;

  beforeAll(async () => {
    ({ config, drop } = await engine());
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config);
    token = await signToken(ALICE);
  });
  afterAll(async () => {
    await sut.close();
    await drop();
  });

  /** An organization with dev and prod, one bot each. */
  async function stages() {
    const organization = anOrganization();
    const dev = anEnvironment(organization.uuid, { name: 'dev' });
    const prod = anEnvironment(organization.uuid, { name: 'prod' });
    const devBot = aBot(dev.uuid);
    const prodBot = aBot(prod.uuid);
    await importData(sut.dataSource, { organizations: [organization], environments: [dev, prod], bots: [devBot, prodBot] });
    const org = organization.uuid;
    const variablesOf = (env: string) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${org}/env/${env}/connector-variables`;
    const devBase = connectorsPath(org, dev.uuid, devBot.uuid);
    const prodBase = connectorsPath(org, prod.uuid, prodBot.uuid);
    return {
      devBase,
      prodBase,
      devVariables: (body: object) => sut.http.put(variablesOf(dev.uuid)).set(bearer(token)).send(body),
      prodVariables: (body: object) => sut.http.put(variablesOf(prod.uuid)).set(bearer(token)).send(body),
      promote: (body: Record<string, unknown>) =>
        sut.http
          .post(`${prodBase}/promotions`)
          .set(bearer(token))
          .send({ source: { envUUID: dev.uuid, botUUID: devBot.uuid }, ...body }),
      create: async (base: string, body: ConnectorWriteBody) => {
        const res = await sut.http.post(base).set(bearer(token)).send(body);
        if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.uuid as string;
      },
    };
  }
  const sealedBearerOf = async (uuid: string): Promise<string | null> =>
    (await sut.dataSource.query('SELECT bearer_token AS bearerToken FROM rest_connectors WHERE uuid = ?', [uuid]))[0].bearerToken;

  it('never lets a plain variable carry a stored secret elsewhere unconfirmed, whatever the value spells; confirmed, the secret is cleared', async () => {
    // Each value moves the bearer token off https://api.example.com (user info, a backslash, IPv6, punycode, a trailing
    // dot, a caller's {{variable}}, another env variable, http); the last ones spell the same destination.
    const moves = [
      'https://api.example.com@evil.example',
      'https://evil.example\\@api.example.com',
      'https:\\\\evil.example',
      'https://api.example.com%2F@evil.example',
      'https://[::1]',
      'https://xn--80ak6aa92e.com',
      'https://api.example.com.',
      'https://{{host}}',
      '{{env.OTHER}}',
      'http://api.example.com',
    ];
    const same = ['https://API.EXAMPLE.COM', 'https://api.example.com:443', 'https://api.exa\tmple.com', 'https://api.example.com?', 'https:api.example.com'];
    for (const value of [...moves, ...same]) {
      const s = await stages();
      const set = (base: string) => [
        { name: 'BASE', value: base },
        { name: 'OTHER', value: 'https://evil.example' },
      ];
      await s.devVariables({ variables: set('https://api.example.com') }).expect(200);
      const uuid = await s.create(s.devBase, withBearerAuth({ url: '{{env.BASE}}/v1/x', bearerToken: 'dev-token' }));
      const sealed = await sealedBearerOf(uuid);

      if (same.includes(value)) {
        await s.devVariables({ variables: set(value) }).expect(200);
        expect(await sealedBearerOf(uuid)).toBe(sealed);
        continue;
      }
      const refused = await s.devVariables({ variables: set(value) }).expect(409);
      expect(refused.body).toMatchObject({ code: 'DESTINATIONS_MOVED', connectors: [{ uuid, secrets: ['bearerToken'], from: 'https://api.example.com' }] });
      expect(await sealedBearerOf(uuid)).toBe(sealed);
      const confirmed = await s.devVariables({ variables: set(value), confirmDestinationMoves: true }).expect(200);
      expect(confirmed.body.clearedSecrets).toEqual([expect.objectContaining({ uuid, secrets: ['bearerToken'] })]);
      expect(await sealedBearerOf(uuid)).toBeNull();
    }
  });

  it("keeps the target's secret that the plan calls KEPT, though the source's own was cleared", async () => {
    const s = await stages();
    const base = [{ name: 'BASE', value: 'https://api.example.com' }];
    await s.devVariables({ variables: base }).expect(200);
    await s.prodVariables({ variables: base }).expect(200);
    await s.create(s.devBase, withBearerAuth({ name: 'Orders', url: '{{env.BASE}}/orders', bearerToken: 'dev-token', description: 'v2' }));
    const target = await s.create(s.prodBase, withBearerAuth({ name: 'Orders', url: '{{env.BASE}}/orders', bearerToken: 'prod-token', description: 'v1' }));
    // Dev moves its host: its bearer token is cleared there (the source's record now holds none).
    await s.devVariables({ variables: [{ name: 'BASE', value: 'https://api.example.net' }], confirmDestinationMoves: true }).expect(200);

    const plan = (await s.promote({}).expect(200)).body;
    expect(plan.connectors).toEqual([expect.objectContaining({ name: 'Orders', secrets: [{ secret: 'bearerToken', status: 'KEPT' }] })]);
    expect(plan.connectors[0]).toMatchObject({ action: 'UPDATE', changedFields: ['description'] });
    await s.promote({ dryRun: false, digest: plan.digest }).expect(201);

    const sealed = await sealedBearerOf(target);
    expect(sealed).not.toBeNull();
    expect(new SecretCipher(config.secretsKey!).decrypt(sealed!, secretContext(target, 'bearerToken'))).toBe('prod-token');
  });

  it('refuses secrets given for no promoted connector, a secret it does not use, or a connector twice: a 400 naming each, nothing written', async () => {
    const s = await stages();
    await s.create(s.devBase, withBearerAuth({ name: 'Orders', url: 'https://api.example.com/orders', bearerToken: 'dev-token' }));
    await s.create(s.devBase, aConnectorBody({ name: 'Weather', url: 'https://weather.example.com/' }));
    const target = await s.create(s.prodBase, withBearerAuth({ name: 'Orders', url: 'https://api.example.com/orders', bearerToken: 'prod-token' }));
    const before = await sealedBearerOf(target);
    const secrets = [
      { connector: 'Ordres', bearerToken: 'rotated-token' },
      { connector: 'Weather', bearerToken: 'stray-token' },
      { connector: 'Orders', headers: [{ header: 'X-Api-Key', value: 'stray-key' }] },
      { connector: 'orders', bearerToken: 'rotated-token' },
    ];

    const refused = await s.promote({ secrets }).expect(400);
    expect(refused.body.message).toEqual([
      expect.stringMatching(/^secrets\[0\]\.connector "Ordres": the source has no connector of that name/),
      expect.stringMatching(/^secrets\[1\]\.bearerToken: "Weather" does not use it \(authType AUTH_NONE\)/),
      expect.stringMatching(/^secrets\[2\]\.headers\[0\] "X-Api-Key": "Orders" has no secret header of that name/),
      expect.stringMatching(/^secrets\[3\]\.connector "orders": its secrets are given already \(secrets\[2\]\)/),
    ]);
    const plan = (await s.promote({}).expect(200)).body;
    await s.promote({ dryRun: false, digest: plan.digest, secrets }).expect(400);
    expect(await sealedBearerOf(target)).toBe(before);
  });
});

import { rotateSecrets, SecretCipher, variableSecretContext } from '@app/domain';
import { AppConfig, parseServerUrl } from '@app/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aBot, anOrganization, anEnvironment, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { ALICE, createConnector, connectorsPath, errorBody, tenantPath, withBearerAuth } from '../rest-connectors/connector-factories';
import { FeedConsumer } from '../connector-events/feed-consumer';
import { relayTiming } from '../connector-events/relay-timing';
import { connectorEventValidator } from '../support/asyncapi';
import { jetStreamAdmin, storedMessages, until } from '../support/connector-events';
import { TEST_NATS_URL } from '../support/nats-server';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';

const variablesPath = (tenant: Pick<Tenant, 'organization' | 'environment'>) =>
  `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-variables`;
const feedPathOf = (tenant: Tenant) => `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-events`;

const ENGINES: Array<[string, () => AppConfig]> = [
  ['MariaDB', () => mysqlTestConfig()],
  ['SQLite', () => sqliteTestConfig()],
];

describe.each(ENGINES)('Connector variables (%s)', (_engine, config) => {
  let sut: TestApp;
  let token: string;
  let cipher: SecretCipher;

  beforeAll(async () => {
    const settings = config();
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, settings);
    cipher = new SecretCipher(settings.secretsKey!);
    token = await signToken(ALICE);
  });
  afterAll(() => sut.close());

  const get = (tenant: Tenant) => sut.http.get(variablesPath(tenant)).set(bearer(token));
  const put = (tenant: Tenant, body: unknown, headers: Record<string, string> = {}) =>
    sut.http
      .put(variablesPath(tenant))
      .set({ ...bearer(token), ...headers })
      .send(body as object);
  const storedRows = (tenant: Tenant): Promise<Array<{ name: string; value: string | null; sealed_value: string | null; destinations: string }>> =>
    sut.dataSource.query('SELECT name, value, sealed_value, destinations FROM connector_variables WHERE environment_uuid = ? ORDER BY name', [
      tenant.environment.uuid,
    ]);

  it('reads an empty set as version 0, writes a set with a sealed write-only secret, and answers ETags, 304 and 412 as connectors do', async () => {
    const tenant = await seedTenant(sut.dataSource);
    const empty = await get(tenant).expect(200);
    expect(empty.body).toEqual({ version: 0, variables: [] });
    expect(empty.headers.etag).toBe('"v0"');
    await get(tenant).set('If-None-Match', '"v0"').expect(304);

    const plaintext = `sk_live_${Math.random().toString(36).slice(2)}`;
    const written = await put(
      tenant,
      {
        variables: [
          { name: 'BASE_URL', value: 'https://api.example.com/v2' },
          { name: 'API_KEY', value: plaintext, secret: true, destinations: ['HTTPS://API.example.com:443'] },
        ],
      },
      { 'If-Match': '"v0"', 'Change-Reason': 'First stage values' },
    ).expect(200);
    expect(written.headers.etag).toBe('"v1"');
    expect(written.body).toMatchObject({ message: 'Connector variables updated', version: 1, clearedSecrets: [], clearedVariables: [] });
    expect(JSON.stringify(written.body)).not.toContain(plaintext);

    const read = await get(tenant).expect(200);
    expect(read.headers.etag).toBe('"v1"');
    expect(read.body).toEqual({
      version: 1,
      variables: [
        { name: 'API_KEY', secret: true, value: '<SECRET>', destinations: ['https://api.example.com'], updatedAt: expect.any(String), updatedBy: 'alice' },
        { name: 'BASE_URL', secret: false, value: 'https://api.example.com/v2', destinations: [], updatedAt: expect.any(String), updatedBy: 'alice' },
      ],
    });
    // The row holds the value sealed for its environment and name, never the plaintext.
    const rows = await storedRows(tenant);
    expect(JSON.stringify(rows)).not.toContain(plaintext);
    const secretRow = rows.find((row) => row.name === 'API_KEY')!;
    expect(secretRow.value).toBeNull();
    expect(cipher.decrypt(secretRow.sealed_value!, variableSecretContext(tenant.environment.uuid, 'API_KEY'))).toBe(plaintext);

    // A stale If-Match: 412 naming the current ETag; without it, against the newest. The same set again: unchanged.
    const stale = await put(tenant, { variables: [] }, { 'If-Match': '"v0"' }).expect(412);
    expect(stale.body.message).toContain('"v1"');
    const same = await put(tenant, {
      variables: [
        { name: 'API_KEY', value: '<SECRET>', secret: true },
        { name: 'BASE_URL', value: 'https://api.example.com/v2' },
      ],
    }).expect(200);
    expect(same.body.message).toBe('Connector variables unchanged');
    expect(same.headers.etag).toBe('"v1"');
    // Sending the same plaintext again changes nothing either (compared with the sealed value, not re-sealed).
    await put(tenant, {
      variables: [
        { name: 'API_KEY', value: plaintext, secret: true },
        { name: 'BASE_URL', value: 'https://api.example.com/v2' },
      ],
    }).expect(200, /unchanged/);
    expect((await storedRows(tenant)).find((row) => row.name === 'API_KEY')!.sealed_value).toBe(secretRow.sealed_value);

    // Names left out are removed.
    const removed = await put(tenant, { variables: [{ name: 'BASE_URL', value: 'https://api.example.com/v3' }] }, { 'If-Match': '"v1"' }).expect(200);
    expect(removed.headers.etag).toBe('"v2"');
    expect((await get(tenant).expect(200)).body.variables.map((v: { name: string }) => v.name)).toEqual(['BASE_URL']);
    expect(await storedRows(tenant)).toHaveLength(1);
  });

  it('refuses a body that breaks a rule with a 400 that says how to fix it', async () => {
    const tenant = await seedTenant(sut.dataSource);
    const refused = async (body: unknown, expected: RegExp) => {
      const res = await put(tenant, body).expect(400);
      expect(JSON.stringify(res.body.message)).toMatch(expected);
    };
    await refused({ variables: [{ name: '1BAD', value: 'x' }] }, /name must start with a letter/);
    await refused({ variables: [{ name: 'A'.repeat(61), value: 'x' }] }, /at most 60 characters/);
    await refused({ variables: [{ name: 'A', value: 'x'.repeat(8193) }] }, /value must be at most 8192 characters/);
    await refused({ variables: [{ name: 'A' }] }, /variables.0.value is required/);
    await refused({ variables: Array.from({ length: 201 }, (_, i) => ({ name: `V${i}`, value: 'x' })) }, /variables must contain no more than 200 elements/);
    await refused(
      {
        variables: [
          { name: 'A', value: 'x' },
          { name: 'A', value: 'y' },
        ],
      },
      /A is given more than once/,
    );
    await refused({ variables: [{ name: 'A', value: 'x', destinations: ['https://a.example.com'] }] }, /only a secret variable has destinations/);
    await refused({ variables: [{ name: 'S', value: 'x', secret: true, destinations: ['https://a.example.com/path'] }] }, /must be an http or https origin/);
    await refused({ variables: [{ name: 'S', value: 'x', secret: true, destinations: ['ftp://a.example.com'] }] }, /must be an http or https origin/);
    await refused(
      { variables: [{ name: 'S', value: 'x', secret: true, destinations: Array.from({ length: 21 }, (_, i) => `https://h${i}.example.com`) }] },
      /at most 20 origins/,
    );
    await refused({ variables: [{ name: 'S', value: 'x', secret: true }] }, /no connector of this environment sends \{\{env.S\}\}/);
    await refused({ variables: [{ name: 'S', value: '<SECRET>', secret: true, destinations: ['https://a.example.com'] }] }, /S has none: send its value/);
    await refused({ variables: 'nope' }, /variables/);
    await refused({ variables: [], confirmDestinationMoves: 'yes' }, /confirmDestinationMoves must be a boolean/);
    await refused({ variables: [], extra: 1 }, /extra is not a field of this body/);

    // Widening a kept secret's destinations asks for its value again.
    await put(tenant, { variables: [{ name: 'S', value: 'v1', secret: true, destinations: ['https://a.example.com'] }] }).expect(200);
    await refused(
      { variables: [{ name: 'S', value: '<SECRET>', secret: true, destinations: ['https://a.example.com', 'https://b.example.com'] }] },
      /S\]: its value is bound to https:\/\/a.example.com; to send it to https:\/\/b.example.com too, send its value again/,
    );
    await put(tenant, { variables: [{ name: 'S', value: 'v2', secret: true, destinations: ['https://a.example.com', 'https://b.example.com'] }] }).expect(200);
    // Narrowing keeps it.
    await put(tenant, { variables: [{ name: 'S', value: '<SECRET>', secret: true, destinations: ['https://b.example.com'] }] }).expect(200);
    await refused({ variables: [{ name: 'S', value: '<SECRET>' }] }, /a plain variable cannot show/);
    expect((await get(tenant).expect(200)).headers.etag).toBe('"v3"');
  });

  it("keeps tenants apart: another organization's or an unknown environment is a 404, an organization not in the token a 403, a write without connectors:write a 403", async () => {
    const tenant = await seedTenant(sut.dataSource);
    const other = await seedTenant(sut.dataSource);
    const crossed = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${other.environment.uuid}/connector-variables`;
    await sut.http.get(crossed).set(bearer(token)).expect(404);
    await sut.http.put(crossed).set(bearer(token)).send({ variables: [] }).expect(404);
    await sut.http.get(`${crossed}/history`).set(bearer(token)).expect(404);
    const unknown = `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/00000000-0000-4000-8000-000000000000/connector-variables`;
    expect((await sut.http.get(unknown).set(bearer(token)).expect(404)).body).toEqual(errorBody(404, 'Not Found', expect.any(String), unknown));
    const outsider = await signToken({ ...ALICE, orgs: [other.organization.uuid] });
    await sut.http.get(variablesPath(tenant)).set(bearer(outsider)).expect(403);
    const reader = await signToken({ username: 'reader' });
    await sut.http.put(variablesPath(tenant)).set(bearer(reader)).send({ variables: [] }).expect(403);
    expect(await storedRows(other)).toEqual([]);
  });

  it('records every version (who, why, what changed, the set with secrets as placeholders) and pages them newest first', async () => {
    const tenant = await seedTenant(sut.dataSource);
    await put(tenant, { variables: [{ name: 'HOST', value: 'a.example.com' }] }, { 'Change-Reason': 'Stage one' }).expect(200);
    await put(tenant, {
      variables: [
        { name: 'HOST', value: 'b.example.com' },
        { name: 'TOKEN', value: 'history-secret-1', secret: true, destinations: ['https://b.example.com'] },
      ],
    }).expect(200);
    await put(tenant, { variables: [{ name: 'TOKEN', value: '<SECRET>', secret: true }] }).expect(200);

    const page = await sut.http
      .get(`${variablesPath(tenant)}/history`)
      .query({ linesPerPage: 2 })
      .set(bearer(token))
      .expect(200);
    expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 0, numberOfElements: 2 });
    expect(page.body.content[0]).toEqual({
      version: 3,
      updatedAt: expect.any(String),
      updatedBy: 'alice',
      sub: 'user-1',
      requestId: expect.any(String),
      reason: null,
      promotionId: null,
      changes: [{ name: 'HOST', secret: false, change: 'REMOVED' }],
      variables: [{ name: 'TOKEN', secret: true, value: '<SECRET>', destinations: ['https://b.example.com'] }],
    });
    expect(page.body.content[1].changes).toEqual([
      { name: 'HOST', secret: false, change: 'CHANGED' },
      { name: 'TOKEN', secret: true, change: 'ADDED' },
    ]);
    const last = await sut.http
      .get(`${variablesPath(tenant)}/history`)
      .query({ page: 2, linesPerPage: 2 })
      .set(bearer(token))
      .expect(200);
    expect(last.body.content).toEqual([
      expect.objectContaining({ version: 1, reason: 'Stage one', changes: [{ name: 'HOST', secret: false, change: 'ADDED' }] }),
    ]);
    expect(JSON.stringify([page.body, last.body])).not.toContain('history-secret-1');
    const none = await seedTenant(sut.dataSource);
    expect(
      (
        await sut.http
          .get(`${variablesPath(none)}/history`)
          .set(bearer(token))
          .expect(200)
      ).body,
    ).toMatchObject({ totalElements: 0, content: [] });
  });

  it('leaves a change event for each version in the feed, secrets as placeholders', async () => {
    const tenant = await seedTenant(sut.dataSource);
    const consumer = await new FeedConsumer(sut, token, feedPathOf(tenant)).fromNow();
    await put(tenant, {
      variables: [
        { name: 'BASE_URL', value: 'https://api.example.com' },
        { name: 'KEY', value: 'event-secret-1', secret: true, destinations: ['https://api.example.com'] },
      ],
    }).expect(200);
    await put(tenant, { variables: [{ name: 'BASE_URL', value: 'https://api.example.com' }] }, { 'Change-Reason': 'Key retired' }).expect(200);
    const events = await consumer.until(2);
    expect(events.map(({ event }) => event)).toEqual([
      {
        specversion: '1.0',
        id: expect.any(String),
        source: `/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-variables`,
        type: 'connector-variables.updated.v1',
        subject: tenant.environment.uuid,
        time: expect.any(String),
        datacontenttype: 'application/json',
        data: {
          version: 1,
          etag: '"v1"',
          changes: [
            { name: 'BASE_URL', secret: false, change: 'ADDED' },
            { name: 'KEY', secret: true, change: 'ADDED' },
          ],
          updatedBy: 'alice',
          reason: null,
          promotionId: null,
          variables: [
            { name: 'BASE_URL', secret: false, value: 'https://api.example.com', destinations: [] },
            { name: 'KEY', secret: true, value: '<SECRET>', destinations: ['https://api.example.com'] },
          ],
        },
      },
      expect.objectContaining({
        data: expect.objectContaining({ version: 2, reason: 'Key retired', changes: [{ name: 'KEY', secret: true, change: 'REMOVED' }] }),
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain('event-secret-1');
    const validate = await connectorEventValidator('ConnectorVariablesEvent');
    for (const { event } of events) expect([validate(event), validate.errors]).toEqual([true, null]);
    // A bot's feed leaves them out: they belong to the environment.
    const botFeed = await sut.http.get(feedPathOf(tenant)).query({ botUUID: tenant.bot.uuid }).set(bearer(token)).expect(200);
    expect(botFeed.body.events).toEqual([]);
  });

  it('answers 409 DESTINATIONS_MOVED when new values move stored connector secrets (every bot, trashed ones too) or a secret variable; confirmed, clears them as new versions with events', async () => {
    const tenant = await seedTenant(sut.dataSource);
    const secondBot = aBot(tenant.environment.uuid);
    await importData(sut.dataSource, { bots: [secondBot] });
    const second: Tenant = { ...tenant, bot: secondBot };
    await put(tenant, {
      variables: [
        { name: 'BASE_URL', value: 'https://api.example.com/v1' },
        { name: 'KEY', value: 'moved-variable-secret', secret: true, destinations: ['https://api.example.com'] },
      ],
    }).expect(200);
    // Connectors whose url is {{env.BASE_URL}}/x with a bearer token. Written with a literal url through the API, then
    // given {{env.BASE_URL}} in SQL: the connector writes do not take {{env.NAME}} in a secret's destination yet.
    const active = await createConnector(sut, tenant, token, withBearerAuth({ url: 'https://api.example.com/v1/x', bearerToken: 'bearer-moved-1' }));
    const inOtherBot = await createConnector(sut, second, token, withBearerAuth({ url: 'https://api.example.com/v1/x', bearerToken: 'bearer-moved-2' }));
    const trashed = await createConnector(sut, tenant, token, withBearerAuth({ url: 'https://api.example.com/v1/x', bearerToken: 'bearer-moved-3' }));
    await sut.http
      .delete(`${tenantPath(tenant)}/${trashed}`)
      .set(bearer(token))
      .expect(204);
    const usesKey = await createConnector(sut, tenant, token, {
      url: 'https://api.example.com/v1/k',
      headers: [{ header: 'X-Key', value: '{{env.KEY}}' }],
    });
    await sut.dataSource.query('UPDATE rest_connectors SET url = ? WHERE uuid IN (?, ?, ?)', ['{{env.BASE_URL}}/x', active, inOtherBot, trashed]);
    await sut.dataSource.query('UPDATE rest_connectors SET url = ? WHERE uuid = ?', ['{{env.BASE_URL}}/k', usesKey]);

    // Another path on the same origin moves nothing.
    await put(tenant, {
      variables: [
        { name: 'BASE_URL', value: 'https://api.example.com/v2' },
        { name: 'KEY', value: '<SECRET>', secret: true },
      ],
    }).expect(200);

    // The environment's feed from its start: two versions of the set, four connectors created, one deleted.
    const consumer = new FeedConsumer(sut, token, feedPathOf(tenant));
    await consumer.until(7);
    const moving = {
      variables: [
        { name: 'BASE_URL', value: 'https://api.example.net/v2' },
        { name: 'KEY', value: '<SECRET>', secret: true },
      ],
    };
    const conflict = await put(tenant, moving).expect(409);
    expect(conflict.body).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'DESTINATIONS_MOVED' });
    expect(conflict.body.message).toContain('confirmDestinationMoves: true');
    expect(conflict.body.connectors).toEqual(
      expect.arrayContaining(
        [active, inOtherBot, trashed].map((uuid) =>
          expect.objectContaining({ uuid, secrets: ['bearerToken'], from: 'https://api.example.com', to: 'https://api.example.net' }),
        ),
      ),
    );
    expect(conflict.body.connectors).toHaveLength(3);
    expect(conflict.body.connectors.find((c: { uuid: string }) => c.uuid === inOtherBot).botUUID).toBe(secondBot.uuid);
    expect(conflict.body.variables).toEqual([{ name: 'KEY', destinations: ['https://api.example.com'], to: ['https://api.example.net'] }]);
    expect((await get(tenant).expect(200)).headers.etag).toBe('"v2"');

    const confirmed = await put(tenant, { ...moving, confirmDestinationMoves: true }, { 'If-Match': '"v2"' }).expect(200);
    expect(confirmed.headers.etag).toBe('"v3"');
    expect(confirmed.body.clearedSecrets.map((c: { uuid: string }) => c.uuid).sort()).toEqual([active, inOtherBot, trashed].sort());
    expect(confirmed.body.clearedVariables).toEqual(['KEY']);
    expect(confirmed.body.variables).toContainEqual(expect.objectContaining({ name: 'KEY', value: null }));

    const stored: Array<{ uuid: string; bearer_token: string | null; version: number }> = await sut.dataSource.query(
      'SELECT uuid, bearer_token, version FROM rest_connectors WHERE uuid IN (?, ?, ?)',
      [active, inOtherBot, trashed],
    );
    expect(stored.map((row) => [row.bearer_token, Number(row.version)])).toEqual([
      [null, expect.any(Number)],
      [null, expect.any(Number)],
      [null, expect.any(Number)],
    ]);
    expect((await storedRows(tenant)).find((row) => row.name === 'KEY')!.sealed_value).toBeNull();
    const versions = await sut.http
      .get(`${tenantPath(tenant)}/${active}/versions`)
      .set(bearer(token))
      .expect(200);
    expect(versions.body.content[0]).toMatchObject({
      version: 2,
      operation: 'UPDATED',
      changedFields: ['bearerToken'],
      reason: expect.stringContaining('connector variables version 3'),
    });
    const otherVersions = await sut.http
      .get(`${connectorsPath(tenant.organization.uuid, tenant.environment.uuid, secondBot.uuid)}/${inOtherBot}/versions`)
      .set(bearer(token))
      .expect(200);
    expect(otherVersions.body.content[0]).toMatchObject({ operation: 'UPDATED', changedFields: ['bearerToken'] });
    // One event for the set, one per connector cleared.
    const events = (await consumer.until(11)).slice(7);
    expect(events.map(({ event }) => event.type).sort()).toEqual([
      'connector-variables.updated.v1',
      'connector.updated.v1',
      'connector.updated.v1',
      'connector.updated.v1',
    ]);
    const activeEvent = events.find(({ event }) => event.subject === active)!;
    expect(activeEvent.event.data).toMatchObject({ version: 2, changedFields: ['bearerToken'], snapshot: expect.objectContaining({ bearerToken: null }) });
  });

  it('writes the variables of an environment without bots or connectors', async () => {
    const organization = anOrganization();
    const environment = anEnvironment(organization.uuid);
    await importData(sut.dataSource, { organizations: [organization], environments: [environment] });
    const tenant = { organization, environment } as Tenant;
    await put(tenant, { variables: [{ name: 'ONLY_HERE', value: '1' }] }).expect(200);
    expect((await get(tenant).expect(200)).body.variables).toHaveLength(1);
  });
});

describe('Connector variables events on NATS JetStream (MariaDB, NATS)', () => {
  const stream = `TEST_VARIABLES_${randomUUID().slice(0, 8)}`;
  const prefix = `test.${stream.toLowerCase()}`;
  let database: string;
  let sut: TestApp;
  let nats: Awaited<ReturnType<typeof jetStreamAdmin>>;

  beforeAll(async () => {
    database = uniqueDatabaseName('platform_variables_events');
    const url = await createMigratedDatabase(database);
    sut = await startTestApp(
      TRANSACTIONAL_SERVICE_APP,
      mysqlTestConfig({
        database: parseServerUrl(url),
        changeEvents: { natsUrl: TEST_NATS_URL, stream, retentionDays: 7, maxPublishAttempts: 5, subjectPrefix: prefix },
      }),
      { providers: [relayTiming({ backoffMs: 50, maxBackoffMs: 500, followerMs: 100 })] },
    );
    nats = await jetStreamAdmin(TEST_NATS_URL);
  });
  afterAll(async () => {
    await sut.close();
    await nats.jsm.streams.delete(stream).catch(() => undefined);
    await nats.close();
    await dropDatabase(database);
  });

  it("publishes each version of a set on the environment's variables subject, as the AsyncAPI document describes it", async () => {
    const tenant = await seedTenant(sut.dataSource);
    const token = await signToken(ALICE);
    await sut.http
      .put(variablesPath(tenant))
      .set(bearer(token))
      .send({ variables: [{ name: 'KEY', value: 'jetstream-secret', secret: true, destinations: ['https://api.example.com'] }] })
      .expect(200);
    await sut.http.put(variablesPath(tenant)).set(bearer(token)).send({ variables: [] }).expect(200);

    await until('both events are on the stream', async () => (await storedMessages(nats.jsm, stream).catch(() => [])).length === 2, 30_000);
    const messages = await storedMessages(nats.jsm, stream);
    const subject = `${prefix}.${tenant.organization.uuid}.${tenant.environment.uuid}.variables`;
    expect(messages.map((message) => [message.subject, (message.json as { data: { version: number } }).data.version])).toEqual([
      [subject, 1],
      [subject, 2],
    ]);
    expect(messages.map((message) => message.msgId)).toEqual(messages.map((message) => (message.json as { id: string }).id));
    expect(JSON.stringify(messages)).not.toContain('jetstream-secret');
    const validate = await connectorEventValidator('ConnectorVariablesEvent');
    for (const message of messages) expect([validate(message.json), validate.errors]).toEqual([true, null]);
  });
});

describe('secrets:rotate and connector variables (SQLite, a database of its own)', () => {
  it('re-seals every secret variable with the current key, leaving the set version alone', async () => {
    const settings = sqliteTestConfig();
    const sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, settings);
    try {
      const tenant = await seedTenant(sut.dataSource);
      const token = await signToken(ALICE);
      await sut.http
        .put(variablesPath(tenant))
        .set(bearer(token))
        .send({ variables: [{ name: 'KEY', value: 'rotated-variable', secret: true, destinations: ['https://api.example.com'] }] })
        .expect(200);
      const newKey = randomBytes(32);

      const summary = await rotateSecrets(sut.dataSource, new SecretCipher(newKey, settings.secretsKey!));

      expect(summary.variables).toBe(1);
      const [{ sealed_value: sealed }] = await sut.dataSource.query('SELECT sealed_value FROM connector_variables WHERE environment_uuid = ?', [
        tenant.environment.uuid,
      ]);
      expect(new SecretCipher(newKey).decrypt(sealed, variableSecretContext(tenant.environment.uuid, 'KEY'))).toBe('rotated-variable');
      expect((await sut.http.get(variablesPath(tenant)).set(bearer(token)).expect(200)).headers.etag).toBe('"v1"');
      await expect(rotateSecrets(sut.dataSource, new SecretCipher(newKey, settings.secretsKey!))).resolves.toMatchObject({ variables: 0 });
    } finally {
      await sut.close();
    }
  });
});

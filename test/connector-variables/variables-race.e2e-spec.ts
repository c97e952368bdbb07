import { QueryRunner } from 'typeorm';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { ALICE, readStoredSecrets, tenantPath, withBearerAuth } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

const variablesPath = (tenant: Tenant) =>
  `/${TRANSACTIONAL_SERVICE_APP.label}/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/connector-variables`;

/**
 * A connector write that depends on its environment's connector variables and a write of those variables, at once, on
 * MariaDB (SQLite runs one transaction at a time). Each interleaving is made deterministic by a transaction of the
 * test's own that holds a row one of the two writes needs, so the other runs into it while the first is held.
 */
describe('A connector write and a connector variables write at once (MariaDB)', () => {
  let sut: TestApp;
  let token: string;
  let database: string;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig());
    token = await signToken(ALICE);
    [{ database }] = await sut.dataSource.query('SELECT DATABASE() AS `database`');
  });
  afterAll(() => sut.close());

  /**
   * Until a statement of this database's holding `fragment` has been running for 200 ms (waiting for a lock: nothing
   * else here takes that long), or `request` has answered (without the rule the statement may never come).
   */
  const untilWaiting = async (fragment: string, request: { done: boolean }): Promise<void> => {
    const deadline = Date.now() + 10_000;
    const waiting = async () =>
      Number(
        (
          await sut.dataSource.query(
            "SELECT COUNT(*) AS waiting FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND = 'Query' AND TIME_MS >= 200 AND INFO LIKE ?",
            [database, `%${fragment}%`],
          )
        )[0].waiting,
      );
    while (!request.done && (await waiting()) === 0) {
      if (Date.now() > deadline) throw new Error(`no statement with ${fragment} waited within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const started = <T>(request: PromiseLike<T>) => {
    const tracked = { done: false, answer: undefined as unknown as Promise<T> };
    tracked.answer = Promise.resolve(request).finally(() => (tracked.done = true));
    return tracked;
  };
  /** A transaction of the test's own holding `sql`'s rows (FOR UPDATE) until `release`. */
  const holding = async (sql: string, params: unknown[]): Promise<{ release: () => Promise<void> }> => {
    const runner: QueryRunner = sut.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query(sql, params);
    return {
      release: async () => {
        await runner.commitTransaction();
        await runner.release();
      },
    };
  };

  const putVariables = (tenant: Tenant, body: object) => sut.http.put(variablesPath(tenant)).set(bearer(token)).send(body);
  const putConnector = (tenant: Tenant, uuid: string, body: object) =>
    sut.http
      .put(`${tenantPath(tenant)}/${uuid}`)
      .set(bearer(token))
      .send(body);

  /**
   * A tenant whose environment's BASE_URL is https://one.example.com, and a bearer connector of it that calls that host
   * written out (its token bound there); the PUT that makes it `{{env.BASE_URL}}/x`, keeping its token (the placeholder):
   * the same destination while BASE_URL is https://one.example.com.
   */
  const aConnectorThatWillReferToTheEnvironment = async () => {
    const tenant = await seedTenant(sut.dataSource);
    await putVariables(tenant, { variables: [{ name: 'BASE_URL', value: 'https://one.example.com' }] }).expect(200);
    const written = withBearerAuth({ url: 'https://one.example.com/x', bearerToken: 'token-for-one' });
    const created = await sut.http.post(tenantPath(tenant)).set(bearer(token)).send(written).expect(201);
    return { tenant, uuid: created.body.uuid as string, edit: { ...written, url: '{{env.BASE_URL}}/x', bearerToken: '<BEARER_TOKEN>' } };
  };
  const moveBaseUrl = { variables: [{ name: 'BASE_URL', value: 'https://two.example.com' }] };

  it('a connector write checked against the variables a concurrent write replaces checks again with the new ones: its kept secret is refused, never bound to the moved host', async () => {
    const { tenant, uuid, edit } = await aConnectorThatWillReferToTheEnvironment();
    // Holds the variables' rows: the variables write gets past its lock and its reads, then waits with the set locked.
    const holder = await holding('SELECT name FROM connector_variables WHERE environment_uuid = ? FOR UPDATE', [tenant.environment.uuid]);
    const variables = started(putVariables(tenant, moveBaseUrl));
    await untilWaiting('DELETE FROM connector_variables', variables);
    // Reads the variables as committed (BASE_URL still one.example.com: its token may stay), then meets the locked set.
    const connector = started(putConnector(tenant, uuid, edit));
    await untilWaiting('LOCK IN SHARE MODE', connector);
    await holder.release();

    const [variablesAnswer, connectorAnswer] = await Promise.all([variables.answer, connector.answer]);
    expect(variablesAnswer.status).toBe(200);
    expect(connectorAnswer.status).toBe(400);
    expect(connectorAnswer.body.message).toEqual([expect.stringMatching(/^bearerToken must be sent again: url now points elsewhere/)]);
    const stored = await sut.http
      .get(`${tenantPath(tenant)}/${uuid}`)
      .set(bearer(token))
      .expect(200);
    expect(stored.body.url).toBe('https://one.example.com/x');
    expect((await readStoredSecrets(sut, uuid)).bearerToken).not.toBeNull();
  });

  it('a variables write that meets a connector write holding the environment waits for it, then sees it: 409 DESTINATIONS_MOVED naming it', async () => {
    const { tenant, uuid, edit } = await aConnectorThatWillReferToTheEnvironment();
    // Holds the connector's row: the connector write gets past its hold of the environment, then waits holding it.
    const holder = await holding('SELECT uuid FROM rest_connectors WHERE uuid = ? FOR UPDATE', [uuid]);
    const connector = started(putConnector(tenant, uuid, edit));
    await untilWaiting('UPDATE rest_connectors', connector);
    const variables = started(putVariables(tenant, moveBaseUrl));
    await untilWaiting('FOR UPDATE', variables);
    await holder.release();

    const [connectorAnswer, variablesAnswer] = await Promise.all([connector.answer, variables.answer]);
    expect(connectorAnswer.status).toBe(200);
    expect(variablesAnswer.status).toBe(409);
    expect(variablesAnswer.body).toMatchObject({
      code: 'DESTINATIONS_MOVED',
      connectors: [{ uuid, secrets: ['bearerToken'], from: 'https://one.example.com', to: 'https://two.example.com' }],
    });
    const read = await sut.http.get(variablesPath(tenant)).set(bearer(token)).expect(200);
    expect(read.body.variables).toEqual([expect.objectContaining({ name: 'BASE_URL', value: 'https://one.example.com' })]);
  });

  it('a create checked against replaced variables is checked again with the new ones', async () => {
    const tenant = await seedTenant(sut.dataSource);
    await putVariables(tenant, {
      variables: [
        { name: 'BASE_URL', value: 'https://one.example.com' },
        { name: 'KEY', value: 'key-value', secret: true, destinations: ['https://one.example.com'] },
      ],
    }).expect(200);
    const holder = await holding('SELECT name FROM connector_variables WHERE environment_uuid = ? FOR UPDATE', [tenant.environment.uuid]);
    const variables = started(
      putVariables(tenant, {
        variables: [
          { name: 'BASE_URL', value: 'https://two.example.com' },
          { name: 'KEY', value: '<SECRET>', secret: true },
        ],
        confirmDestinationMoves: true,
      }),
    );
    await untilWaiting('DELETE FROM connector_variables', variables);
    // Sends the secret variable KEY to BASE_URL's host: allowed while it is one.example.com.
    const create = started(
      sut.http
        .post(tenantPath(tenant))
        .set(bearer(token))
        .send(withBearerAuth({ url: '{{env.BASE_URL}}/x', headers: [{ header: 'X-Key', value: '{{env.KEY}}' }] })),
    );
    await untilWaiting('LOCK IN SHARE MODE', create);
    await holder.release();

    const [variablesAnswer, createAnswer] = await Promise.all([variables.answer, create.answer]);
    expect(variablesAnswer.status).toBe(200);
    expect(createAnswer.status).toBe(400);
    expect(createAnswer.body.message).toEqual([
      expect.stringMatching(
        /^\{\{env\.KEY\}\} is a secret connector variable bound to https:\/\/one\.example\.com, and url goes to https:\/\/two\.example\.com/,
      ),
    ]);
  });
});

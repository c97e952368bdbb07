import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { run as runNewman } from 'newman';
import { farSide, FarSide, ReceivedRequest } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { ALICE, basicTokenOf, ConnectorWriteBody, createConnector, tenantPath } from '../rest-connectors/connector-factories';

/**
 * The exports run as they are (issue 41): each connector's cURL export in bash (the real curl), with its shell
 * variables set, and its Postman export in newman, with its variables set, reach a far side on 127.0.0.2 with what
 * the connector's own test run sends there.
 */
describe('Exports that run (MariaDB, far side on 127.0.0.2)', () => {
  const config = mysqlTestConfig({ connectorTests: loopbackTestRuns({ timeoutMs: 3_000, perMinute: 10_000 }) });
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let side: FarSide;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, config, withResolver());
    token = await signToken(ALICE);
    tenant = await seedTenant(sut.dataSource);
    side = await farSide();
  });
  afterAll(async () => {
    await side?.close();
    await sut?.close();
  });

  interface Case {
    connector: (far: string) => ConnectorWriteBody;
    variables: Record<string, string>;
    /** The shell variables the cURL export asks for (its variables' shell names, and the secrets'). */
    shell: Record<string, string>;
    /** The collection variables the Postman export declares for the secrets. */
    postman: Record<string, string>;
  }

  const cases: Array<[string, Case]> = [
    [
      'bearer auth, JSON, variables in path, query, a header and the body',
      {
        connector: (far) => ({
          requestType: 'POST',
          url: `${far}/v1/orders/{{orderId}}?lang={{lang}}`,
          headers: [
            { header: 'Accept', value: 'application/json' },
            { header: 'X-Tenant', value: 'acme-{{tenant}}' },
          ],
          contentType: 'APPLICATION_JSON',
          body: '{"sku": "{{sku}}", "qty": {{qty}}}',
          authType: 'AUTH_BEARER',
          bearerToken: 'tok-1',
        }),
        variables: { orderId: '42', lang: 'en', tenant: 'eu', sku: 'SKU-1', qty: '3' },
        shell: { orderId: '42', lang: 'en', tenant: 'eu', sku: 'SKU-1', qty: '3', BEARER_TOKEN: 'tok-1' },
        postman: { bearerToken: 'tok-1' },
      },
    ],
    [
      'basic auth, a form body, a variable name a shell cannot use',
      {
        connector: (far) => ({
          requestType: 'PUT',
          url: `${far}/users/{{user.id}}`,
          headers: [],
          contentType: 'APPLICATION_FORM_URLENCODED',
          body: 'role=admin&team={{team}}',
          authType: 'AUTH_BASIC',
          basicToken: basicTokenOf('ana', 'pa55'),
        }),
        variables: { 'user.id': 'u7', team: 'blue' },
        shell: { user_id: 'u7', team: 'blue', BASIC_USER: 'ana', BASIC_PASSWORD: 'pa55' },
        postman: { basicUsername: 'ana', basicPassword: 'pa55' },
      },
    ],
    [
      'an API key in the query, a text body',
      {
        connector: (far) => ({
          requestType: 'PATCH',
          url: `${far}/notes?x=1`,
          headers: [],
          contentType: 'TEXT_PLAIN',
          body: 'hello {{who}}',
          authType: 'AUTH_API_KEY',
          apiKeyName: 'api_key',
          apiKeyIn: 'QUERY',
          apiKey: 'k-1',
        }),
        variables: { who: 'world' },
        shell: { who: 'world', API_KEY: 'k-1' },
        postman: { apiKey: 'k-1' },
      },
    ],
    [
      'an API key in a header, a GET',
      {
        connector: (far) => ({
          requestType: 'GET',
          url: `${far}/items/{{id}}`,
          headers: [{ header: 'Accept', value: 'application/json' }],
          contentType: 'NONE',
          body: '',
          authType: 'AUTH_API_KEY',
          apiKeyName: 'X-Api-Key',
          apiKeyIn: 'HEADER',
          apiKey: 'k-2',
        }),
        variables: { id: '9' },
        shell: { id: '9', API_KEY: 'k-2' },
        postman: { apiKey: 'k-2' },
      },
    ],
  ];

  /**
   * What a request carries that the connector decides: method, path and query, body, and the headers it sets (its
   * own, Content-Type and the auth's); a header only the client adds (curl's and newman's `Accept: *\/*`) is the client's.
   */
  const sent = (request: ReceivedRequest, connector: ConnectorWriteBody) => {
    const headers = (connector.headers ?? []) as Array<{ header: string }>;
    const apiKeyHeader = connector.apiKeyIn === 'HEADER' ? [String(connector.apiKeyName)] : [];
    const own = [...headers.map(({ header }) => header), ...apiKeyHeader, 'content-type', 'authorization'].map((name) => name.toLowerCase());
    return {
      method: request.method,
      url: request.url,
      body: request.body,
      headers: Object.fromEntries(own.filter((name) => request.headers[name] !== undefined).map((name) => [name, request.headers[name]])),
    };
  };

  /** The one request the far side receives while `act` runs. */
  async function received(act: () => Promise<unknown>): Promise<ReceivedRequest> {
    const before = side.received.length;
    await act();
    expect(side.received.length).toBe(before + 1);
    return side.received[before];
  }

  const exported = async (uuid: string, format: string) =>
    (
      await sut.http
        .get(`${tenantPath(tenant)}/${uuid}/export?format=${format}`)
        .set(bearer(token))
        .expect(200)
    ).text;

  it.each(cases)('%s: bash runs the cURL export, newman the Postman export, and the far side receives what the test run sends', async (_, c) => {
    const connector = c.connector(side.url);
    const uuid = await createConnector(sut, tenant, token, connector);
    const testRun = await received(async () => {
      const res = await sut.http
        .post(`${tenantPath(tenant)}/${uuid}/test`)
        .set(bearer(token))
        .send({ variables: c.variables })
        .expect(200);
      expect(res.body.outcome).toBe('SUCCESS');
    });

    const command = await exported(uuid, 'curl');
    const byCurl = await received(() =>
      promisify(execFile)('bash', ['--norc', '--noprofile', '-c', command], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...c.shell } }),
    );
    const collection = JSON.parse(await exported(uuid, 'postman'));
    const byNewman = await received(
      () =>
        new Promise<void>((done, fail) =>
          runNewman(
            {
              collection,
              envVar: Object.entries({ ...c.variables, ...c.postman }).map(([key, value]) => ({ key, value })),
              reporters: [],
              timeoutRequest: 5_000,
            },
            (error, summary) => {
              const problem = error ?? summary.run.executions.find((execution) => execution.requestError)?.requestError;
              return problem ? fail(problem) : done();
            },
          ),
        ),
    );

    expect(sent(byCurl, connector)).toEqual(sent(testRun, connector));
    expect(sent(byNewman, connector)).toEqual(sent(testRun, connector));
  });
});

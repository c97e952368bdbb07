import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { loopbackTestRuns, withResolver } from '../test-runs/loopback-resolver';
import { ALICE, createConnector, errorBody, tenantPath, withBearerAuth } from './connector-factories';

/**
 * The header rules of a connector that carries a secret (docs/api-contract.md, "Rest connectors"), through every way
 * a connector is written: create, PUT, a test run and an import. A header name is the caller's text, any HTTP token:
 * the names of Object.prototype are names like any other, and every header a front end routes by is checked.
 */
describe('Connector header names beside a secret (MariaDB, far sides on 127.0.0.2)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;
  let base: string;
  let side: FarSide;

  beforeAll(async () => {
    sut = await startTestApp(
      TRANSACTIONAL_SERVICE_APP,
      mysqlTestConfig({ connectorTests: loopbackTestRuns({ timeoutMs: 1_500, perMinute: 10_000 }) }),
      withResolver(),
    );
    tenant = await seedTenant(sut.dataSource);
    token = await signToken(ALICE);
    base = tenantPath(tenant);
    side = await farSide();
    // The import's worker starts at the first import (it loads the domain library and its packages: seconds on a busy machine),
    // and an import that waits longer than IMPORT_QUEUE_MS for it is a 503: started once before the tests.
    for (const deadline = Date.now() + 120_000; ;) {
      const warm = await sut.http.post(`${base}/import`).set(bearer(token)).send({ format: 'curl', source: 'curl https://api.example.com/warm' });
      if (warm.status !== 503) break;
      if (Date.now() > deadline) throw new Error(`the import worker did not start within 120 s: ${JSON.stringify(warm.body)}`);
    }
  }, 180_000);
  afterAll(async () => {
    await side.close();
    await sut.close();
  });

  describe.each(['__proto__', 'constructor', 'hasOwnProperty', '__defineGetter__'])('a header named %s', (name) => {
    const headers = [
      { header: name, value: 'one' },
      { header: 'Accept', value: 'application/json' },
    ];

    it('is stored by a create and a PUT and read back as written', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/items`, headers }));
      await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withBearerAuth({ url: `${side.url}/items`, headers: [...headers, { header: name.toUpperCase(), value: 'two' }], bearerToken: '<BEARER_TOKEN>' }))
        .expect(200);

      const read = await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200);

      expect(read.body.headers).toEqual([...headers, { header: name.toUpperCase(), value: 'two' }]);
    });

    it('is sent by a test run of a saved and of an unsaved connector', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/saved`, headers }));
      const before = side.received.length;

      await sut.http.post(`${base}/${uuid}/test`).set(bearer(token)).send({}).expect(200);
      const unsaved = await sut.http
        .post(`${base}/test`)
        .set(bearer(token))
        .send({ connector: withBearerAuth({ url: `${side.url}/unsaved`, headers }) })
        .expect(200);

      expect(unsaved.body.outcome).toBe('SUCCESS');
      const sent = side.received.slice(before);
      expect(sent.map(({ url }) => url)).toEqual(['/saved', '/unsaved']);
      for (const { rawHeaders } of sent) {
        const pairs = rawHeaders.flatMap((text, at) => (at % 2 === 0 ? [[text, rawHeaders[at + 1]]] : []));
        expect(pairs).toContainEqual([name, 'one']);
      }
    });

    it('is imported from a cURL command', async () => {
      const source = `curl -u 'ada:s3cr3t-Pa55' -H '${name}: one' https://api.example.com/${name}`;

      const res = await sut.http.post(`${base}/import`).set(bearer(token)).send({ format: 'curl', source, dryRun: false }).expect(200);

      expect(res.body.connectors[0].connector).toMatchObject({ authType: 'AUTH_BASIC', headers: [{ header: name, value: 'one' }] });
    });
  });

  describe('headers a front end routes by', () => {
    const refusedHeader = (index: number, header: string) =>
      `headers.${index}.header ${header} cannot go with a secret: a front end may route the call by it, and the secret sent with it, to another path or site; remove the header`;
    const elsewhere = (index: number, header: string) =>
      `headers.${index}.value must name the host (and port) of url in ${header}: a front end may route the call by it, and the secret sent with it, to another site`;
    const headers = [
      { header: 'Accept', value: 'application/json' },
      { header: 'X-HTTP-Host-Override', value: 'evil.example.net' },
      { header: 'X-Forwarded-Server', value: 'evil.example.net' },
      { header: 'X-Envoy-Original-Host', value: 'evil.example.net' },
      { header: 'X-Original-URL', value: '/admin/echo' },
      { header: 'X-Rewrite-URL', value: '/admin/echo' },
      { header: 'X-Forwarded-Prefix', value: '/debug' },
      { header: 'X-Forwarded-Proto', value: 'http' },
      { header: 'X-Forwarded-Port', value: '8080' },
    ];
    const messages = [
      elsewhere(1, 'X-HTTP-Host-Override'),
      elsewhere(2, 'X-Forwarded-Server'),
      elsewhere(3, 'X-Envoy-Original-Host'),
      refusedHeader(4, 'X-Original-URL'),
      refusedHeader(5, 'X-Rewrite-URL'),
      refusedHeader(6, 'X-Forwarded-Prefix'),
      refusedHeader(7, 'X-Forwarded-Proto'),
      refusedHeader(8, 'X-Forwarded-Port'),
    ];
    const count = async () => Number((await sut.dataSource.query('SELECT COUNT(*) AS n FROM rest_connectors WHERE bot_uuid = ?', [tenant.bot.uuid]))[0].n);

    it('are refused beside a secret on a create and a PUT, one message naming each, and nothing is stored', async () => {
      const uuid = await createConnector(sut, tenant, token, withBearerAuth({ url: `${side.url}/x` }));
      const stored = await count();

      const created = await sut.http
        .post(base)
        .set(bearer(token))
        .send(withBearerAuth({ url: `${side.url}/x`, headers }))
        .expect(400);
      const put = await sut.http
        .put(`${base}/${uuid}`)
        .set(bearer(token))
        .send(withBearerAuth({ url: `${side.url}/x`, headers, bearerToken: '<BEARER_TOKEN>' }))
        .expect(400);

      expect(created.body).toEqual(errorBody(400, 'Bad Request', messages, base));
      expect(put.body.message).toEqual(messages);
      expect(await count()).toBe(stored);
      expect((await sut.http.get(`${base}/${uuid}`).set(bearer(token)).expect(200)).body.headers).toEqual([{ header: 'Accept', value: 'application/json' }]);
    });

    it('are refused beside a secret by a test run before anything is sent, and sent without one', async () => {
      const before = side.connections();

      const refused = await sut.http
        .post(`${base}/test`)
        .set(bearer(token))
        .send({ connector: withBearerAuth({ url: `${side.url}/x`, headers }) })
        .expect(400);
      expect(refused.body.message).toEqual(messages);
      expect(side.connections()).toBe(before);

      const run = await sut.http
        .post(`${base}/test`)
        .set(bearer(token))
        .send({ connector: withBearerAuth({ url: `${side.url}/x`, headers, authType: 'AUTH_NONE' }) })
        .expect(200);
      expect(run.body.outcome).toBe('SUCCESS');
      expect(side.received.at(-1)!.headers).toMatchObject({ 'x-original-url': '/admin/echo', 'x-http-host-override': 'evil.example.net' });
    });

    it('are refused in what an import would create, with the same messages, and nothing is created', async () => {
      const source =
        "curl -H 'Authorization: Bearer tok-7d1e' -H 'X-Original-URL: /admin/echo' -H 'X-Forwarded-Server: evil.example.net' https://api.example.com/me";
      const stored = await count();

      const res = await sut.http.post(`${base}/import`).set(bearer(token)).send({ format: 'curl', source, dryRun: false }).expect(400);

      expect(res.body.message).toEqual([
        `connectors.0 (line 1): ${refusedHeader(0, 'X-Original-URL')}`,
        `connectors.0 (line 1): ${elsewhere(1, 'X-Forwarded-Server')}`,
      ]);
      expect(await count()).toBe(stored);
    });
  });
});

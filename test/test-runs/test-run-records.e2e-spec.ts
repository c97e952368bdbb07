import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { TEST_RUNS_KEPT } from '../../apps/transactional-service/src/rest-connectors/test-runs/test-run-records.service';
import { farSide, FarSide } from '../../apps/transactional-service/src/rest-connectors/test-runs/testing/far-side';
import {
  aConnectorBody,
  ALICE,
  connectorsPath,
  createConnector,
  errorBody,
  ISO_UTC_MILLIS,
  tenantPath,
  withApiKey,
  withBearerAuth,
} from '../rest-connectors/connector-factories';
import { aBot, importData, seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig, sqliteTestConfig } from '../support/test-config';
import { TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import { FAR_SIDE_HOST } from './loopback-resolver';
import { requestIds, startRunsApp } from './run-records';

/** A far side reached by name: the record must name the host as the connector's URL does. */
const byName = (side: FarSide) => `http://${FAR_SIDE_HOST}:${side.port}`;

/** The stored row of a run, read with SQL: every column as the database holds it. */
async function storedRun(sut: TestApp, requestId: string): Promise<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = await sut.dataSource.query('SELECT * FROM connector_test_runs WHERE request_id = ?', [requestId]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe('The record of connector test runs (MariaDB, far sides on 127.0.0.2)', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let writer: string;
  let reader: string;
  let base: string;
  let side: FarSide;

  const testUnsaved = (body: object, requestId: string = randomUUID()) =>
    sut.http.post(`${base}/test`).set(bearer(writer)).set('X-Request-Id', requestId).send(body);
  const testSaved = (uuid: string, body: object = {}, requestId: string = randomUUID()) =>
    sut.http.post(`${base}/${uuid}/test`).set(bearer(writer)).set('X-Request-Id', requestId).send(body);
  const runsOf = (uuid: string, query = '', as = reader, path = base) => sut.http.get(`${path}/${uuid}/test-runs${query}`).set(bearer(as));
  const unsavedRuns = (query = '', as = reader, path = base) => sut.http.get(`${path}/test-runs${query}`).set(bearer(as));

  beforeAll(async () => {
    sut = await startRunsApp(mysqlTestConfig());
    tenant = await seedTenant(sut.dataSource);
    writer = await signToken({ ...ALICE, sub: 'auth0|alice' });
    // No scope: reading is all it may do.
    reader = await signToken({ sub: 'auth0|rita', username: 'rita' });
    base = tenantPath(tenant);
  });
  afterAll(() => sut.close());
  afterEach(() => side?.close());

  it("records a saved connector's run: who and when, the request id of its access log line, the host called, outcome, status, duration", async () => {
    side = await farSide((_received, res) => {
      res.statusCode = 404;
      res.end('{}');
    });
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${byName(side)}/items/{{id}}?lang=en` }));
    const before = Date.now();

    const res = await sut.http
      .post(`${base}/${uuid}/test`)
      .set(bearer(writer))
      .send({ variables: { id: '7' } })
      .expect(200);

    const requestId = res.headers['x-request-id'];
    const page = await runsOf(uuid).expect(200);
    expect(page.body).toMatchObject({ totalElements: 1, totalPages: 1, size: 20, number: 0, numberOfElements: 1, first: true, last: true, empty: false });
    expect(page.body.content).toEqual([
      {
        startedAt: expect.stringMatching(ISO_UTC_MILLIS),
        sub: 'auth0|alice',
        username: 'alice',
        requestId,
        connectorUuid: uuid,
        destinationHost: `${FAR_SIDE_HOST}:${side.port}`,
        outcome: 'HTTP_ERROR',
        status: 404,
        durationMs: res.body.durationMs,
      },
    ]);
    const startedAt = Date.parse(page.body.content[0].startedAt);
    expect(startedAt).toBeGreaterThanOrEqual(before);
    expect(startedAt).toBeLessThanOrEqual(Date.now());
    // The same id as the request's access log line.
    expect(sut.logs).toContainEqual(expect.objectContaining({ requestId, req: { method: 'POST' }, res: { statusCode: 200 } }));
    expect(await storedRun(sut, requestId)).toMatchObject({
      organization_uuid: tenant.organization.uuid,
      environment_uuid: tenant.environment.uuid,
      bot_uuid: tenant.bot.uuid,
      connector_uuid: uuid,
    });
  });

  it("lists an unsaved connector's runs under the bot, and only there; a saved connector's never", async () => {
    const own = await seedTenant(sut.dataSource);
    const path = tenantPath(own);
    side = await farSide();
    const saved = await createConnector(sut, own, writer, aConnectorBody({ url: `${side.url}/saved` }));
    await sut.http.post(`${path}/${saved}/test`).set(bearer(writer)).set('X-Request-Id', 'own-saved').send({}).expect(200);
    expect((await unsavedRuns('', reader, path).expect(200)).body).toMatchObject({ content: [], totalElements: 0, empty: true });

    // A refused destination is a run too: nothing came back, so no status.
    const blocked = await sut.http
      .post(`${path}/test`)
      .set(bearer(writer))
      .set('X-Request-Id', 'own-blocked')
      .send({ connector: aConnectorBody({ url: 'http://127.0.0.1:9/x' }) })
      .expect(200);
    await sut.http
      .post(`${path}/test`)
      .set(bearer(writer))
      .set('X-Request-Id', 'own-unsaved')
      .send({ connector: aConnectorBody({ url: `${side.url}/unsaved` }) })
      .expect(200);

    const page = await unsavedRuns('', reader, path).expect(200);
    expect(page.body.content).toEqual([
      expect.objectContaining({ requestId: 'own-unsaved', connectorUuid: null, destinationHost: `127.0.0.2:${side.port}`, outcome: 'SUCCESS', status: 200 }),
      expect.objectContaining({
        requestId: 'own-blocked',
        connectorUuid: null,
        destinationHost: '127.0.0.1:9',
        outcome: 'BLOCKED_DESTINATION',
        status: null,
        durationMs: blocked.body.durationMs,
      }),
    ]);
    expect(requestIds(await runsOf(saved, '', reader, path).expect(200))).toEqual(['own-saved']);
    expect(requestIds(await unsavedRuns().expect(200))).not.toContain('own-unsaved');
  });

  it('pages newest first, 20 by default and at most 100, with 400s for bad numbers', async () => {
    side = await farSide();
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/x` }));
    expect((await runsOf(uuid).expect(200)).body).toMatchObject({ content: [], totalElements: 0, totalPages: 0, empty: true, size: 20 });
    for (const id of ['page-1', 'page-2', 'page-3']) await testSaved(uuid, {}, `${id}-${uuid}`).expect(200);

    const first = await runsOf(uuid, '?linesPerPage=2').expect(200);
    const second = await runsOf(uuid, '?linesPerPage=2&page=2').expect(200);

    expect(first.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2, number: 0, numberOfElements: 2, first: true, last: false });
    expect(requestIds(first)).toEqual([`page-3-${uuid}`, `page-2-${uuid}`]);
    expect(second.body).toMatchObject({ totalElements: 3, number: 1, numberOfElements: 1, last: true });
    expect(requestIds(second)).toEqual([`page-1-${uuid}`]);
    expect((await runsOf(uuid, '?linesPerPage=100').expect(200)).body.numberOfElements).toBe(3);
    for (const query of ['?linesPerPage=101', '?linesPerPage=0', '?page=0', '?page=x', '?size=5']) {
      await runsOf(uuid, query).expect(400);
      await unsavedRuns(query).expect(400);
    }
  });

  it("needs only read access, is a 404 outside the path's scope and a 403 outside the token's organizations; a deleted connector's runs stay readable", async () => {
    side = await farSide();
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/x` }));
    await testSaved(uuid, {}, `scope-${uuid}`).expect(200);
    const otherBot = aBot(tenant.environment.uuid);
    await importData(sut.dataSource, { bots: [otherBot] });
    const other = connectorsPath(tenant.organization.uuid, tenant.environment.uuid, otherBot.uuid);

    expect(requestIds(await runsOf(uuid, '', reader).expect(200))).toEqual([`scope-${uuid}`]);
    const missing = await runsOf(uuid, '', reader, other).expect(404);
    expect(missing.body).toEqual(errorBody(404, 'Not Found', `Rest connector ${uuid} not found in bot ${otherBot.uuid}`, `${other}/${uuid}/test-runs`));
    await runsOf(randomUUID()).expect(404);
    await runsOf(uuid, '', reader, connectorsPath(tenant.organization.uuid, randomUUID(), tenant.bot.uuid)).expect(404);
    await unsavedRuns('', reader, connectorsPath(tenant.organization.uuid, tenant.environment.uuid, randomUUID())).expect(404);
    const outsider = await signToken({ orgs: [randomUUID()] });
    await runsOf(uuid, '', outsider).expect(403);
    await unsavedRuns('', outsider).expect(403);
    // A reader cannot run a test (connectors:write), and a refused run is not recorded.
    await sut.http.post(`${base}/${uuid}/test`).set(bearer(reader)).send({}).expect(403);

    await sut.http.delete(`${base}/${uuid}`).set(bearer(writer)).expect(204);
    expect(requestIds(await runsOf(uuid, '', reader).expect(200))).toEqual([`scope-${uuid}`]);
  });

  it('stores no secret, header, URL user info, path, query or body of a run: only the host and port called', async () => {
    const secrets = {
      bearer: `bearer-${randomUUID()}`,
      header: `header-${randomUUID()}`,
      path: `path-${randomUUID()}`,
      query: `query-${randomUUID()}`,
      userInfo: `userinfo-${randomUUID()}`,
      body: `body-${randomUUID()}`,
      apiKey: `apikey-${randomUUID()}`,
      variable: `variable-${randomUUID()}`,
    };
    side = await farSide();
    const url = `http://svc:${secrets.userInfo}@${FAR_SIDE_HOST}:${side.port}/p/${secrets.path}/{{v}}?token=${secrets.query}`;
    const withSecrets = {
      url,
      requestType: 'POST',
      contentType: 'APPLICATION_JSON',
      headers: [{ header: 'X-Shared-Secret', value: secrets.header }],
      body: `{"secret":"${secrets.body}","v":"{{v}}"}`,
    };
    const saved = await createConnector(sut, tenant, writer, withBearerAuth({ ...withSecrets, bearerToken: secrets.bearer }));

    await testSaved(saved, { variables: { v: secrets.variable } }, `secret-saved-${saved}`).expect(200);
    await testUnsaved(
      { connector: withApiKey({ ...withSecrets, apiKeyName: 'key', apiKeyIn: 'QUERY', apiKey: secrets.apiKey }), variables: { v: secrets.variable } },
      `secret-unsaved-${saved}`,
    ).expect(200);

    // The far side got every one of them: the test ran with them all.
    const received = JSON.stringify(side.received);
    for (const secret of [secrets.bearer, secrets.header, secrets.path, secrets.query, secrets.body, secrets.apiKey, secrets.variable]) {
      expect(received).toContain(secret);
    }
    for (const requestId of [`secret-saved-${saved}`, `secret-unsaved-${saved}`]) {
      const row = await storedRun(sut, requestId);
      expect(row.destination_host).toBe(`${FAR_SIDE_HOST}:${side.port}`);
      const stored = JSON.stringify(row);
      for (const secret of Object.values(secrets)) {
        expect(stored).not.toContain(secret);
        expect(stored).not.toContain(Buffer.from(secret).toString('base64'));
      }
      expect(stored).not.toContain('X-Shared-Secret');
      expect(stored).not.toContain('/p/');
    }
  });

  it('writes the record after the run: nothing while the call waits on the far side', async () => {
    const held: Array<() => void> = [];
    side = await farSide((_received, res) => held.push(() => res.end('{}')));
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/slow` }));

    const run = testSaved(uuid, {}, `held-${uuid}`).then((res) => res.status);
    while (held.length === 0) await new Promise((wait) => setTimeout(wait, 10));
    expect((await runsOf(uuid).expect(200)).body.totalElements).toBe(0);
    held[0]();

    expect(await run).toBe(200);
    expect(requestIds(await runsOf(uuid).expect(200))).toEqual([`held-${uuid}`]);
  });

  it('records no run refused before its call: a 400 of the request, a 400 for a stored secret in what is sent, a 429', async () => {
    side = await farSide();
    const secret = `bearer-${randomUUID()}`;
    const uuid = await createConnector(sut, tenant, writer, withBearerAuth({ url: `${side.url}/{{id}}`, bearerToken: secret }));

    await testSaved(uuid, {}, `refused-missing-${uuid}`).expect(400);
    await testSaved(uuid, { variables: { id: secret } }, `refused-secret-${uuid}`).expect(400);
    const limited = await startRunsApp(mysqlTestConfig(), 1);
    try {
      const path = `${tenantPath(tenant)}/${uuid}/test`;
      await limited.http
        .post(path)
        .set(bearer(writer))
        .set('X-Request-Id', `allowed-${uuid}`)
        .send({ variables: { id: '1' } })
        .expect(200);
      await limited.http
        .post(path)
        .set(bearer(writer))
        .set('X-Request-Id', `refused-limit-${uuid}`)
        .send({ variables: { id: '2' } })
        .expect(429);
    } finally {
      await limited.close();
    }

    expect(requestIds(await runsOf(uuid).expect(200))).toEqual([`allowed-${uuid}`]);
    expect(side.received).toHaveLength(1);
  });

  it('records a run whose caller disconnected as CANCELLED', async () => {
    side = await farSide(() => undefined);
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/held` }));
    const server = sut.app.getHttpServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const client = httpRequest({
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        path: `${base}/${uuid}/test`,
        method: 'POST',
        headers: { ...bearer(writer), 'content-type': 'application/json', 'x-request-id': `cancelled-${uuid}` },
      });
      client.on('error', () => undefined);
      client.end('{}');
      while (side.received.length === 0) await new Promise((wait) => setTimeout(wait, 10));
      client.destroy();

      // Recorded once the run has ended, which the caller who left does not wait for.
      let page = await runsOf(uuid).expect(200);
      while (page.body.content.length === 0) page = await runsOf(uuid).expect(200);
      expect(page.body.content).toEqual([expect.objectContaining({ requestId: `cancelled-${uuid}`, outcome: 'CANCELLED', status: null })]);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it(`keeps the newest ${TEST_RUNS_KEPT} runs of a connector, deleting older ones as new ones are recorded`, async () => {
    side = await farSide();
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/x` }));
    const other = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/x` }));
    await testSaved(other, {}, `kept-other-${other}`).expect(200);

    for (let i = 0; i < TEST_RUNS_KEPT + 2; i++) await testSaved(uuid, {}, `kept-${i}-${uuid}`).expect(200);

    const page = await runsOf(uuid, '?linesPerPage=100').expect(200);
    expect(page.body.totalElements).toBe(TEST_RUNS_KEPT);
    expect(requestIds(page)).toEqual(Array.from({ length: TEST_RUNS_KEPT }, (_, i) => `kept-${TEST_RUNS_KEPT + 1 - i}-${uuid}`));
    const [{ count }] = await sut.dataSource.query('SELECT COUNT(*) AS count FROM connector_test_runs WHERE connector_uuid = ?', [uuid]);
    expect(Number(count)).toBe(TEST_RUNS_KEPT);
    // Another connector's runs are its own.
    expect(requestIds(await runsOf(other).expect(200))).toEqual([`kept-other-${other}`]);
  });
});

describe('The record of connector test runs on SQLite', () => {
  let sut: TestApp;
  let side: FarSide;

  beforeAll(async () => {
    sut = await startRunsApp(sqliteTestConfig());
    side = await farSide();
  });
  afterAll(async () => {
    await side?.close();
    await sut?.close();
  });

  it(`records and lists runs, and keeps the newest ${TEST_RUNS_KEPT} runs of unsaved connectors per bot`, async () => {
    const tenant = await seedTenant(sut.dataSource);
    const base = tenantPath(tenant);
    const writer = await signToken(ALICE);
    const reader = await signToken({ username: 'rita' });
    const uuid = await createConnector(sut, tenant, writer, aConnectorBody({ url: `${side.url}/saved` }));
    await sut.http.post(`${base}/${uuid}/test`).set(bearer(writer)).set('X-Request-Id', 'sqlite-saved').send({}).expect(200);
    const connector = aConnectorBody({ url: `${side.url}/unsaved` });

    for (let i = 0; i < TEST_RUNS_KEPT + 2; i++) {
      await sut.http.post(`${base}/test`).set(bearer(writer)).set('X-Request-Id', `sqlite-${i}`).send({ connector }).expect(200);
    }

    const unsaved = await sut.http.get(`${base}/test-runs?linesPerPage=100`).set(bearer(reader)).expect(200);
    expect(unsaved.body.totalElements).toBe(TEST_RUNS_KEPT);
    expect(requestIds(unsaved)).toEqual(Array.from({ length: TEST_RUNS_KEPT }, (_, i) => `sqlite-${TEST_RUNS_KEPT + 1 - i}`));
    expect(unsaved.body.content[0]).toEqual({
      startedAt: expect.stringMatching(ISO_UTC_MILLIS),
      sub: 'user-1',
      username: 'alice',
      requestId: `sqlite-${TEST_RUNS_KEPT + 1}`,
      connectorUuid: null,
      destinationHost: `127.0.0.2:${side.port}`,
      outcome: 'SUCCESS',
      status: 200,
      durationMs: expect.any(Number),
    });
    const saved = await sut.http.get(`${base}/${uuid}/test-runs`).set(bearer(reader)).expect(200);
    expect(saved.body.content).toEqual([expect.objectContaining({ requestId: 'sqlite-saved', connectorUuid: uuid })]);
  });
});

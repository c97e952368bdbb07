import { DEMO_IDS, seedDemoData } from '@app/seed-data';
import { OpenAPIObject } from '@nestjs/swagger';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { withResolver } from '../test-runs/loopback-resolver';
import { sqliteTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

const CONNECTORS = '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/bot/{botUUID}/rest-connectors';
const DEMO_BOT = `/platform-transactional-service/org/${DEMO_IDS.acme}/env/${DEMO_IDS.acmeProduction}/bot/${DEMO_IDS.supportBot}/rest-connectors`;

type Examples = Record<string, { value: object }>;
const examplesOf = (document: OpenAPIObject, path: string, method: 'post' | 'put'): Examples =>
  (document.paths[path] as any)[method].requestBody.content['application/json'].examples;

/**
 * What a newcomer does after `npm start`: picks a write example in Swagger UI and sends it to the demo bot.
 * The demo data set is loaded as npm start loads it, into a SQLite file of this test's own.
 */
describe('The write examples of the served document, sent to the demo bot', () => {
  let sut: TestApp;
  let served: OpenAPIObject;
  let token: string;

  beforeAll(async () => {
    // The test-run examples call the demo echo target: a resolver that answers from a table keeps every lookup, and
    // so every connection, on this machine.
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, sqliteTestConfig(), withResolver());
    expect(await seedDemoData(sut.dataSource)).toBe(true);
    served = (await sut.http.get('/platform-transactional-service/docs-json').expect(200)).body;
    token = await signToken({ orgs: [DEMO_IDS.acme], scope: 'connectors:write', username: 'newcomer' });
  });
  afterAll(() => sut.close());

  /** Each example's name with its status and, when it failed, the error message. */
  async function send(method: 'post' | 'put', url: string, examples: Examples): Promise<Record<string, string>> {
    const outcomes: Record<string, string> = {};
    for (const [name, { value }] of Object.entries(examples)) {
      const res = await sut.http[method](url).set(bearer(token)).send(value);
      outcomes[name] = res.status < 300 ? String(res.status) : `${res.status} ${JSON.stringify(res.body.message)}`;
    }
    return outcomes;
  }

  it('creates a connector from every create example (201)', async () => {
    const examples = examplesOf(served, CONNECTORS, 'post');
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(5);

    const outcomes = await send('post', DEMO_BOT, examples);

    expect(outcomes).toEqual(Object.fromEntries(Object.keys(examples).map((name) => [name, '201'])));
  });

  it('imports from every import example (200), and creates what a non-dry-run one describes', async () => {
    const examples = examplesOf(served, `${CONNECTORS}/import`, 'post');
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(2);

    const outcomes = await send('post', `${DEMO_BOT}/import`, examples);

    expect(outcomes).toEqual(Object.fromEntries(Object.keys(examples).map((name) => [name, '200'])));
    const names = (await sut.http.get(`${DEMO_BOT}/list`).set(bearer(token)).expect(200)).body.data.map(({ name }: { name: string }) => name);
    expect(names).toContain('trackParcel');
  });

  it('imports the text and YAML bodies of the import operation, pasted as they are shown (200)', async () => {
    const content = (served.paths[`${CONNECTORS}/import`] as any).post.requestBody.content;
    const outcomes: Record<string, number> = {};
    for (const [type, format] of [
      ['text/plain', 'curl'],
      ['application/yaml', 'openapi'],
      ['application/x-yaml', 'openapi'],
    ]) {
      const res = await sut.http.post(`${DEMO_BOT}/import?format=${format}`).set(bearer(token)).set('Content-Type', type).send(content[type].example);
      outcomes[type] = res.status;
    }

    expect(outcomes).toEqual({ 'text/plain': 200, 'application/yaml': 200, 'application/x-yaml': 200 });
  });

  it('exports the demo weather connector in every format', async () => {
    for (const format of ['curl', 'openapi', 'postman']) {
      const res = await sut.http.get(`${DEMO_BOT}/${DEMO_IDS.weatherConnector}/export?format=${format}`).set(bearer(token)).expect(200);
      expect(res.text).toContain('127.0.0.2:3004');
    }
  });

  it('updates the demo weather connector with every update example (200)', async () => {
    const examples = examplesOf(served, `${CONNECTORS}/{serviceUUID}`, 'put');
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(1);

    const outcomes = await send('put', `${DEMO_BOT}/${DEMO_IDS.weatherConnector}`, examples);

    expect(outcomes).toEqual(Object.fromEntries(Object.keys(examples).map((name) => [name, '200'])));
  });

  it('runs every test-run example against the demo bot: 200, each sent to the demo echo target, which this test admits not', async () => {
    const runs = [
      { url: `${DEMO_BOT}/test`, examples: examplesOf(served, `${CONNECTORS}/test`, 'post') },
      { url: `${DEMO_BOT}/${DEMO_IDS.weatherConnector}/test`, examples: examplesOf(served, `${CONNECTORS}/{serviceUUID}/test`, 'post') },
    ];
    const outcomes: Record<string, string> = {};
    for (const { url, examples } of runs) {
      for (const [name, { value }] of Object.entries(examples)) {
        const res = await sut.http.post(url).set(bearer(token)).send(value);
        outcomes[name] = res.status === 200 ? `200 ${res.body.outcome}` : `${res.status} ${JSON.stringify(res.body.message)}`;
      }
    }

    // Outside development nothing is admitted by default: test/cli/npm-start.e2e-spec.ts runs them where they succeed.
    expect(outcomes).toEqual({
      noAuth: '200 BLOCKED_DESTINATION',
      bearer: '200 BLOCKED_DESTINATION',
      clientCredentials: '200 BLOCKED_DESTINATION',
      asStored: '200 BLOCKED_DESTINATION',
      withEdits: '200 BLOCKED_DESTINATION',
    });
  });

  it("replaces the demo production environment's connector variables with every example, in order (200), keeping ECHO_URL", async () => {
    const variables = `/platform-transactional-service/org/${DEMO_IDS.acme}/env/${DEMO_IDS.acmeProduction}/connector-variables`;
    const examples = examplesOf(served, '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/connector-variables', 'put');
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(2);

    const outcomes = await send('put', variables, examples);

    expect(outcomes).toEqual(Object.fromEntries(Object.keys(examples).map((name) => [name, '200'])));
    const { body } = await sut.http.get(variables).set(bearer(token)).expect(200);
    expect(body.variables).toContainEqual(expect.objectContaining({ name: 'ECHO_URL', value: 'http://127.0.0.2:3004' }));
  });

  it("plans the demo staging bot's promotion from every dry-run example, and applies it with the digest a plan answered", async () => {
    const examples = examplesOf(served, `${CONNECTORS}/promotions`, 'post');
    const dryRuns = Object.entries(examples).filter(([, { value }]) => (value as { dryRun?: boolean }).dryRun !== false);
    expect(dryRuns.length).toBeGreaterThanOrEqual(2);

    const plans: Record<string, Record<string, string>> = {};
    for (const [name, { value }] of dryRuns) {
      const res = await sut.http.post(`${DEMO_BOT}/promotions`).set(bearer(token)).send(value).expect(200);
      plans[name] = Object.fromEntries(res.body.connectors.map((c: { name: string; action: string }) => [c.name, c.action]));
    }
    // Staging reads the forecast's host from its environment and has a connector production lacks.
    expect(plans.plan).toMatchObject({ 'Weather forecast': 'UPDATE', 'Store locator': 'CREATE' });
    expect(plans.planWithPrune).toMatchObject({ 'Order status': 'DELETE', 'Create CRM lead': 'DELETE' });

    // The apply example holds no real digest: it is refused as stale; with the digest of a dry run it applies.
    const apply = examples.apply.value as Record<string, unknown>;
    const stale = await sut.http.post(`${DEMO_BOT}/promotions`).set(bearer(token)).send(apply).expect(409);
    expect(stale.body.message).toContain('digest');
    const { digest } = (await sut.http.post(`${DEMO_BOT}/promotions`).set(bearer(token)).send(examples.plan.value).expect(200)).body;
    const applied = await sut.http
      .post(`${DEMO_BOT}/promotions`)
      .set(bearer(token))
      .send({ ...apply, digest })
      .expect(201);
    expect(applied.body.counts).toMatchObject({ create: 1, update: 1 });

    // The promoted forecast runs in production with production's {{env.ECHO_URL}} (blocked here: nothing is admitted).
    const run = await sut.http
      .post(`${DEMO_BOT}/${DEMO_IDS.weatherConnector}/test`)
      .set(bearer(token))
      .send({ variables: { city: 'Oslo' } })
      .expect(200);
    expect(run.body.outcome).toBe('BLOCKED_DESTINATION');
    expect(run.body.request.url).toBe('http://127.0.0.2:3004/v1/forecast?city=Oslo');
  });

  it('shows no placeholder in a create example and no leftover of the weather connector in the others', () => {
    const examples = Object.values(examplesOf(served, CONNECTORS, 'post')).map(({ value }) => value as Record<string, unknown>);

    expect(JSON.stringify(examples)).not.toMatch(/<(BASIC_TOKEN|BEARER_TOKEN|CLIENT_SECRET|PASSWORD)>/);
    for (const example of examples.filter((e) => !String(e.url).includes('weather'))) {
      expect(example.output).not.toBe('$.forecast');
      expect(example.tags).not.toContainEqual({ name: 'weather' });
    }
  });
});

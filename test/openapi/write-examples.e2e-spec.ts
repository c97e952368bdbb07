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
    // The test-run examples name hosts like api.weather.example.com: a resolver that answers from a table (and
    // knows none of them) keeps every lookup, and so every connection, on this machine.
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
      expect(res.text).toContain('api.weather.example.com');
    }
  });

  it('updates the demo weather connector with every update example (200)', async () => {
    const examples = examplesOf(served, `${CONNECTORS}/{serviceUUID}`, 'put');
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(1);

    const outcomes = await send('put', `${DEMO_BOT}/${DEMO_IDS.weatherConnector}`, examples);

    expect(outcomes).toEqual(Object.fromEntries(Object.keys(examples).map((name) => [name, '200'])));
  });

  it('runs every test-run example against the demo bot: 200, the call attempted (its host is not resolved here)', async () => {
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

    expect(outcomes).toEqual({
      noAuth: '200 CONNECTION_FAILED',
      bearer: '200 CONNECTION_FAILED',
      clientCredentials: '200 AUTH_FAILED',
      asStored: '200 CONNECTION_FAILED',
      withEdits: '200 CONNECTION_FAILED',
    });
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

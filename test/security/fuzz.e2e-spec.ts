import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { createServer, IncomingHttpHeaders, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { seedTenant, Tenant } from '../support/fixtures';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';
import {
  aConnectorBody,
  ConnectorWriteBody,
  connectorsPath,
  createConnector,
  ISO_UTC_MILLIS,
  RECORD_KEYS,
  tenantPath,
  withBasicAuth,
  withBearerAuth,
  withClientCredentials,
  withPasswordGrant,
} from '../rest-connectors/connector-factories';

type Request = ReturnType<TestApp['http']['get']>;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * An HTTP client that sends the path exactly as given. supertest parses URLs with WHATWG URL, which
 * removes dot segments (`/a/../b`, `%2e%2e` too) and re-encodes quotes, so those would never reach the app.
 */
class RawClient {
  private constructor(private readonly server: Server) {}

  static async serve(sut: TestApp): Promise<RawClient> {
    const server = createServer(sut.app.getHttpAdapter().getInstance());
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return new RawClient(server);
  }

  send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
    const { port } = this.server.address() as AddressInfo;
    return new Promise((done, fail) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: the assertions on the error body say so
          }
          done({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      });
      req.on('error', fail);
      req.end(body);
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }
}

const ERROR_KEYS = ['error', 'message', 'path', 'requestId', 'statusCode', 'timestamp'];

/** The write body's fields: the record's, less the read-only ones a write ignores (below). */
const READ_ONLY_FIELDS = ['uuid', 'flows', 'updatedAt', 'updatedBy', 'user'];
const WRITE_FIELDS = RECORD_KEYS.filter((key) => !READ_ONLY_FIELDS.includes(key));
const ENUM_VALUES = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'get',
  'TRACE',
  'NONE',
  'APPLICATION_JSON',
  'APPLICATION_XML',
  'APPLICATION_FORM_URLENCODED',
  'MULTIPART_FORM_DATA',
  'TEXT_PLAIN',
  'AUTH_NONE',
  'AUTH_BASIC',
  'AUTH_BEARER',
  'AUTH_OAUTH2',
  'auth_none',
  'CLIENT_CREDENTIALS',
  'PASSWORD',
  '<BASIC_TOKEN>',
  '<BEARER_TOKEN>',
  '<CLIENT_SECRET>',
  '<PASSWORD>',
];

/**
 * Percent-encodes any JS string, lone surrogates included (as their WTF-8 bytes, which no decoder
 * accepts as UTF-8), so that arbitrary strings reach the server byte for byte.
 */
function encodeLoose(value: string): string {
  let out = '';
  for (const char of value) {
    try {
      out += encodeURIComponent(char);
    } catch {
      const code = char.charCodeAt(0);
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    }
  }
  return out;
}

/** Every error is the contract's JSON body; no input is a 5xx. */
function expectContractAnswer(res: Answer, url: string): void {
  expect(res.status).toBeLessThan(500);
  if (res.status < 400) return;
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(ERROR_KEYS);
  expect(body.statusCode).toBe(res.status);
  expect(typeof body.error).toBe('string');
  const message = body.message;
  expect(typeof message === 'string' || (Array.isArray(message) && message.every((m) => typeof m === 'string'))).toBe(true);
  expect(body.path).toBe(url);
  expect(body.timestamp).toMatch(ISO_UTC_MILLIS);
  expect(typeof body.requestId === 'string' && body.requestId.length > 0).toBe(true);
}

// ---- value generators -------------------------------------------------------------------------

const longString = (min: number, max: number) => fc.nat({ max: max - min }).map((n) => 'x'.repeat(min + n));
/** fast-check 4's `fullUnicodeString()`: any code point. */
const unicode = fc.string({ unit: 'binary' });
const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\uD800',
  '\uDFFF',
  'İ'.repeat(100),
  'ẞ'.repeat(51),
  'ﬃ'.repeat(40),
  '\u{1F600}'.repeat(60),
  'e\u0301',
  "'; DROP TABLE rest_connectors; --",
  '%_\\',
  '{{x}}',
  'http://',
  'https://h/{{',
  'javascript:alert(1)',
  'https://example.com/a b',
  `https://example.com/${'a'.repeat(2040)}`,
  '__proto__',
  'constructor',
);
/**
 * Strings whose lower case is longer than they are ('İ' becomes 'i̇'), or that a case- and
 * accent-insensitive collation folds together ('ß' and 'ss', 'é' and 'e'), up to and past a limit.
 */
const caseFolding = (maxLength: number) =>
  fc.oneof(
    fc.tuple(fc.constantFrom('İ', 'İ', 'İ', 'ẞ', 'Σ', 'É', '😀', 'a'), fc.integer({ min: 1, max: maxLength })).map(([char, times]) => char.repeat(times)),
    // Not shrunk: removing one character at a time from a long string costs thousands of requests.
    fc.noShrink(fc.string({ unit: fc.constantFrom('İ', 'ẞ', 'ß', 'ss', 'Σ', 'ς', 'ǅ', 'É', 'é', 'e', 'a', 'A', '😀'), minLength: 1, maxLength, size: 'max' })),
  );
const wild: fc.Arbitrary<unknown> = fc.oneof(
  caseFolding(110),
  fc.array(fc.record({ name: caseFolding(55) }), { maxLength: 4 }),
  fc.string(),
  unicode,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...ENUM_VALUES),
  nastyStrings,
  fc.array(fc.anything(), { maxLength: 5 }),
  fc.array(fc.record({ name: fc.oneof(fc.string(), unicode, nastyStrings, fc.integer()) }), { maxLength: 25, size: 'max' }),
  fc.array(fc.record({ header: fc.oneof(fc.string(), nastyStrings), value: fc.oneof(fc.string(), longString(8000, 9000)) }), {
    maxLength: 55,
    size: 'max',
  }),
  fc.object(),
  longString(0, 70_000),
);

/** A valid body of one of the auth types, with a name of its own. */
const validBody: fc.Arbitrary<ConnectorWriteBody> = fc
  .tuple(fc.constantFrom(aConnectorBody, withBasicAuth, withBearerAuth, withClientCredentials, withPasswordGrant), fc.uuid())
  .map(([make, id]) => make({ name: `Fuzz ${id}` }));

/** Own property even for `__proto__`, so that it reaches the wire. */
function withField(body: ConnectorWriteBody, field: string, value: unknown): ConnectorWriteBody {
  const copy = { ...body };
  Object.defineProperty(copy, field, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const fieldName = fc.oneof(
  { arbitrary: fc.constantFrom('name', 'tags', 'headers', 'url', 'authType'), weight: 4 },
  { arbitrary: fc.constantFrom(...WRITE_FIELDS), weight: 4 },
  { arbitrary: fc.constantFrom(...READ_ONLY_FIELDS, '__proto__', 'constructor', 'prototype', 'botUuid', 'version'), weight: 2 },
  { arbitrary: fc.string(), weight: 1 },
);

/** Valid but for one field, replaced or removed. */
const nearValidBody = fc.tuple(validBody, fieldName, wild, fc.boolean()).map(([body, field, value, remove]) => {
  if (!remove) return withField(body, field, value);
  const copy = { ...body };
  delete copy[field];
  return copy;
});

/** A value of the wrong shape for a string, an object or an array: nested arrays above all, at any depth. */
const wrongShape = fc.letrec<{ shape: unknown }>((tie) => ({
  shape: fc.oneof(
    { arbitrary: fc.constantFrom<unknown>([], [[]], [[[]]], {}, 0, 1.5, true, false, [null], ['x'], [1]), weight: 3 },
    { arbitrary: fc.array(tie('shape'), { minLength: 1, maxLength: 3 }), weight: 2 },
    { arbitrary: fc.dictionary(fc.constantFrom('header', 'value', 'name', 'x'), tie('shape'), { minKeys: 1, maxKeys: 2 }), weight: 1 },
  ),
})).shape;

/**
 * A valid body with one wrong shape put at any depth: a top-level field, an array's item (wrapped in an
 * array, say), or a field of an item. `field` is the top-level field a 400 must name.
 */
const wrongShapeAtDepth = fc
  .tuple(validBody, fc.constantFrom('field', 'item', 'wrappedItem', 'itemField'), fc.constantFrom('headers', 'tags'), wrongShape, fc.nat(40))
  .map(([body, where, list, value, pick]) => {
    if (where === 'field') {
      const fields = Object.keys(body).filter((field) => field !== 'headers' && field !== 'tags');
      const field = fields[pick % fields.length];
      return { field, body: withField(body, field, value) };
    }
    const items = list === 'headers' ? [{ header: 'Accept', value: 'application/json' }] : [{ name: 'alpha' }];
    if (where === 'item') return { field: list, body: withField(body, list, [...items, value]) };
    if (where === 'wrappedItem') return { field: list, body: withField(body, list, [items, ...(pick % 2 ? [[]] : [])]) };
    const key = Object.keys(items[0])[pick % Object.keys(items[0]).length];
    return { field: list, body: withField(body, list, [{ ...items[0], [key]: value }]) };
  });

/** Every real field with a value of any type. */
const typedBody = fc.record(Object.fromEntries(WRITE_FIELDS.map((field) => [field, wild])), { requiredKeys: [] });

/** A JSON text to send as is: any value, a parsed JSON text, or one of the bodies above. */
const writePayload: fc.Arbitrary<string> = fc.oneof(
  fc.anything().map((value) => JSON.stringify(value) ?? ''),
  fc.json(),
  fc.json().map((text) => JSON.stringify(JSON.parse(text))),
  typedBody.map((body) => JSON.stringify(body)),
  nearValidBody.map((body) => JSON.stringify(body)),
  nearValidBody.map((body) => JSON.stringify(body)),
  fc
    .tuple(validBody, caseFolding(110), fc.array(caseFolding(55), { maxLength: 3 }))
    .map(([body, name, tags]) => JSON.stringify({ ...body, name, tags: tags.map((tag) => ({ name: tag })) })),
);

const queryValue = fc.oneof(
  fc.string(),
  unicode,
  fc.constantFrom('%', '_', '\\', "'", '"', '%%', '_%', '\\%', "' OR '1'='1", '1; DROP TABLE rest_connectors; --', ') UNION SELECT 1 --', '\uD800'),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.integer().map(String),
  fc.constantFrom('0', '-1', '1', '100', '101', '50', '51', '2147483647', '2147483648', '9999999999999999', '1e3', '1.5', ' 1', '0x10', 'NaN', 'Infinity', ''),
  fc.constantFrom('name', 'NAME', 'updatedAt', 'updatedBy', 'uuid', 'asc', 'DESC', 'dEsC', 'sideways'),
  fc.array(fc.oneof(fc.string(), fc.constantFrom('%', '_', '\\', ' ')), { maxLength: 12 }).map((terms) => terms.join(',')),
  longString(90, 300),
);
const oddQueryKey = fc.oneof(
  fc.constantFrom('page', 'linesPerPage', 'orderBy', 'direction', 'searchTerms', 'searchTerm', 'limit'),
  fc.constantFrom('searchTerms[]', 'searchTerms[0]', 'searchTerms[a]', 'page[]', 'limit[x]', '__proto__', 'constructor', 'hasOwnProperty', 'toString', 'sort'),
  fc.string(),
  unicode,
);
type Pairs = Array<[string, string]>;
const optionalPair = (key: string, likely: fc.Arbitrary<string>) =>
  fc
    .option(fc.oneof({ arbitrary: likely, weight: 5 }, { arbitrary: queryValue, weight: 1 }), { freq: 3 })
    .map((value): Pairs => (value === null ? [] : [[key, value]]));
/** Values a client would plausibly send for a number, including the edges. */
const numberText = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 20 }).map(String), weight: 8 },
  { arbitrary: fc.integer({ min: -5, max: 120 }).map(String), weight: 2 },
  fc.constantFrom('2147483647', '2147483648', '9999999999999999', '99999999999999999999', '-0', '01', '1e2', '1.0', '+1'),
);
/** A search term: mostly short, with LIKE wildcards, quotes and any code point; now and then anything. */
const searchTerm = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 2 },
  { arbitrary: fc.constantFrom('%', '_', '\\', "'", '"', '%_\\', '100%', 'under_score', "quote's", 'Ünïcödé', '😀', "' OR '1'='1", ' '), weight: 3 },
  { arbitrary: queryValue, weight: 1 },
);
/** `searchTerms` absent, repeated, or comma-separated. */
const searchTermsPairs = fc.oneof(
  fc.constant<Pairs>([]),
  fc.array(searchTerm, { minLength: 1, maxLength: 11 }).map((values): Pairs => values.map((value) => ['searchTerms', value])),
  fc.array(searchTerm, { minLength: 1, maxLength: 11 }).map((values): Pairs => [['searchTerms', values.join(',')]]),
);
/** Extra pairs: mostly none; otherwise unknown, bracketed or repeated keys. */
const extraPairs = fc.oneof(
  { arbitrary: fc.constant<Pairs>([]), weight: 5 },
  { arbitrary: fc.array(fc.tuple(oddQueryKey, queryValue), { minLength: 1, maxLength: 3 }), weight: 1 },
);
/** Now and then a malformed fragment, left raw. */
const rawFragment = fc.oneof(
  { arbitrary: fc.constant(null), weight: 7 },
  { arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '&&', '=', '&=&', 'page', 'searchTerm=%00', '%C0%AF', 'limit=%FF'), weight: 1 },
);
const toQueryString = (groups: Pairs[], raw: string | null) =>
  [...groups.flat().map(([key, value]) => `${encodeLoose(key)}=${encodeLoose(value)}`), ...(raw === null ? [] : [raw])].join('&');

const orderByText = fc.oneof(
  { arbitrary: fc.constantFrom('name', 'updatedAt', 'updatedBy'), weight: 6 },
  fc.constantFrom('NAME', 'uuid', 'name;', 'name DESC', 'updated_at', '(SELECT 1)'),
);
const directionText = fc.oneof({ arbitrary: fc.constantFrom('ASC', 'DESC', 'asc', 'Desc'), weight: 6 }, fc.constantFrom('ASC,DESC', 'ascending', 'ASC; --'));

const paginationQuery = fc
  .tuple(
    fc.tuple(
      optionalPair('page', numberText),
      optionalPair('linesPerPage', numberText),
      optionalPair('orderBy', orderByText),
      optionalPair('direction', directionText),
      searchTermsPairs,
      extraPairs,
    ),
    rawFragment,
  )
  .map(([groups, raw]) => toQueryString(groups, raw));
const quicksearchQuery = fc
  .tuple(
    fc.tuple(
      fc.option(searchTerm, { freq: 8 }).map((value): Pairs => (value === null ? [] : [['searchTerm', value]])),
      optionalPair('limit', numberText),
      extraPairs,
    ),
    rawFragment,
  )
  .map(([groups, raw]) => toQueryString(groups, raw));

// ---- the database state a rejected request must leave alone ---------------------------------------

async function stateOf(sut: TestApp, bot: string) {
  const [connectors] = await sut.dataSource.query(
    `SELECT COUNT(*) AS count, COALESCE(SUM(version), 0) AS versions, MAX(version) AS maxVersion,
            MD5(GROUP_CONCAT(MD5(CONCAT_WS('|', uuid, version, name, name_key, updated_at, deleted_at, url, headers,
                request_type, content_type, auth_type, body, output, description)) ORDER BY uuid)) AS checksum
       FROM rest_connectors WHERE bot_uuid = ?`,
    [bot],
  );
  const [tags] = await sut.dataSource.query(
    `SELECT COUNT(*) AS count, MD5(GROUP_CONCAT(CONCAT_WS('|', t.connector_uuid, t.name, t.position) ORDER BY t.connector_uuid, t.position)) AS checksum
       FROM rest_connector_tags t JOIN rest_connectors c ON c.uuid = t.connector_uuid WHERE c.bot_uuid = ?`,
    [bot],
  );
  return { connectors: { ...connectors }, tags: { ...tags } };
}

/**
 * Sends one request, checks the answer, and checks that a rejected request left the bot's rows as they
 * were. The state is read before every request: a success (a valid generated body) may have written.
 */
async function probe<T extends Answer>(sut: TestApp, bot: string, url: string, send: () => PromiseLike<T>): Promise<T> {
  const before = await stateOf(sut, bot);
  const res = await send();
  expectContractAnswer(res, url);
  if (res.status >= 400) expect(await stateOf(sut, bot)).toEqual(before);
  return res;
}

/**
 * The runs of each property: 150 in `npm test` (new inputs at every run), 1000 in the release checks' deep run
 * (test/support/deep-fuzz.ts), FUZZ_RUNS when set.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
/** A property runs hundreds of requests; shrinking a failure runs more. */
const PROPERTY_TIMEOUT_MS = 120_000;

describe('Fuzz: no input makes the platform answer 5xx or break the error contract (MariaDB, fast-check)', () => {
  let connectors: TestApp;
  let environments: TestApp;
  let bots: TestApp;
  const raw = {} as Record<'connectors' | 'environments' | 'bots', RawClient>;

  beforeAll(async () => {
    [connectors, environments, bots] = await Promise.all([
      startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig()),
      startTestApp(ENVIRONMENT_APP, mysqlTestConfig()),
      startTestApp(BOT_ADMIN_APP, mysqlTestConfig()),
    ]);
    [raw.connectors, raw.environments, raw.bots] = await Promise.all([connectors, environments, bots].map(RawClient.serve));
  });
  afterAll(async () => {
    await Promise.all(Object.values(raw).map((client) => client.close()));
    await Promise.all([connectors?.close(), environments?.close(), bots?.close()]);
  });

  const writerOf = (tenant: Tenant) => signToken({ sub: 'fuzzer', username: 'fuzzer', orgs: [tenant.organization.uuid], scope: 'connectors:write' });

  describe('write bodies', () => {
    let tenant: Tenant;
    let token: string;
    let target: string;

    beforeAll(async () => {
      tenant = await seedTenant(connectors.dataSource);
      token = await writerOf(tenant);
      target = await createConnector(connectors, tenant, token, { name: 'Fuzz target' });
    });

    it(
      'POST create answers 201 or a 4xx error body for any JSON body, and a rejected one writes nothing',
      async () => {
        const url = tenantPath(tenant);

        await fc.assert(
          fc.asyncProperty(writePayload, async (payload) => {
            const res = await probe(connectors, tenant.bot.uuid, url, () =>
              connectors.http.post(url).set(bearer(token)).set('Content-Type', 'application/json').send(payload),
            );
            if (res.status < 400) expect(res.status).toBe(201);
          }),
          { numRuns: RUNS },
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'a wrong shape at any depth of a valid body is a 400 naming its field, and writes nothing',
      async () => {
        const url = tenantPath(tenant);

        await fc.assert(
          fc.asyncProperty(wrongShapeAtDepth, async ({ field, body }) => {
            const res = await probe(connectors, tenant.bot.uuid, url, () => connectors.http.post(url).set(bearer(token)).send(body));
            expect(res.status).toBe(400);
            expect(JSON.stringify(res.body.message)).toContain(field);
          }),
          { numRuns: RUNS },
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'PUT update of an existing connector answers 200 or a 4xx error body for any JSON body, and a rejected one writes nothing',
      async () => {
        const url = `${tenantPath(tenant)}/${target}`;

        await fc.assert(
          fc.asyncProperty(writePayload, async (payload) => {
            const res = await probe(connectors, tenant.bot.uuid, url, () =>
              connectors.http.put(url).set(bearer(token)).set('Content-Type', 'application/json').send(payload),
            );
            if (res.status < 400) expect(res.status).toBe(200);
          }),
          { numRuns: RUNS },
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('query strings', () => {
    let tenant: Tenant;
    let token: string;

    beforeAll(async () => {
      tenant = await seedTenant(connectors.dataSource);
      token = await writerOf(tenant);
      for (const name of ['100% sure', 'under_score', 'back\\slash', "quote's", 'Ünïcödé 😀', 'plain']) {
        await createConnector(connectors, tenant, token, { name, tags: [{ name: `${name} tag` }] });
      }
    });

    it(
      'pagination answers a page or a 4xx error body for any query string',
      async () => {
        await fc.assert(
          fc.asyncProperty(paginationQuery, async (query) => {
            const url = `${tenantPath(tenant)}/pagination?${query}`;
            const res = await probe(connectors, tenant.bot.uuid, url, () => raw.connectors.send('GET', url, bearer(token)));
            if (res.status < 400) {
              expect(res.status).toBe(200);
              const page = res.body as { content: unknown[]; size: number };
              expect(Array.isArray(page.content)).toBe(true);
              expect(page.content.length).toBeLessThanOrEqual(page.size);
            }
          }),
          { numRuns: RUNS },
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'quicksearch answers suggestions or a 4xx error body for any query string',
      async () => {
        await fc.assert(
          fc.asyncProperty(quicksearchQuery, async (query) => {
            const url = `${tenantPath(tenant)}/quicksearch?${query}`;
            const res = await probe(connectors, tenant.bot.uuid, url, () => raw.connectors.send('GET', url, bearer(token)));
            if (res.status < 400) {
              expect(res.status).toBe(200);
              const names = res.body as unknown[];
              expect(Array.isArray(names) && names.every((name) => typeof name === 'string')).toBe(true);
              expect(names.length).toBeLessThanOrEqual(50);
            }
          }),
          { numRuns: RUNS },
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('path values', () => {
    let tenant: Tenant;
    let token: string;
    let connectorUuids: string[];

    beforeAll(async () => {
      tenant = await seedTenant(connectors.dataSource);
      token = await writerOf(tenant);
      connectorUuids = [];
      for (let i = 0; i < 5; i++) connectorUuids.push(await createConnector(connectors, tenant, token));
    });

    /** A path segment: the tenant's real id (any case), an unknown uuid, or something that is no uuid at all. */
    const segment = (real: string[]) =>
      fc.oneof(
        { arbitrary: fc.constantFrom(...real), weight: 12 },
        { arbitrary: fc.constantFrom(...real).map((id) => id.toUpperCase()), weight: 3 },
        { arbitrary: fc.uuid(), weight: 2 },
        { arbitrary: fc.uuid().map((id) => id.toUpperCase()), weight: 1 },
        { arbitrary: fc.string().map(encodeLoose), weight: 2 },
        { arbitrary: unicode.map(encodeLoose), weight: 1 },
        {
          arbitrary: fc.constantFrom(
            '.',
            '..',
            '%2F',
            'a%2Fb',
            '%2e%2e',
            '%2E',
            '..%2F..%2F',
            '%00',
            '%',
            '%zz',
            '%C0%AE',
            '%5C',
            'null',
            'undefined',
            '00000000-0000-0000-0000-000000000000',
            'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
            '%7B3fa85f64-5717-4562-b3fc-2c963f66afa6%7D',
            '3fa85f6457174562b3fc2c963f66afa6',
            '3fa85f64-5717-4562-b3fc-2c963f66afa6%20',
            '3fa85f64-5717-4562-b3fc-2c963f66afa6%0A',
            '3fa85f64-5717-4562-b3fc-2c963f66afa6.json',
            '3fa85f64-5717-4562-b3fc-2c963f66afa6,3fa85f64-5717-4562-b3fc-2c963f66afa7',
          ),
          weight: 2,
        },
        {
          arbitrary: fc.string({ unit: fc.constantFrom(...'abcdefABCDEF0123456789-._~'.split('')), minLength: 1000, maxLength: 2000 }),
          weight: 1,
        },
      );

    type Segments = { org: string; env: string; bot: string; connector: string };
    interface PathOperation {
      name: string;
      app: keyof typeof raw;
      method: string;
      url: (s: Segments) => string;
      body?: boolean;
    }
    const operations: PathOperation[] = [
      { name: 'pagination', app: 'connectors', method: 'GET', url: (s) => `${connectorsPath(s.org, s.env, s.bot)}/pagination` },
      { name: 'quicksearch', app: 'connectors', method: 'GET', url: (s) => `${connectorsPath(s.org, s.env, s.bot)}/quicksearch?searchTerm=a` },
      { name: 'list', app: 'connectors', method: 'GET', url: (s) => `${connectorsPath(s.org, s.env, s.bot)}/list` },
      { name: 'get', app: 'connectors', method: 'GET', url: (s) => `${connectorsPath(s.org, s.env, s.bot)}/${s.connector}` },
      { name: 'create', app: 'connectors', method: 'POST', url: (s) => connectorsPath(s.org, s.env, s.bot), body: true },
      { name: 'update', app: 'connectors', method: 'PUT', url: (s) => `${connectorsPath(s.org, s.env, s.bot)}/${s.connector}`, body: true },
      { name: 'delete', app: 'connectors', method: 'DELETE', url: (s) => `${connectorsPath(s.org, s.env, s.bot)}/${s.connector}` },
      { name: 'environments', app: 'environments', method: 'GET', url: (s) => `/platform-environment/org/${s.org}/environments` },
      { name: 'environment', app: 'environments', method: 'GET', url: (s) => `/platform-environment/org/${s.org}/environments/${s.env}` },
      { name: 'bots', app: 'bots', method: 'GET', url: (s) => `/platform-bot-admin/org/${s.org}/env/${s.env}/bots-admin` },
      { name: 'bot', app: 'bots', method: 'GET', url: (s) => `/platform-bot-admin/org/${s.org}/env/${s.env}/bots-admin/${s.bot}` },
    ];
    const sendTo = (operation: PathOperation, url: string) =>
      operation.body
        ? raw[operation.app].send(operation.method, url, { ...bearer(token), 'Content-Type': 'application/json' }, JSON.stringify(aConnectorBody()))
        : raw[operation.app].send(operation.method, url, bearer(token));

    it(
      'every operation of the three apps answers a success or a 4xx error body for any path ids, and a rejected one writes nothing',
      async () => {
        const segments = fc.record({
          org: segment([tenant.organization.uuid]),
          env: segment([tenant.environment.uuid]),
          bot: segment([tenant.bot.uuid]),
          connector: segment(connectorUuids),
        });

        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...operations.map((operation) => operation.name)), segments, async (name, ids) => {
            const operation = operations.find((candidate) => candidate.name === name) as PathOperation;
            const url = operation.url(ids);
            await probe(connectors, tenant.bot.uuid, url, () => sendTo(operation, url));
          }),
          { numRuns: RUNS * 2 },
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('token claims', () => {
    let tenant: Tenant;

    beforeAll(async () => {
      tenant = await seedTenant(connectors.dataSource);
    });

    // A signed token is still input: an identity provider may issue long or unusual subs, names and pictures.
    const claim = fc.oneof(
      fc.string(),
      unicode,
      caseFolding(300),
      longString(200, 3_000),
      fc.constantFrom('', ' ', '\u0000', "'; DROP TABLE rest_connectors; --", 'https://img.example.com/a.png'),
    );
    const visibleAscii = fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
      minLength: 1,
      maxLength: 300,
      size: 'max',
    });

    it.each([
      ['a sub of 256 characters', { sub: 'x'.repeat(256) }, {}],
      ['a sub of 256 characters with an Idempotency-Key', { sub: 'x'.repeat(256) }, { 'Idempotency-Key': 'long-sub-key' }],
      ['a username of 256 characters', { sub: 'short', username: 'y'.repeat(256) }, {}],
      ['a picture of 2,049 characters', { sub: 'short', picture: `https://img.example.com/${'p'.repeat(2025)}` }, {}],
    ] as const)('a create by a caller with %s is a 201 or a 4xx error body, never a 5xx', async (_, claims, extraHeaders) => {
      const token = await signToken({ ...claims, orgs: [tenant.organization.uuid], scope: 'connectors:write' });
      const url = tenantPath(tenant);
      const headers = { ...bearer(token), 'Content-Type': 'application/json', ...extraHeaders };

      await probe(connectors, tenant.bot.uuid, url, () => raw.connectors.send('POST', url, headers, JSON.stringify(aConnectorBody())));
    });

    it(
      'a create by any signed caller answers 201 or a 4xx error body, and a rejected one writes nothing',
      async () => {
        const url = tenantPath(tenant);

        await fc.assert(
          fc.asyncProperty(
            fc.record({ sub: claim, username: fc.option(claim), picture: fc.option(claim) }),
            fc.option(visibleAscii),
            async ({ sub, username, picture }, idempotencyKey) => {
              const token = await signToken({
                sub,
                ...(username === null ? {} : { username }),
                ...(picture === null ? {} : { picture }),
                orgs: [tenant.organization.uuid],
                scope: 'connectors:write',
              });
              const headers = {
                ...bearer(token),
                'Content-Type': 'application/json',
                ...(idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey }),
              };
              const body = JSON.stringify(aConnectorBody({ name: `Claims ${randomUUID().slice(0, 8)}` }));
              await probe(connectors, tenant.bot.uuid, url, () => raw.connectors.send('POST', url, headers, body));
            },
          ),
          { numRuns: Math.ceil(RUNS / 2) },
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('pathological JSON', () => {
    let tenant: Tenant;
    let token: string;
    let target: string;

    beforeAll(async () => {
      tenant = await seedTenant(connectors.dataSource);
      token = await writerOf(tenant);
      target = await createConnector(connectors, tenant, token, { name: 'Pathological target' });
    });

    const DEPTH = 5_000;
    const deepObject = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
    const deepArray = '['.repeat(DEPTH) + '1' + ']'.repeat(DEPTH);
    const inValidBody = (field: string, json: string) => {
      const text = JSON.stringify(aConnectorBody({ name: `Deep ${randomUUID().slice(0, 8)}`, [field]: '__DEEP__' }));
      return text.replace('"__DEEP__"', json);
    };
    const payloads: Array<[string, () => string]> = [
      ['an object nested 5,000 deep', () => deepObject],
      ['an array nested 5,000 deep', () => deepArray],
      ['a valid body whose headers are an array nested 5,000 deep', () => inValidBody('headers', deepArray)],
      ['a valid body whose tags hold an object nested 5,000 deep', () => inValidBody('tags', `[{"name":${deepObject}}]`)],
      ['a valid body whose name is an object nested 5,000 deep', () => inValidBody('name', deepObject)],
      ['a valid body whose read-only flows are an object nested 5,000 deep', () => inValidBody('flows', deepObject)],
    ];
    const writes: Array<[string, () => { url: string; send: (payload: string) => Request }]> = [
      [
        'create',
        () => ({
          url: tenantPath(tenant),
          send: (p) => connectors.http.post(tenantPath(tenant)).set(bearer(token)).set('Content-Type', 'application/json').send(p),
        }),
      ],
      [
        'update',
        () => {
          const url = `${tenantPath(tenant)}/${target}`;
          return { url, send: (p) => connectors.http.put(url).set(bearer(token)).set('Content-Type', 'application/json').send(p) };
        },
      ],
    ];

    it.each(writes.flatMap(([verb, write]) => payloads.map(([what, payload]) => [verb, what, write, payload] as const)))(
      '%s with %s is a 4xx error body, and writes nothing',
      async (_, __, write, payload) => {
        const { url, send } = write();
        const before = await stateOf(connectors, tenant.bot.uuid);

        const res = await send(payload());

        expectContractAnswer(res, url);
        expect(res.status).toBeGreaterThanOrEqual(400);
        await expect(stateOf(connectors, tenant.bot.uuid)).resolves.toEqual(before);
      },
    );

    // Lower-casing may lengthen a string ('İ' becomes 'i̇'): a name or tag within its limit must still fit its key column.
    const caseMapped: Array<[string, () => ConnectorWriteBody]> = [
      ['a name of 100 × "İ"', () => aConnectorBody({ name: 'İ'.repeat(100) })],
      ['a tag of 50 × "İ"', () => aConnectorBody({ name: `Tagged ${randomUUID().slice(0, 8)}`, tags: [{ name: 'İ'.repeat(50) }] })],
    ];

    it.each(writes.flatMap(([verb, write]) => caseMapped.map(([what, body]) => [verb, what, write, body] as const)))(
      '%s with %s is a success or a 4xx error body, never a 5xx',
      async (_, __, write, body) => {
        const { url, send } = write();
        const before = await stateOf(connectors, tenant.bot.uuid);

        const res = await send(JSON.stringify(body()));

        expectContractAnswer(res, url);
        if (res.status >= 400) await expect(stateOf(connectors, tenant.bot.uuid)).resolves.toEqual(before);
      },
    );

    const bigArray = `[${new Array(50_000).fill('1').join(',')}]`;
    const bigPayloads: Array<[string, string]> = [
      ['headers of 50,000 numbers', JSON.stringify(aConnectorBody({ headers: '__BIG__' })).replace('"__BIG__"', bigArray)],
      ['tags of 50,000 numbers', JSON.stringify(aConnectorBody({ tags: '__BIG__' })).replace('"__BIG__"', bigArray)],
      ['a top-level array of 50,000 numbers', bigArray],
    ];

    it.each(writes.flatMap(([verb, write]) => bigPayloads.map(([what, payload]) => [verb, what, write, payload] as const)))(
      '%s with %s is a 4xx error body, and /health/live answers while it runs',
      async (_, __, write, payload) => {
        const { url, send } = write();
        const before = await stateOf(connectors, tenant.bot.uuid);
        expect(Buffer.byteLength(payload)).toBeLessThan(256 * 1024);

        const [res, live] = await Promise.all([send(payload), connectors.http.get('/health/live')]);

        expectContractAnswer(res, url);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(live.status).toBe(200);
        expect(live.body).toEqual({ status: 'ok' });
        await expect(stateOf(connectors, tenant.bot.uuid)).resolves.toEqual(before);
        await connectors.http.get('/health/live').expect(200, { status: 'ok' });
      },
    );
  });
});

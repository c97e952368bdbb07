import fc from 'fast-check';
import { ImportSourceError } from '../connector-draft';
import { importPostman } from '.';
import { MAX_FOLDER_DEPTH } from './collection';
import { aCollection, aFolder, anAuth, aRequestItem, Collection, imported } from './testing/collections';
import { MAX_WARNINGS } from './warnings';

/** What an import of `source` ends with: its draft, or the error it threw (never another kind than ImportSourceError). */
async function outcome(source: string): Promise<'imported' | ImportSourceError> {
  try {
    await importPostman(source, {});
    return 'imported';
  } catch (error) {
    if (error instanceof ImportSourceError) return error;
    throw error;
  }
}

async function messageOf(collection: unknown): Promise<string> {
  const result = await outcome(JSON.stringify(collection));
  if (result === 'imported') throw new Error('imported');
  return result.message;
}

/** A collection that uses most of what the importer reads, for the fuzzer to break. */
const RICH: Collection = aCollection(
  [
    aFolder(
      'Orders',
      [
        aRequestItem('Create', {
          method: 'POST',
          header: [
            { key: 'Accept', value: 'application/json' },
            { key: 'X-Off', value: '1', disabled: true },
          ],
          url: {
            raw: '{{baseUrl}}/orders/:id?q=1',
            host: ['{{baseUrl}}'],
            path: ['orders', ':id'],
            query: [{ key: 'q', value: '1' }],
            variable: [{ key: 'id', value: '7' }],
          },
          body: { mode: 'raw', raw: '{"a": 1}', options: { raw: { language: 'json' } } },
          description: { content: 'Creates one' },
        }),
        aRequestItem('Form', { method: 'PUT', body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: 'b' }] } }),
        aRequestItem('Graph', { method: 'POST', body: { mode: 'graphql', graphql: { query: '{ me }', variables: '{}' } } }),
      ],
      { auth: anAuth('apikey', { key: 'X-Key', value: '{{key}}', in: 'header' }), event: [{ listen: 'test', script: { exec: ['x'] } }] },
    ),
    aRequestItem('Token', {
      auth: anAuth('oauth2', { grant_type: 'client_credentials', accessTokenUrl: '{{baseUrl}}/token', clientId: 'c', clientSecret: 's' }),
    }),
  ],
  { auth: anAuth('basic', { username: 'u', password: 'p' }), variable: [{ key: 'baseUrl', value: 'https://api.example.com' }] },
);

/** Every path to a value of a JSON tree. */
function pathsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [path];
  const children = Array.isArray(value) ? value.map((element, index) => [index, element] as const) : Object.entries(value);
  return [path, ...children.flatMap(([key, child]) => pathsOf(child, [...path, key]))];
}

function replaced(tree: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(tree) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
}

function nested(depth: number, innermost: unknown, wrap: (inner: unknown, level: number) => unknown): unknown {
  let value = innermost;
  for (let level = depth - 1; level >= 0; level--) value = wrap(value, level);
  return value;
}

describe('importPostman on hostile input', () => {
  it('answers only ImportSourceError whatever value stands anywhere in a collection (fuzzed)', async () => {
    const paths = pathsOf(RICH);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), async (path, value) => {
        await outcome(JSON.stringify(replaced(RICH, path, value)));
      }),
      { numRuns: 400 },
    );
  });

  it('answers only ImportSourceError for any JSON text, and for text that is not JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((value) => JSON.stringify(value)),
          fc.string(),
        ),
        async (source) => {
          expect(await outcome(source)).toBeInstanceOf(ImportSourceError);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each<[string, unknown, string]>([
    ['item not a list', { ...RICH, item: {} }, 'source collection: item must be an array, not an object'],
    ['an item not an object', aCollection([5]), 'source collection: item[0] must be an object, not a number'],
    ['a name not text', aCollection([{ name: 7, request: 'https://a.example' }]), 'source collection: item[0].name must be a string, not a number'],
    ['a URL of the wrong type', aCollection([aRequestItem('A', { url: 12 })]), 'source item "A": request.url must be a string or an object, not a number'],
    ['a header list of the wrong type', aCollection([aRequestItem('A', { header: 5 })]), 'source item "A": request.header must be an array, not a number'],
    [
      'a header name of the wrong type',
      aCollection([aRequestItem('A', { header: [{ key: [], value: 'x' }] })]),
      'source item "A": request.header[0].key must be a string, not an array',
    ],
    [
      'a disabled flag of the wrong type',
      aCollection([aRequestItem('A', { header: [{ key: 'a', disabled: 'yes' }] })]),
      'source item "A": request.header[0].disabled must be true or false, not a string',
    ],
    [
      'an auth type of the wrong type',
      aCollection([aRequestItem('A', { auth: { type: 1 } })]),
      'source item "A": request.auth.type must be a string, not a number',
    ],
    [
      'auth attributes of the wrong type',
      aCollection([aRequestItem('A', { auth: { type: 'basic', basic: 'x' } })]),
      'source item "A": request.auth.basic must be an object, not a string',
    ],
    [
      'an auth attribute of the wrong type',
      aCollection([aRequestItem('A', { auth: { type: 'bearer', bearer: [{ key: 'token', value: {} }] } })]),
      'source item "A": request.auth.bearer "token" must be text',
    ],
    ['a host label of the wrong type', aCollection([aRequestItem('A', { url: { host: [1] } })]), 'source item "A": request.url.host[0] must be a string'],
    [
      'a body mode of the wrong type',
      aCollection([aRequestItem('A', { body: { mode: {} } })]),
      'source item "A": request.body.mode must be a string, not an object',
    ],
    [
      'a raw body of the wrong type',
      aCollection([aRequestItem('A', { body: { mode: 'raw', raw: 5 } })]),
      'source item "A": request.body.raw must be a string, not a number',
    ],
    ['a variable list of the wrong type', aCollection(undefined, { variable: 'x' }), 'source collection: variable must be an array, not a string'],
    ['info of the wrong type', { info: 'x', item: [] }, 'source collection: info must be an object, not a string'],
    [
      'a description of the wrong type',
      aCollection([aRequestItem('A', { description: 5 })]),
      'source item "A": request.description must be a string, not a number',
    ],
  ])('names where a value of the wrong type stands: %s', async (_case, collection, message) => {
    expect(await messageOf(collection)).toBe(message);
  });

  it('reads `__proto__`, `constructor` and `toString` as names like any other, and pollutes nothing', async () => {
    const source = JSON.stringify(
      aCollection(
        [
          aRequestItem('A', { header: [{ key: '__proto__', value: 'x' }], auth: { type: 'basic', basic: [{ key: '__proto__', value: { polluted: true } }] } }),
          aRequestItem('B', { auth: { type: 'constructor' } }),
          aRequestItem('C', { auth: { type: 'toString' } }),
        ],
        { variable: [{ key: '__proto__', value: 'https://evil.example' }] },
      ),
    ).replace('"name":"A"', '"name":"A","__proto__":{"polluted":true}');
    const draft = await importPostman(source, {});
    expect(draft.connectors.map(({ name, headers, authType }) => [name, headers, authType])).toEqual([
      ['A', [{ header: '__proto__', value: 'x' }], 'AUTH_BASIC'],
      ['B', [], 'AUTH_NONE'],
      ['C', [], 'AUTH_NONE'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`refuses folders nested deeper than ${MAX_FOLDER_DEPTH} levels (1000 here), naming the folder`, async () => {
    const collection = aCollection([nested(1000, aRequestItem('Deep'), (inner, level) => aFolder(`f${level}`, [inner]))]);
    expect(await messageOf(collection)).toBe(
      `source folder "f0 / f1 / f2 / … / f61 / f62 / f63 / f64": folders nest deeper than ${MAX_FOLDER_DEPTH} levels: move the requests up`,
    );
  });

  it('refuses a value nested 100,000 deep where it is written out, and ignores it where nothing reads it', async () => {
    // Written as text: JSON.stringify itself cannot write a value this deep.
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const withDeep = (collection: Collection) => JSON.stringify(collection).replace('"DEEP"', deep);
    const graphql = await outcome(
      withDeep(aCollection([aRequestItem('G', { method: 'POST', body: { mode: 'graphql', graphql: { query: 'q', variables: 'DEEP' } } })])),
    );
    expect(graphql).toEqual(new ImportSourceError('item "G"', 'request.body.graphql.variables nests too deeply'));
    expect(await outcome(withDeep(aCollection([aRequestItem('R', {}, { response: ['DEEP'] })])))).toBe('imported');
  });

  it('reads a megabyte of requests, and lists at most as many warnings as it says', async () => {
    const requests = Array.from({ length: 20_000 }, (_, index) => ({
      name: `r${index}`,
      request: { url: 'https://a.example/x', header: [{ key: `h${index}`, disabled: true }] },
    }));
    const draft = await imported(aCollection(requests));
    expect(draft.connectors).toHaveLength(20_000);
    expect(draft.warnings).toHaveLength(MAX_WARNINGS + 1);
    expect(draft.warnings[MAX_WARNINGS]).toEqual({
      code: 'WARNINGS_CUT',
      where: 'collection',
      message: `${20_000 - MAX_WARNINGS} more warnings are not listed.`,
    });
  });

  it('never says a secret in a warning or an error', async () => {
    const secrets = [
      's3cr3t-basic',
      's3cr3t-bearer',
      's3cr3t-key',
      's3cr3t-client',
      's3cr3t-query',
      's3cr3t-header',
      's3cr3t-userinfo',
      's3cr3t-var',
      's3cr3t-in-a-name',
    ];
    const collection = aCollection(
      [
        aRequestItem('Basic', { auth: anAuth('basic', { username: 'u', password: `${secrets[0]}\n` }) }),
        aRequestItem('Bearer', { auth: anAuth('bearer', { token: `${secrets[1]}{{x}}` }), header: [{ key: 'Authorization', value: `Bearer ${secrets[1]}` }] }),
        aRequestItem('Key', { auth: anAuth('apikey', { key: 'X-Key', value: secrets[2], in: 'cookie' }) }),
        aRequestItem('OAuth', { auth: anAuth('oauth2', { grant_type: 'implicit', clientSecret: secrets[3] }) }),
        aFolder(
          'Bearer folder',
          [aRequestItem('Query', { url: `https://a.example/x?api_key=${secrets[4]}`, header: [{ key: 'X-API-Key', value: secrets[5] }] })],
          {
            auth: anAuth('bearer', { token: 't' }),
          },
        ),
        aRequestItem('Userinfo', { url: `https://u:${secrets[6]}@a.example/`, method: 'COPY' }),
        aRequestItem('Var', { url: '{{secret}}/x', auth: anAuth('bearer', { token: 't' }) }),
        // A header or parameter written whole into its key: quoted by its name only.
        aRequestItem('In names', {
          url: { raw: 'https://a.example/', query: [{ key: `access_token=${secrets[8]}`, value: '', disabled: true }] },
          header: [
            { key: `Authorization: Bearer ${secrets[8]}`, value: '' },
            { key: `X-API-Key ${secrets[8]}`, value: '', disabled: true },
          ],
          method: 'POST',
          body: { mode: 'urlencoded', urlencoded: [{ key: `token=${secrets[8]}`, value: '', disabled: true }] },
        }),
      ],
      {
        variable: [
          { key: 'secret', value: `https://${secrets[7]}.example` },
          { key: 'x', value: secrets[7] },
        ],
      },
    );
    const said = JSON.stringify((await imported(collection)).warnings);
    const refused = await messageOf(aCollection([aRequestItem('Copy', { method: 'COPY', url: `https://a.example/?api_key=${secrets[4]}` })]));
    for (const secret of secrets) expect([said, refused].filter((text) => text.includes(secret))).toEqual([]);
  });
});

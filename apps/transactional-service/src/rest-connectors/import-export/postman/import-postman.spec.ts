import { ApiKeyIn, AuthType, ContentType, GrantType, RequestType } from '@app/domain';
import { toNodeUrl } from 'postman-url-encoder';
import { ImportSourceError } from '../connector-draft';
import { importPostman } from '.';
import { aCollection, aDraft, aFolder, anAuth, aRequestItem, codesOf, imported, theConnector } from './testing/collections';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function refusal(source: string, select?: string[]): Promise<string> {
  const error = await importPostman(source, { select }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportSourceError);
  return (error as ImportSourceError).message;
}

describe('importPostman', () => {
  describe('the collection', () => {
    it('reads a v2.1 collection: one connector per request, in the order of the collection, folders walked', async () => {
      const draft = await imported(
        aCollection([aFolder('Orders', [aRequestItem('List'), aFolder('Admin', [aRequestItem('Purge', { method: 'DELETE' })])]), aRequestItem('Ping')]),
      );
      expect(draft.connectors.map(({ name, requestType, where }) => [name, requestType, where])).toEqual([
        ['List', RequestType.GET, 'item "Orders / List"'],
        ['Purge', RequestType.DELETE, 'item "Orders / Admin / Purge"'],
        ['Ping', RequestType.GET, 'item "Ping"'],
      ]);
      expect(draft.warnings).toEqual([]);
    });

    it('tags each connector with the folders it is in, from the top (unnamed folders none), under the tag rules', async () => {
      const long = 'A folder name far longer than the fifty characters of a tag';
      const draft = await imported(
        aCollection([
          aFolder('Orders', [aRequestItem('List'), aFolder(' orders\n admin ', [aRequestItem('Purge'), aFolder('', [aRequestItem('Deep')])])]),
          aFolder(long, [aRequestItem('Long')]),
          aRequestItem('Ping'),
        ]),
      );

      expect(draft.connectors.map(({ name, tags }) => [name, tags])).toEqual([
        ['List', [{ name: 'Orders' }]],
        // "orders admin" is another tag than "Orders"; the unnamed folder adds none.
        ['Purge', [{ name: 'Orders' }, { name: 'orders admin' }]],
        ['Deep', [{ name: 'Orders' }, { name: 'orders admin' }]],
        ['Long', [{ name: long.slice(0, 50).trimEnd() }]],
        ['Ping', []],
      ]);
      expect(draft.warnings).toEqual([
        {
          code: 'TAG_SHORTENED',
          where: `item "${long} / Long"`,
          message: `the tag "${long}" is longer than 50 characters: shortened to "${long.slice(0, 50).trimEnd()}"`,
        },
      ]);
    });

    it('reads a collection wrapped as the Postman API answers it, and a schema on schema.postman.com', async () => {
      const collection = aCollection();
      (collection.info as Record<string, unknown>).schema = 'https://schema.postman.com/json/collection/v2.1.0/collection.json';
      expect((await imported({ collection })).connectors).toEqual([aDraft()]);
    });

    it('refuses a v1 collection, saying how to export a v2.1 one', async () => {
      expect(await refusal(JSON.stringify({ id: 'x', name: 'Old', order: [], requests: [] }))).toBe(
        'source collection: is a Postman Collection v1, which is not read here: export it again from Postman as Collection v2.1 (… menu → Export → Collection v2.1)',
      );
    });

    it('refuses another format, text that is not JSON (saying where it stops, not what it read) and a collection without requests', async () => {
      expect(await refusal(JSON.stringify({ openapi: '3.1.0', info: { schema: 'https://example.com/openapi.json' } }))).toBe(
        'source collection: is not a Postman Collection v2.1: its info.schema names another format',
      );
      expect(await refusal('{\n  "info": {"name": "secret-token-1234",}\n}')).toBe(
        'source collection: is not JSON at line 2, column 40: export the collection from Postman as Collection v2.1',
      );
      expect(await refusal(JSON.stringify(aCollection([aFolder('Empty', [])])))).toBe('source collection: has no requests');
    });

    it('refuses a collection none of whose requests can become a connector, with the reasons', async () => {
      expect(await refusal(JSON.stringify(aCollection([aRequestItem('Copy', { method: 'COPY' })])))).toBe(
        'source collection: has no request a connector can be made of: item "Copy": Left out: its method "COPY" is none a connector has (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS).',
      );
    });
  });

  describe('select', () => {
    const collection = aCollection([aFolder('Orders', [aRequestItem('List'), aFolder('Admin', [aRequestItem('Purge')])]), aRequestItem('Ping')]);
    const names = async (select: string[]) => (await imported(collection, select)).connectors.map(({ where }) => where);

    it('takes a request by its path, and everything under a folder by the folder path', async () => {
      expect(await names(['Orders/Admin/Purge', 'Ping'])).toEqual(['item "Orders / Admin / Purge"', 'item "Ping"']);
      expect(await names(['Orders'])).toEqual(['item "Orders / List"', 'item "Orders / Admin / Purge"']);
    });

    it('takes the paths as `where` writes them too', async () => {
      expect(await names(['Orders / Admin'])).toEqual(['item "Orders / Admin / Purge"']);
    });

    it('refuses selectors that name nothing, naming them', async () => {
      expect(await refusal(JSON.stringify(collection), ['Orders/List', 'orders/admin', 'Nope'])).toBe(
        'source select "orders/admin", "Nope": names no folder or request of the collection: write item paths as Folder/Sub folder/Request name',
      );
    });

    it('quotes at most 10 selectors that name nothing, each cut at 100 characters', async () => {
      const select = Array.from({ length: 200 }, (_, index) => `${'x'.repeat(990)}-${index}`);
      expect(await refusal(JSON.stringify(collection), select)).toBe(
        `source select ${Array(10)
          .fill(`"${'x'.repeat(100)}…"`)
          .join(', ')} and 190 more: names no folder or request of the collection: ` + 'write item paths as Folder/Sub folder/Request name',
      );
    });
  });

  describe('auth', () => {
    const bearer = anAuth('bearer', { token: 'collection-token' });

    it('inherits the nearest auth: the request, else its folder, else the collection; noauth is none', async () => {
      const draft = await imported(
        aCollection(
          [
            aRequestItem('Own', { auth: anAuth('bearer', { token: 'own-token' }) }),
            aFolder(
              'Basic',
              [aRequestItem('Inherits'), aRequestItem('Explicit inherit', { auth: { type: 'inherit' } }), aRequestItem('Null', { auth: null })],
              {
                auth: anAuth('basic', { username: 'ana', password: 'pässword' }),
              },
            ),
            aFolder('Open', [aRequestItem('None')], { auth: { type: 'noauth' } }),
            aRequestItem('Top'),
          ],
          { auth: bearer },
        ),
      );
      expect(draft.connectors.map(({ authType, credentials }) => [authType, credentials])).toEqual([
        [AuthType.AUTH_BEARER, [{ field: 'bearerToken', value: 'own-token', where: 'item "Own", auth bearer' }]],
        ...Array(3).fill([AuthType.AUTH_BASIC, [{ field: 'basicToken', value: base64('ana:pässword'), where: 'folder "Basic", auth basic' }]]),
        [AuthType.AUTH_NONE, []],
        [AuthType.AUTH_BEARER, [{ field: 'bearerToken', value: 'collection-token', where: 'collection, auth bearer' }]],
      ]);
    });

    it('reads v2.0 auth attributes, written as an object', async () => {
      const collection = aCollection([aRequestItem('Old', { auth: { type: 'bearer', bearer: { token: '{{token}}' } } })]);
      (collection.info as Record<string, unknown>).schema = 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json';
      expect((await theConnector(collection)).credentials).toEqual([{ field: 'bearerToken', variable: 'token', where: 'item "Old", auth bearer' }]);
    });

    it('names the variable a credential comes from, asks for basic auth as a user and a password, and warns when text and a variable are mixed', async () => {
      const draft = await imported(
        aCollection([
          aRequestItem('Vars', { auth: anAuth('basic', { username: '{{user}}', password: '{{password}}' }) }),
          aRequestItem('Mixed', { auth: anAuth('bearer', { token: 'tok-{{suffix}}' }) }),
        ]),
      );
      expect(draft.connectors.map(({ credentials }) => credentials)).toEqual([
        [
          { field: 'basicUsername', variable: 'user', where: 'item "Vars", auth basic' },
          { field: 'basicPassword', variable: 'password', where: 'item "Vars", auth basic' },
        ],
        [{ field: 'bearerToken', variable: 'suffix', where: 'item "Mixed", auth bearer' }],
      ]);
      expect(draft.warnings).toEqual([
        {
          code: 'CREDENTIAL_FROM_VARIABLES',
          where: 'item "Mixed"',
          message: 'bearerToken (item "Mixed", auth bearer) mixes text and {{suffix}}: give its whole value when importing.',
        },
      ]);
    });

    it('asks only for the password of basic auth whose username is written out', async () => {
      const draft = await imported(aCollection([aRequestItem('Twilio', { auth: anAuth('basic', { username: 'AC0123', password: '{{authToken}}' }) })]));
      expect(draft.connectors[0].credentials).toEqual([
        { field: 'basicUsername', value: 'AC0123', where: 'item "Twilio", auth basic' },
        { field: 'basicPassword', variable: 'authToken', where: 'item "Twilio", auth basic' },
      ]);
      expect(draft.warnings).toEqual([]);
    });

    it('maps API key auth, in a header or in the query', async () => {
      const draft = await imported(
        aCollection([
          aRequestItem('Header', { auth: anAuth('apikey', { key: 'X-Api-Key', value: 'k-123', in: 'header' }) }),
          aRequestItem('Query', { auth: anAuth('apikey', { key: 'api_key', value: '{{key}}', in: 'query' }) }),
        ]),
      );
      expect(draft.connectors.map(({ authType, apiKeyName, apiKeyIn, credentials }) => ({ authType, apiKeyName, apiKeyIn, credentials }))).toEqual([
        {
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'X-Api-Key',
          apiKeyIn: ApiKeyIn.HEADER,
          credentials: [{ field: 'apiKey', value: 'k-123', where: 'item "Header", auth apikey' }],
        },
        {
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'api_key',
          apiKeyIn: ApiKeyIn.QUERY,
          credentials: [{ field: 'apiKey', variable: 'key', where: 'item "Query", auth apikey' }],
        },
      ]);
    });

    it('maps OAuth 2.0 client credentials and password grants, and warns about what a connector cannot carry', async () => {
      const oauth = (grant: string, extra: Record<string, unknown> = {}) =>
        anAuth('oauth2', { grant_type: grant, accessTokenUrl: 'https://auth.example.com/token', clientId: 'shop', clientSecret: 'cs-1', ...extra });
      const draft = await imported(
        aCollection([
          aRequestItem('Client', { auth: oauth('client_credentials', { scope: 'orders:read', client_authentication: 'body' }) }),
          aRequestItem('Password', { auth: oauth('password_credentials', { username: 'ana', password: '{{password}}', clientSecret: '' }) }),
          aRequestItem('Code', { auth: oauth('authorization_code') }),
        ]),
      );
      expect(draft.connectors.map(({ authType, grantType, oauthUrl, credentials }) => ({ authType, grantType, oauthUrl, credentials }))).toEqual([
        {
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.CLIENT_CREDENTIALS,
          oauthUrl: 'https://auth.example.com/token',
          credentials: [
            { field: 'clientId', value: 'shop', where: 'item "Client", auth oauth2' },
            { field: 'clientSecret', value: 'cs-1', where: 'item "Client", auth oauth2' },
          ],
        },
        {
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.PASSWORD,
          oauthUrl: 'https://auth.example.com/token',
          credentials: [
            { field: 'clientId', value: 'shop', where: 'item "Password", auth oauth2' },
            { field: 'authUsername', value: 'ana', where: 'item "Password", auth oauth2' },
            { field: 'authPassword', variable: 'password', where: 'item "Password", auth oauth2' },
          ],
        },
        { authType: AuthType.AUTH_NONE, grantType: null, oauthUrl: null, credentials: [] },
      ]);
      expect(draft.warnings.map(({ code, message }) => [code, message])).toEqual([
        [
          'AUTH_SETTINGS_NOT_IMPORTED',
          'OAuth 2.0 (item "Client", auth oauth2): not imported: scope, client_authentication (body: a connector sends the client credentials as Basic auth).',
        ],
        [
          'OAUTH2_GRANT_UNSUPPORTED',
          'OAuth 2.0 (item "Code", auth oauth2) with grant "authorization_code": a connector gets tokens by client credentials or password only. Imported without auth (AUTH_NONE).',
        ],
      ]);
    });

    it.each(['digest', 'hawk', 'awsv4', 'ntlm', 'akamai', 'edgegrid', 'jwt', 'asap', 'oauth1'])('imports %s auth as none, with a warning', async (type) => {
      const draft = await imported(aCollection([aRequestItem('Signed')], { auth: anAuth(type, { secretKey: 'never-shown' }) }));
      expect(draft.connectors[0].authType).toBe(AuthType.AUTH_NONE);
      expect(draft.warnings).toEqual([
        {
          code: 'AUTH_UNSUPPORTED',
          where: 'collection',
          message: `"${type}" auth (collection): imported without auth (AUTH_NONE). A connector has basic, bearer, API key and OAuth 2.0 (client credentials, password) auth: set one after importing.`,
        },
      ]);
    });

    it('turns an Authorization header set by hand into the auth settings, never a plain header', async () => {
      const header = (value: string) => ({ header: [{ key: 'authorization', value }] });
      const draft = await imported(
        aCollection([
          aRequestItem('Basic', header(`Basic ${base64('ana:pw')}`)),
          aRequestItem('Bearer', header('Bearer {{token}}')),
          aRequestItem('Token', header('Token abc')),
          aRequestItem('Broken', header('Basic not-base64')),
        ]),
      );
      expect(draft.connectors.map(({ headers, authType, apiKeyName, credentials }) => ({ headers, authType, apiKeyName, credentials }))).toEqual([
        {
          headers: [],
          authType: AuthType.AUTH_BASIC,
          apiKeyName: null,
          credentials: [{ field: 'basicToken', value: base64('ana:pw'), where: 'item "Basic", header Authorization' }],
        },
        {
          headers: [],
          authType: AuthType.AUTH_BEARER,
          apiKeyName: null,
          credentials: [{ field: 'bearerToken', variable: 'token', where: 'item "Bearer", header Authorization' }],
        },
        {
          headers: [],
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'Authorization',
          credentials: [{ field: 'apiKey', value: 'Token abc', where: 'item "Token", header Authorization' }],
        },
        { headers: [], authType: AuthType.AUTH_NONE, apiKeyName: null, credentials: [] },
      ]);
      expect(codesOf(draft)).toEqual(['HEADER_AS_AUTH', 'HEADER_AS_AUTH', 'HEADER_AS_AUTH', 'HEADER_SKIPPED']);
    });

    it('leaves out an Authorization header when auth settings apply, as Postman replaces it', async () => {
      const draft = await imported(aCollection([aRequestItem('Both', { header: [{ key: 'Authorization', value: 'Bearer old' }] })], { auth: bearer }));
      expect(draft.connectors[0].headers).toEqual([]);
      expect(draft.warnings).toEqual([
        {
          code: 'AUTHORIZATION_HEADER_REPLACED',
          where: 'item "Both"',
          message: 'The Authorization header set by hand is left out: the auth settings (AUTH_BEARER) send their own, as in Postman.',
        },
      ]);
    });

    it('turns an API-key header or query parameter into the auth settings, or when auth settings apply into a secret header or a variable', async () => {
      const draft = await imported(
        aCollection([
          aRequestItem('Header', { header: [{ key: 'X-API-Key', value: 'k1' }] }),
          aRequestItem('Query', { url: 'https://api.example.com/orders?page=2&api_key=k2' }),
          aFolder('Bearer', [aRequestItem('Both', { header: [{ key: 'x-api-key', value: 'k3' }], url: 'https://api.example.com/orders?apikey=k4&page=1' })], {
            auth: bearer,
          }),
        ]),
      );
      expect(
        draft.connectors.map(({ url, headers, authType, apiKeyName, apiKeyIn, credentials }) => ({
          url,
          headers,
          authType,
          apiKeyName,
          apiKeyIn,
          credentials,
        })),
      ).toEqual([
        {
          url: 'https://api.example.com/orders',
          headers: [],
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'X-API-Key',
          apiKeyIn: ApiKeyIn.HEADER,
          credentials: [{ field: 'apiKey', value: 'k1', where: 'item "Header", header X-API-Key' }],
        },
        {
          url: 'https://api.example.com/orders?page=2',
          headers: [],
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'api_key',
          apiKeyIn: ApiKeyIn.QUERY,
          credentials: [{ field: 'apiKey', value: 'k2', where: 'item "Query", query api_key' }],
        },
        {
          url: 'https://api.example.com/orders?apikey={{apikey}}&page=1',
          headers: [{ header: 'x-api-key', value: 'k3', secret: true, where: 'item "Bearer / Both", header x-api-key' }],
          authType: AuthType.AUTH_BEARER,
          apiKeyName: null,
          apiKeyIn: null,
          credentials: [{ field: 'bearerToken', value: 'collection-token', where: 'folder "Bearer", auth bearer' }],
        },
      ]);
      expect(codesOf(draft)).toEqual(['HEADER_AS_AUTH', 'QUERY_AS_AUTH', 'SECRET_HEADER', 'SECRET_REPLACED_BY_VARIABLE']);
    });

    it('keeps an API key before an Authorization header as a secret header beside the bearer auth, a variable asked for', async () => {
      const connector = await theConnector(
        aCollection([
          aRequestItem('Two', {
            header: [
              { key: 'x-api-key', value: '{{apiKey}}' },
              { key: 'Authorization', value: 'Bearer t-1' },
            ],
          }),
        ]),
      );
      expect(connector).toMatchObject({
        authType: AuthType.AUTH_BEARER,
        credentials: [{ field: 'bearerToken', value: 't-1' }],
        headers: [{ header: 'x-api-key', value: '', secret: true, variable: 'apiKey', where: 'item "Two", header x-api-key' }],
      });
    });

    it('keeps an Authorization header beside API-key auth settings as a secret header', async () => {
      const apiKeyAuth = {
        type: 'apikey',
        apikey: [
          { key: 'key', value: 'X-Key' },
          { key: 'value', value: 'k' },
          { key: 'in', value: 'header' },
        ],
      };
      const connector = await theConnector(
        aCollection([aRequestItem('Two', { header: [{ key: 'Authorization', value: 'Bearer t-1' }] })], { auth: apiKeyAuth }),
      );
      expect(connector).toMatchObject({
        authType: AuthType.AUTH_API_KEY,
        apiKeyName: 'X-Key',
        headers: [{ header: 'Authorization', value: 'Bearer t-1', secret: true }],
      });
    });

    it.each(['PRIVATE-TOKEN', 'X-Auth-Token', 'X-RapidAPI-Key', 'x-goog-api-key'])(
      'takes a %s header for an API key, as the cURL importer does (one list of names for both)',
      async (name) => {
        const connector = await theConnector(aCollection([aRequestItem('Key', { header: [{ key: name, value: 'k1' }] })]));
        expect(connector).toMatchObject({ headers: [], authType: AuthType.AUTH_API_KEY, apiKeyName: name, apiKeyIn: ApiKeyIn.HEADER });
      },
    );

    it('turns user info in the URL into basic auth settings', async () => {
      const connector = await theConnector(aCollection([aRequestItem('Userinfo', { url: 'https://ana:p%40ss@api.example.com/orders' })]));
      expect(connector).toMatchObject({
        url: 'https://api.example.com/orders',
        authType: AuthType.AUTH_BASIC,
        credentials: [{ field: 'basicToken', value: base64('ana:p@ss'), where: 'item "Userinfo", URL user info' }],
      });
    });
  });

  describe('variables and the URL', () => {
    const variable = (entries: Record<string, string>) => ({ variable: Object.entries(entries).map(([key, value]) => ({ key, value })) });

    it('keeps {{variables}} and writes path variables as variables, warning that the values are not imported', async () => {
      const draft = await imported(
        aCollection(
          [
            aRequestItem('Get', {
              url: {
                raw: 'https://api.example.com/shops/{{shop}}/orders/:id.json?expand={{expand}}',
                protocol: 'https',
                host: ['api', 'example', 'com'],
                path: ['shops', '{{shop}}', 'orders', ':id.json'],
                query: [{ key: 'expand', value: '{{expand}}' }],
                variable: [{ key: 'id', value: '42' }],
              },
              header: [{ key: 'X-Tenant', value: '{{tenant}}' }],
            }),
          ],
          variable({ shop: 'main', tenant: 'acme' }),
        ),
      );
      expect(draft.connectors[0]).toMatchObject({
        url: 'https://api.example.com/shops/{{shop}}/orders/{{id}}.json?expand={{expand}}',
        headers: [{ header: 'X-Tenant', value: '{{tenant}}' }],
      });
      expect(draft.warnings.map(({ code, where, message }) => [code, where, message])).toEqual([
        ['VARIABLE_VALUES_NOT_IMPORTED', 'item "Get"', 'The path variables {{id}} keep their names: their values are not imported, the bot fills them in.'],
        [
          'VARIABLE_VALUES_NOT_IMPORTED',
          'collection',
          '{{shop}}, {{tenant}} keep their names: the values the collection gives them are not imported, the bot fills them in when the connector runs.',
        ],
      ]);
    });

    it('writes in the collection value of a variable that stands for the scheme and host, nested variables too', async () => {
      const draft = await imported(
        aCollection([aRequestItem('Get', { url: '{{baseUrl}}/orders/{{id}}' })], variable({ baseUrl: '{{scheme}}://api.example.com/v1', scheme: 'https' })),
      );
      expect(draft.connectors[0].url).toBe('https://api.example.com/v1/orders/{{id}}');
      expect(codesOf(draft)).toEqual(['VARIABLE_INLINED']);
      expect(draft.warnings[0].message).toBe(
        "The URL's scheme, host or port came from {{baseUrl}}, {{scheme}}: the collection's values are written in, since a connector's URL starts with http:// or https://.",
      );
    });

    it('keeps a variable host without auth, and writes it in with auth (the secret would go wherever it points)', async () => {
      const values = variable({ host: 'api.example.com' });
      expect((await theConnector(aCollection([aRequestItem('Open', { url: 'https://{{host}}/orders' })], values))).url).toBe('https://{{host}}/orders');
      const secured = await imported(
        aCollection([aRequestItem('Secured', { url: 'https://{{host}}:8443/orders', auth: anAuth('bearer', { token: 't' }) })], values),
      );
      expect(secured.connectors[0].url).toBe('https://api.example.com:8443/orders');
      expect(secured.warnings[0].message).toBe(
        "The URL's scheme, host or port came from {{host}}: the collection's values are written in, since a connector with auth has none there (the secret would go wherever the variable points).",
      );
    });

    it("takes a host variable the collection does not define as the environment's {{env.NAME}}, the scheme from its value", async () => {
      const draft = await imported(aCollection([aRequestItem('Env', { url: '{{baseUrl}}/orders/{{id}}' }), aRequestItem('Ok')]));
      expect(draft.connectors.map(({ url }) => url)).toEqual(['{{env.baseUrl}}/orders/{{id}}', 'https://api.example.com/orders']);
      expect(draft.warnings).toEqual([
        {
          code: 'ENVIRONMENT_VARIABLE',
          where: 'item "Env"',
          message:
            "The URL's scheme, host or port comes from a variable the collection does not define (a Postman environment's): {{baseUrl}} is {{env.baseUrl}}, " +
            "the connector variable of the environment it is imported into (the answer's environmentVariables says whether it is set; postmanEnvironment fills it).",
        },
      ]);
    });

    it("takes each undefined variable of a host as the environment's, with or without auth, in the token URL too; a name that does not fit is made to", async () => {
      const connector = await theConnector(
        aCollection([
          aRequestItem('Secured', {
            url: 'https://{{tenant host}}.example.com/orders?x={{x}}',
            auth: anAuth('oauth2', { grant_type: 'client_credentials', accessTokenUrl: '{{$auth}}/token', clientId: 'c', clientSecret: 's' }),
          }),
        ]),
      );
      expect(connector.url).toBe('https://{{env.tenant_host}}.example.com/orders?x={{x}}');
      expect(connector.oauthUrl).toBe('{{env.auth}}/token');
    });

    it("keeps what the collection declares: a value written in with auth, a variable declared empty (an export) the caller's, an undefined one under a defined one the environment's", async () => {
      const declaredEmpty = aCollection([aRequestItem('Open', { url: 'https://{{host}}/orders' })], { variable: [{ key: 'host', value: '' }] });
      expect((await theConnector(declaredEmpty)).url).toBe('https://{{host}}/orders');
      const nested = aCollection(
        [aRequestItem('Nested', { url: '{{base}}/orders', auth: anAuth('bearer', { token: 't' }) })],
        variable({ base: 'https://{{region}}.example.com' }),
      );
      expect((await theConnector(nested)).url).toBe('https://{{env.region}}.example.com/orders');
    });

    it("reads an exported {{env.NAME}} as the environment's variable wherever it stands, and adds no scheme before one that starts the URL", async () => {
      const connector = await theConnector(
        aCollection([aRequestItem('Exported', { url: '{{env.BASE_URL}}/orders?k={{env.KIND}}', header: [{ key: 'X-Kind', value: '{{env.KIND}}' }] })]),
      );
      expect(connector).toMatchObject({ url: '{{env.BASE_URL}}/orders?k={{env.KIND}}', headers: [{ header: 'X-Kind', value: '{{env.KIND}}' }] });
    });

    it('still leaves out a request whose user info names a variable the collection does not define while auth applies', async () => {
      const draft = await imported(
        aCollection([aRequestItem('Userinfo', { url: 'https://{{user}}@api.example.com/x', auth: anAuth('bearer', { token: 't' }) }), aRequestItem('Ok')]),
      );
      expect(draft.connectors.map(({ name }) => name)).toEqual(['Ok']);
      expect(draft.warnings.map(({ code }) => code)).toContain('ITEM_SKIPPED');
    });

    it('gives up on a variable that stands for itself', async () => {
      const draft = await imported(aCollection([aRequestItem('Loop', { url: '{{a}}/x' }), aRequestItem('Ok')], variable({ a: '{{a}}' })));
      expect(draft.warnings[0].message).toMatch(/^Left out: its URL's scheme, host or port comes from \{\{a\}\}/);
    });

    it('keeps an undefined variable no connector variable can name as the text Postman sends, in a body, a header and a URL', async () => {
      const body = '{"body": "Flight {{1}} departs at {{2}}", "to": "{{to}}", "name": "{{ name | upcase }}", "who": "{{ who }}"}';
      const connector = await theConnector(
        aCollection([
          aRequestItem('Template', {
            method: 'post',
            url: 'https://api.example.com/send?t={{1}}',
            header: [{ key: 'X-Template', value: '{{1}}-{{ who }}' }],
            body: { mode: 'raw', raw: body, options: { raw: { language: 'json' } } },
          }),
        ]),
      );
      expect(connector).toMatchObject({
        url: 'https://api.example.com/send?t=%7B%7B1%7D%7D',
        headers: [{ header: 'X-Template', value: '{{1}}-\\{{ who }}' }],
        body: '{"body": "Flight {{1}} departs at {{2}}", "to": "{{to}}", "name": "{{ name | upcase }}", "who": "\\{{ who }}"}',
      });
    });

    it('adds http:// to a URL without a scheme, as Postman does, and renames variables a connector cannot name', async () => {
      const draft = await imported(
        aCollection([aRequestItem('Local', { url: 'localhost:5050/orders?id={{$guid}}&q={{my query}}' })], variable({ 'my query': 'x' })),
      );
      expect(draft.connectors[0].url).toBe('http://localhost:5050/orders?id={{guid}}&q={{my_query}}');
      expect(draft.warnings.map(({ code, message }) => [code, message])).toEqual([
        ['SCHEME_ADDED', 'The URL has no scheme: http:// is added, as Postman does.'],
        [
          'VARIABLE_RENAMED',
          '{{$guid}} is {{guid}} in the connector: a variable name is [A-Za-z_][A-Za-z0-9_.-]{0,63} (Postman makes its value up on each send; the bot fills it in when the connector runs).',
        ],
        ['VARIABLE_RENAMED', '{{my query}} is {{my_query}} in the connector: a variable name is [A-Za-z_][A-Za-z0-9_.-]{0,63}.'],
        [
          'VARIABLE_VALUES_NOT_IMPORTED',
          '{{my query}} keep their names: the values the collection gives them are not imported, the bot fills them in when the connector runs.',
        ],
      ]);
    });

    it('percent-encodes the URL as Postman sends it: spaces and quotes in a Graph $filter, the path, the fragment', async () => {
      const graph = await theConnector(
        aCollection([
          aRequestItem('Unread', {
            url: {
              raw: "https://graph.microsoft.com/v1.0/me/messages?$filter=importance eq 'high'&$select=subject,from",
              protocol: 'https',
              host: ['graph', 'microsoft', 'com'],
              path: ['v1.0', 'me', 'messages'],
              query: [
                { key: '$filter', value: "importance eq 'high'" },
                { key: '$select', value: 'subject,from' },
              ],
            },
          }),
        ]),
      );
      expect(graph.url).toBe('https://graph.microsoft.com/v1.0/me/messages?$filter=importance%20eq%20%27high%27&$select=subject,from');

      const raw = await theConnector(
        aCollection([aRequestItem('Raw', { url: 'https://api.example.com/my files/{{file id}}?q=a b&done=%20&who={{user}}#a b' })]),
      );
      // {{file id}} is defined nowhere and no connector variable can name it: the text Postman sends.
      expect(raw.url).toBe('https://api.example.com/my%20files/%7B%7Bfile%20id%7D%7D?q=a%20b&done=%20&who={{user}}#a%20b');
    });

    it.each([
      "https://graph.microsoft.com/v1.0/me/messages?$filter=importance eq 'high'&$top=5",
      'https://api.example.com/files/my report.pdf?name=a b&x="q"<>&e=é&p=%20&k={x}',
      'https://api.example.com/a{b}/c`d/ü?q=1&r=<1>#frag x',
      'https://api.example.com/%zz/100%?q=50%',
    ])('sends %s exactly as Postman does (its postman-url-encoder)', async (url) => {
      expect((await theConnector(aCollection([aRequestItem('Sent', { url })]))).url).toBe(toNodeUrl(url).href);
    });

    it('reads a URL object from its parts, as Postman sends it, leaving out disabled parameters', async () => {
      const draft = await imported(
        aCollection([
          aRequestItem('Parts', {
            url: {
              raw: 'https://api.example.com/old',
              protocol: 'https',
              host: 'api.example.com',
              port: 8443,
              path: '/orders',
              query: [
                { key: 'q', value: 'a&b#c' },
                { key: 'flag', value: null },
                { key: 'off', value: '1', disabled: true },
              ],
              hash: 'top',
            },
          }),
        ]),
      );
      expect(draft.connectors[0].url).toBe('https://api.example.com:8443/orders?q=a%26b%23c&flag#top');
      expect(codesOf(draft)).toEqual(['DISABLED_SKIPPED', 'URL_RAW_DIFFERS']);
    });
  });

  describe('headers and body', () => {
    const post = (body: unknown, header: unknown[] = []) => aCollection([aRequestItem('Create', { method: 'post', header, body })]);

    it.each([
      ['json', ContentType.APPLICATION_JSON],
      ['xml', ContentType.APPLICATION_XML],
      ['text', ContentType.TEXT_PLAIN],
    ])('maps a raw body in %s to %s', async (language, contentType) => {
      expect(await theConnector(post({ mode: 'raw', raw: '<x/>', options: { raw: { language } } }))).toMatchObject({
        requestType: RequestType.POST,
        contentType,
        body: '<x/>',
        headers: [],
      });
    });

    it('lets the Content-Type header decide, keeping it when it says more than the content type', async () => {
      const raw = { mode: 'raw', raw: '{"a": 1}', options: { raw: { language: 'text' } } };
      expect(await theConnector(post(raw, [{ key: 'Content-Type', value: 'application/json' }]))).toMatchObject({
        contentType: ContentType.APPLICATION_JSON,
        headers: [],
      });
      expect(await theConnector(post(raw, [{ key: 'content-type', value: 'application/vnd.api+json; charset=utf-8' }]))).toMatchObject({
        contentType: ContentType.APPLICATION_JSON,
        headers: [{ header: 'Content-Type', value: 'application/vnd.api+json; charset=utf-8' }],
      });
    });

    it('imports any other media type as TEXT_PLAIN with its Content-Type, sent as written, without a warning', async () => {
      const html = await imported(post({ mode: 'raw', raw: '<p>hi</p>', options: { raw: { language: 'html' } } }));
      const csv = await imported(post({ mode: 'raw', raw: 'a,b' }, [{ key: 'Content-Type', value: 'text/csv' }]));
      expect(html.connectors[0]).toMatchObject({ contentType: ContentType.TEXT_PLAIN, headers: [{ header: 'Content-Type', value: 'text/html' }] });
      expect(csv.connectors[0]).toMatchObject({ contentType: ContentType.TEXT_PLAIN, headers: [{ header: 'Content-Type', value: 'text/csv' }] });
      expect([...html.warnings, ...csv.warnings]).toEqual([]);
    });

    it('imports a media type no content type sends as TEXT_PLAIN sent as text/plain, and says the header is left out', async () => {
      const draft = await imported(post({ mode: 'raw', raw: 'x' }, [{ key: 'Content-Type', value: 'multipart/mixed; boundary=b' }]));
      expect(draft.connectors[0]).toMatchObject({ contentType: ContentType.TEXT_PLAIN, headers: [] });
      expect(draft.warnings).toEqual([
        {
          code: 'CONTENT_TYPE_UNSUPPORTED',
          where: 'item "Create"',
          message:
            'The media type "multipart/mixed; boundary=b" is none a connector sends: imported as TEXT_PLAIN, sent as text/plain; the Content-Type header is left out.',
        },
      ]);
    });

    it('leaves out the Content-Type of a disabled body, and a second Content-Type header', async () => {
      const disabled = await imported(post({ mode: 'raw', raw: '{}', disabled: true }, [{ key: 'Content-Type', value: 'application/merge-patch+json' }]));
      const twice = await imported(
        post({ mode: 'raw', raw: 'a,b' }, [
          { key: 'Content-Type', value: 'text/csv' },
          { key: 'Content-Type', value: 'text/plain' },
        ]),
      );
      expect(disabled.connectors[0]).toMatchObject({ contentType: ContentType.NONE, headers: [], body: '{}' });
      expect(disabled.warnings.map(({ message }) => message)).toEqual([
        'The body is disabled, so Postman sends none: kept, with content type NONE. Its Content-Type header is left out: a connector without a body declares no media type.',
      ]);
      expect(twice.connectors[0]).toMatchObject({ contentType: ContentType.TEXT_PLAIN, headers: [{ header: 'Content-Type', value: 'text/csv' }] });
      expect(codesOf(twice)).toEqual(['HEADER_SKIPPED']);
    });

    it('removes comments from a JSON body, as Postman does before sending', async () => {
      const draft = await imported(
        post({ mode: 'raw', raw: '{\n  // who\n  "url": "http://x/*y*/", "n": {{n}} /* count */\n}', options: { raw: { language: 'json' } } }),
      );
      expect(draft.connectors[0].body).toBe('{\n  \n  "url": "http://x/*y*/", "n": {{n}} \n}');
      expect(codesOf(draft)).toEqual(['JSON_COMMENTS_REMOVED']);
    });

    it('encodes urlencoded and form data fields, leaving out disabled and file fields', async () => {
      const fields = [
        { key: 'name', value: 'Ana María & co', type: 'text' },
        { key: 'id', value: '{{id}}' },
        { key: 'off', value: 'x', disabled: true },
      ];
      expect(await theConnector(post({ mode: 'urlencoded', urlencoded: fields }))).toMatchObject({
        contentType: ContentType.APPLICATION_FORM_URLENCODED,
        body: 'name=Ana%20Mar%C3%ADa%20%26%20co&id={{id}}',
      });
    });

    it('reads form data fields as multipart parts: text with its content type, each file of a field with its filename and an empty value', async () => {
      const form = await imported(
        post({
          mode: 'formdata',
          formdata: [
            { key: 'name', value: 'Ana María & co', type: 'text' },
            { key: 'id', value: '{{id}}' },
            { key: 'off', value: 'x', disabled: true },
            { key: 'meta', value: '{"a":1}', type: 'text', contentType: 'application/json' },
            { key: 'photo', type: 'file', src: '/home/ana/photo.png' },
            { key: 'docs', type: 'file', src: ['C:\\docs\\a.pdf', 'b.pdf'], contentType: 'application/pdf' },
            { key: 'none', type: 'file', src: null },
            { key: '', value: 'nameless' },
          ],
        }),
      );
      expect(form.connectors[0].contentType).toBe(ContentType.MULTIPART_FORM_DATA);
      expect(JSON.parse(form.connectors[0].body)).toEqual([
        { name: 'name', value: 'Ana María & co' },
        { name: 'id', value: '{{id}}' },
        { name: 'meta', value: '{"a":1}', contentType: 'application/json' },
        { name: 'photo', value: '', filename: 'photo.png' },
        { name: 'docs', value: '', filename: 'a.pdf', contentType: 'application/pdf' },
        { name: 'docs', value: '', filename: 'b.pdf', contentType: 'application/pdf' },
        { name: 'none', value: '' },
      ]);
      expect(codesOf(form)).toEqual(['DISABLED_SKIPPED', 'FILE_NOT_IMPORTED', 'FILE_NOT_IMPORTED', 'FILE_NOT_IMPORTED', 'BODY_NOT_IMPORTED']);
    });

    it('leaves out a raw body a multipart Content-Type declares: a multipart body holds parts', async () => {
      const raw = await imported(
        post({ mode: 'raw', raw: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' }, [
          { key: 'Content-Type', value: 'multipart/form-data; boundary=x' },
        ]),
      );
      expect(raw.connectors[0]).toMatchObject({ contentType: ContentType.MULTIPART_FORM_DATA, body: '' });
      expect(codesOf(raw)).toContain('BODY_NOT_IMPORTED');
    });

    it('writes a GraphQL body as Postman does: variables text as written, or an object as JSON', async () => {
      expect((await theConnector(post({ mode: 'graphql', graphql: { query: 'query { me }', variables: '{"id": "{{id}}"}' } }))).body).toBe(
        '{"query":"query { me }","variables":{"id": "{{id}}"}}',
      );
      expect(await theConnector(post({ mode: 'graphql', graphql: { query: 'query { me }', variables: { id: 1 } } }))).toMatchObject({
        contentType: ContentType.APPLICATION_JSON,
        body: '{"query":"query { me }","variables":{"id":1}}',
      });
    });

    it('keeps a disabled body with NONE, leaves out a file body, and warns about a body a GET does not send', async () => {
      const disabled = await imported(post({ mode: 'raw', raw: 'x', disabled: true }));
      expect(disabled.connectors[0]).toMatchObject({ contentType: ContentType.NONE, body: 'x' });
      const file = await imported(post({ mode: 'file', file: { src: '/etc/passwd' } }));
      expect(file.connectors[0]).toMatchObject({ contentType: ContentType.NONE, body: '' });
      const get = await imported(aCollection([aRequestItem('Get', { body: { mode: 'raw', raw: 'q' } })]));
      expect([codesOf(disabled), codesOf(file), codesOf(get)]).toEqual([['DISABLED_SKIPPED'], ['FILE_NOT_IMPORTED'], ['BODY_NOT_SENT']]);
    });

    it('reads headers written as one string, and leaves out those a connector cannot hold', async () => {
      const draft = await imported(aCollection([aRequestItem('Text', { header: 'Accept: application/json\nBad Name: x\nX-Long: ' + 'a'.repeat(9000) })]));
      expect(draft.connectors[0].headers).toEqual([{ header: 'Accept', value: 'application/json' }]);
      expect(draft.warnings.map(({ message }) => message)).toEqual([
        'The header "Bad…" is left out: its name is not an HTTP header name (RFC 9110 token, at most 256 characters).',
        'The header "X-Long" is left out: its value is over 8 KiB.',
      ]);
    });

    it('keeps Cookie and Proxy-Authorization headers with a warning that does not show their value', async () => {
      const draft = await imported(
        aCollection([
          aRequestItem('Session', {
            header: [
              { key: 'Cookie', value: 'sid=s3cr3t' },
              { key: 'Proxy-Authorization', value: 'Basic cHg6cHk=' },
            ],
          }),
        ]),
      );
      expect(draft.connectors[0].headers.map(({ header }) => header)).toEqual(['Cookie', 'Proxy-Authorization']);
      expect(draft.warnings.map(({ code, where }) => `${code} ${where}`)).toEqual([
        'HEADER_MAY_HOLD_CREDENTIAL item "Session"',
        'HEADER_MAY_HOLD_CREDENTIAL item "Session"',
      ]);
      expect(JSON.stringify(draft.warnings)).not.toMatch(/s3cr3t|cHg6cHk=/);
    });
  });

  describe('items', () => {
    it('names a connector after its item (one line of at most 100), describes it, and warns about scripts and settings', async () => {
      const long = 'Create an order\nfor a customer ' + 'x'.repeat(120);
      const event = [{ listen: 'test', script: { exec: ['pm.test("ok", () => {});'] } }];
      const draft = await imported(
        aCollection(
          [
            aFolder(
              'Orders',
              [aRequestItem(long, { description: { content: 'd'.repeat(1001) } }, { event, protocolProfileBehavior: { followRedirects: false } })],
              {
                event: [{ listen: 'prerequest', script: { exec: [''] } }],
              },
            ),
          ],
          { event },
        ),
      );
      const [connector] = draft.connectors;
      expect(connector.name).toBe(`Create an order for a customer ${'x'.repeat(120)}`.slice(0, 100));
      expect(connector.description).toBe('d'.repeat(1000));
      expect(draft.warnings.map(({ code, where }) => [code, where])).toEqual([
        ['SETTINGS_NOT_IMPORTED', connector.where],
        ['NAME_SHORTENED', connector.where],
        ['DESCRIPTION_SHORTENED', connector.where],
        ['SCRIPTS_NOT_IMPORTED', 'collection'],
        ['SCRIPTS_NOT_IMPORTED', connector.where],
      ]);
    });

    it('reads a request written as a URL alone, and leaves out an item that is neither request nor folder', async () => {
      const draft = await imported(aCollection([{ name: 'Short', request: 'https://api.example.com/ping' }, { name: 'Nothing' }]));
      expect(draft.connectors).toEqual([aDraft({ name: 'Short', url: 'https://api.example.com/ping', where: 'item "Short"' })]);
      expect(codesOf(draft)).toEqual(['ITEM_SKIPPED']);
    });
  });
});

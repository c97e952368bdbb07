import { ApiKeyIn, AuthType, ContentType, GrantType, multipartBody, RequestType } from '@app/domain';
import fc from 'fast-check';
import { ConnectorDraft, CredentialDraft, ExportedConnector } from '../connector-draft';
import { aMultipartBody, anExportedConnector } from '../testing/exported-connector';
import { exportPostman, importPostman } from '.';
import { SECRET_VARIABLES } from './export-postman';

const aConnector = (overrides: Partial<ExportedConnector> = {}): ExportedConnector =>
  anExportedConnector({ name: 'Create order', requestType: RequestType.POST, url: 'https://api.example.com/orders', ...overrides });

/** What an import of the connector's export gives back: the draft the connector was, its secrets as the export's variables. */
function draftOf(connector: ExportedConnector, credentials: Array<Omit<CredentialDraft, 'where'>>): ConnectorDraft {
  const where = `item "${connector.name}"`;
  const authWhere = `${where}, auth ${{ AUTH_BASIC: 'basic', AUTH_BEARER: 'bearer', AUTH_API_KEY: 'apikey', AUTH_OAUTH2: 'oauth2', AUTH_NONE: '' }[connector.authType]}`;
  const { clientId: _clientId, authUsername: _authUsername, ...fields } = connector;
  return { ...fields, credentials: credentials.map((credential) => ({ ...credential, where: authWhere })), where };
}

describe('exportPostman', () => {
  it('writes a v2.1 collection of one request, each secret a {{variable}} the collection declares empty', () => {
    const connector = aConnector({
      description: 'Creates an order',
      url: 'https://api.example.com:8443/shops/{{shop}}/orders?expand=items&q={{q}}#top',
      headers: [{ header: 'X-Tenant', value: '{{tenant}}' }],
      contentType: ContentType.APPLICATION_JSON,
      authType: AuthType.AUTH_BEARER,
      body: '{"sku": "{{sku}}"}',
    });
    expect(JSON.parse(exportPostman(connector))).toEqual({
      info: { name: 'Create order', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        {
          name: 'Create order',
          request: {
            method: 'POST',
            header: [{ key: 'X-Tenant', value: '{{tenant}}', type: 'text' }],
            body: { mode: 'raw', raw: '{"sku": "{{sku}}"}', options: { raw: { language: 'json' } } },
            url: {
              raw: 'https://api.example.com:8443/shops/{{shop}}/orders?expand=items&q={{q}}#top',
              protocol: 'https',
              host: ['api', 'example', 'com'],
              port: '8443',
              path: ['shops', '{{shop}}', 'orders'],
              query: [
                { key: 'expand', value: 'items' },
                { key: 'q', value: '{{q}}' },
              ],
              hash: 'top',
            },
            auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }] },
            description: 'Creates an order',
          },
        },
      ],
      variable: ['bearerToken', 'shop', 'q', 'sku', 'tenant'].map((key) => ({ key, value: '', type: 'string' })),
    });
  });

  it('never writes a secret: the exporter is not given one, and writes each as its variable', () => {
    expect(SECRET_VARIABLES).toEqual({
      basicUsername: 'basicUsername',
      basicPassword: 'basicPassword',
      bearerToken: 'bearerToken',
      apiKey: 'apiKey',
      clientSecret: 'clientSecret',
      authPassword: 'authPassword',
    });
    const exported = JSON.parse(exportPostman(aConnector({ authType: AuthType.AUTH_BASIC })));
    expect(exported.item[0].request.auth).toEqual({
      type: 'basic',
      basic: [
        { key: 'username', value: '{{basicUsername}}', type: 'string' },
        { key: 'password', value: '{{basicPassword}}', type: 'string' },
      ],
    });
  });

  it('writes the output and tags in a ```connector block at the end of the description, which Postman keeps', () => {
    const exported = JSON.parse(exportPostman(aConnector({ description: 'Creates an order', output: '$.id', tags: [{ name: 'shop' }, { name: 'orders' }] })));
    expect(exported.item[0].request.description).toBe('Creates an order\n\n```connector\n{"output":"$.id","tags":["shop","orders"]}\n```');
    expect(JSON.parse(exportPostman(aConnector({ description: null, output: '', tags: [{ name: 'a' }] }))).item[0].request.description).toBe(
      '```connector\n{"tags":["a"]}\n```',
    );
    expect(JSON.parse(exportPostman(aConnector({ description: null }))).item[0].request.description).toBeUndefined();
  });

  it('writes an escaped placeholder as the text the connector sends, and declares no variable for it', () => {
    const collection = JSON.parse(
      exportPostman(
        aConnector({
          contentType: ContentType.TEXT_PLAIN,
          headers: [{ header: 'X-Template', value: '\\{{name}}' }],
          body: 'Flight {{1}}, dear \\{{name}}: {{v}}',
        }),
      ),
    ) as { item: Array<{ request: { header: Array<{ key: string; value: string }>; body: { raw: string } } }>; variable: Array<{ key: string }> };
    const [{ request }] = collection.item;
    expect(request.body.raw).toBe('Flight {{1}}, dear {{name}}: {{v}}');
    expect(request.header).toContainEqual(expect.objectContaining({ key: 'X-Template', value: '{{name}}' }));
    expect(collection.variable.map(({ key }) => key)).toEqual(['v']);
  });

  it('writes the URL alone when its parts would not give it back', () => {
    const exported = JSON.parse(exportPostman(aConnector({ url: 'https://user@[::1]:8080/x' })));
    expect(exported.item[0].request.url).toEqual({ raw: 'https://user@[::1]:8080/x' });
  });

  it('writes a multipart body as form data: text fields, and files named by src with their text or bytes beside', () => {
    const body = multipartBody([
      { name: 'to', value: '{{to}}', contentType: 'text/plain' },
      { name: 'notes', value: 'hi', filename: 'notes.txt' },
      { name: 'photo', base64: 'AP8=', filename: 'p.png', contentType: 'image/png' },
    ]);
    const exported = JSON.parse(exportPostman(aConnector({ requestType: RequestType.POST, contentType: ContentType.MULTIPART_FORM_DATA, body })));
    expect(exported.item[0].request.body).toEqual({
      mode: 'formdata',
      formdata: [
        { key: 'to', value: '{{to}}', type: 'text', contentType: 'text/plain' },
        { key: 'notes', type: 'file', src: 'notes.txt', value: 'hi' },
        { key: 'photo', type: 'file', src: 'p.png', 'x-base64': 'AP8=', contentType: 'image/png' },
      ],
    });
  });

  it("declares no variable of the environment's: a Postman environment gives it (key env.NAME)", () => {
    const exported = JSON.parse(exportPostman(aConnector({ url: '{{env.BASE_URL}}/orders/{{id}}', body: '{{env.region}}' })));
    expect(exported.variable).toEqual([{ key: 'id', value: '', type: 'string' }]);
    expect(exported.item[0].request.url.raw).toBe('{{env.BASE_URL}}/orders/{{id}}');
  });

  describe('round trip: an import of the export gives back the connector', () => {
    const oauth = { oauthUrl: 'https://auth.example.com/oauth/token', clientId: 'shop-client' };
    const cases: Array<[string, ExportedConnector, Array<Omit<CredentialDraft, 'where'>>]> = [
      [
        'a GET with variables in its host, path and query',
        aConnector({ requestType: RequestType.GET, url: 'https://{{host}}/orders/{{id}}?page={{page}}&all' }),
        [],
      ],
      [
        "the environment's variables: one that starts the URL (its scheme and host), others in the host, a header and the body",
        aConnector({
          url: '{{env.BASE_URL}}/orders/{{id}}?region={{env.region}}',
          headers: [{ header: 'X-Tenant', value: '{{env.tenant}}' }],
          body: '{"region": "{{env.region}}"}',
        }),
        [],
      ],
      ["an environment's variable in the host", aConnector({ requestType: RequestType.GET, url: 'https://{{env.region}}.api.example.com/v1' }), []],
      [
        'JSON with bearer auth: unicode, quotes, newlines and variables in the body',
        aConnector({
          name: 'Créer «commande» 🎉',
          description: 'Line one\nline "two"',
          contentType: ContentType.APPLICATION_JSON,
          authType: AuthType.AUTH_BEARER,
          headers: [
            { header: 'Accept-Language', value: 'pt-BR' },
            { header: 'X-Request', value: 'id-{{requestId}}' },
          ],
          body: '{\n  "name": "{{name}}",\n  "note": "Ana \\"A\\"\\nçé 🎉",\n  "qty": {{qty}}\n}',
        }),
        [{ field: 'bearerToken', variable: 'bearerToken' }],
      ],
      [
        'XML with basic auth',
        aConnector({
          requestType: RequestType.PUT,
          contentType: ContentType.APPLICATION_XML,
          authType: AuthType.AUTH_BASIC,
          body: '<order id="{{id}}">\n  <note>a &amp; b</note>\n</order>',
        }),
        [
          { field: 'basicUsername', variable: 'basicUsername' },
          { field: 'basicPassword', variable: 'basicPassword' },
        ],
      ],
      [
        'text with an API key header',
        aConnector({
          requestType: RequestType.PATCH,
          contentType: ContentType.TEXT_PLAIN,
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'X-Api-Key',
          apiKeyIn: ApiKeyIn.HEADER,
          body: 'plain\ttext',
        }),
        [{ field: 'apiKey', variable: 'apiKey' }],
      ],
      [
        'a form with an API key in the query',
        aConnector({
          requestType: RequestType.DELETE,
          contentType: ContentType.APPLICATION_FORM_URLENCODED,
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'api_key',
          apiKeyIn: ApiKeyIn.QUERY,
          body: 'a=1&b={{b}}&c=hello%20w%C3%B6rld',
        }),
        [{ field: 'apiKey', variable: 'apiKey' }],
      ],
      [
        'multipart form data with OAuth 2.0 client credentials',
        aConnector({
          contentType: ContentType.MULTIPART_FORM_DATA,
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.CLIENT_CREDENTIALS,
          ...oauth,
          body: aMultipartBody(),
        }),
        [
          { field: 'clientId', value: 'shop-client' },
          { field: 'clientSecret', variable: 'clientSecret' },
        ],
      ],
      [
        'a form body that is not key=value pairs, with OAuth 2.0 password',
        aConnector({
          contentType: ContentType.APPLICATION_FORM_URLENCODED,
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.PASSWORD,
          ...oauth,
          authUsername: 'ana',
          body: 'a=hello+world&flag',
        }),
        [
          { field: 'clientId', value: 'shop-client' },
          { field: 'authUsername', value: 'ana' },
          { field: 'authPassword', variable: 'authPassword' },
        ],
      ],
      [
        'output and tags, a description whose text looks like a block',
        aConnector({
          description: 'Say:\n```connector\n{"output": "$.x"}\n```\nand more',
          output: '$.data[?@.note == "```"]',
          tags: [{ name: 'shop' }, { name: 'öffentlich "x"' }],
        }),
        [],
      ],
      ['no content type but a body (sent by none)', aConnector({ requestType: RequestType.OPTIONS, body: 'kept, not sent' }), []],
      [
        'a Content-Type header of its own',
        aConnector({
          contentType: ContentType.APPLICATION_JSON,
          headers: [{ header: 'Content-Type', value: 'application/vnd.api+json' }],
          body: '{"data": []}',
        }),
        [],
      ],
      [
        'an unsupported media type kept as a header',
        aConnector({ requestType: RequestType.HEAD, contentType: ContentType.TEXT_PLAIN, headers: [{ header: 'Content-Type', value: 'text/html' }], body: '' }),
        [],
      ],
      ['a URL with a port, an empty path segment and a fragment', aConnector({ url: 'https://api.example.com:8443/a//b/?x=1&y=#frag' }), []],
    ];

    it.each(cases)('%s', async (_case, connector, credentials) => {
      const draft = await importPostman(exportPostman(connector), {});
      expect(draft.connectors).toEqual([draftOf(connector, credentials)]);
    });

    it('holds for any text body and header value (fuzzed; text without `{{`, which Postman reads as a variable)', async () => {
      const text = fc.string({ unit: 'grapheme', maxLength: 200 }).filter((value) => !value.includes('{{'));
      const headerValue = fc.string({ unit: fc.constantFrom(...'abc XYZ;=,"\\/-_.:@!é'), maxLength: 40 }).map((value) => value.trim());
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(ContentType.TEXT_PLAIN, ContentType.APPLICATION_XML), text, headerValue, async (contentType, body, value) => {
          const connector = aConnector({ contentType, body, headers: [{ header: 'X-Note', value }] });
          expect((await importPostman(exportPostman(connector), {})).connectors).toEqual([draftOf(connector, [])]);
        }),
        { numRuns: 200 },
      );
    });
  });

  it('writes a secret header as its {{SECRET_…}} variable, declared empty, which an import reads back as that secret header beside the auth', async () => {
    const connector = aConnector({
      authType: AuthType.AUTH_BEARER,
      headers: [
        { header: 'x-api-key', value: '<SECRET>', secret: true },
        { header: 'X-Tenant', value: '<SECRET>', secret: true },
      ],
    });
    const exported = exportPostman(connector);
    expect(exported).not.toContain('<SECRET>');
    expect(JSON.parse(exported).item[0].request.header).toEqual([
      { key: 'x-api-key', value: '{{SECRET_X_API_KEY}}', type: 'text' },
      { key: 'X-Tenant', value: '{{SECRET_X_TENANT}}', type: 'text' },
    ]);
    expect(JSON.parse(exported).variable).toEqual(expect.arrayContaining([{ key: 'SECRET_X_API_KEY', value: '', type: 'string' }]));
    const [draft] = (await importPostman(exported, {})).connectors;
    expect(draft.authType).toBe(AuthType.AUTH_BEARER);
    expect(draft.headers).toEqual([
      expect.objectContaining({ header: 'x-api-key', value: '', secret: true, variable: 'SECRET_X_API_KEY' }),
      expect.objectContaining({ header: 'X-Tenant', value: '', secret: true, variable: 'SECRET_X_TENANT' }),
    ]);
  });
});

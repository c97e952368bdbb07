import { ApiKeyIn, AuthType, ContentType, GrantType, multipartBody, RequestType } from '@app/domain';
import { ExportedConnector } from '../connector-draft';
import { exportOpenApi } from './export-openapi';
import { importOpenApi } from './import-openapi';
import { aMultipartBody } from '../testing/exported-connector';
import { aForecastConnector } from './testing/openapi-factories';

const sut = exportOpenApi;

interface Operation {
  parameters: Array<{ name: string; in: string; schema: object }>;
  requestBody: { content: Record<string, { example: unknown }> };
}

/** The one operation of the document a connector is exported as. */
function onlyOperation(connector: ExportedConnector): Operation {
  const document = JSON.parse(sut(connector)) as { paths: Record<string, Record<string, Operation>> };
  return Object.values(Object.values(document.paths)[0])[0];
}

describe(exportOpenApi.name, () => {
  it('writes the connector as the one operation of an OpenAPI 3.1 document, its auth as a security scheme without a secret', () => {
    const connector = aForecastConnector({
      name: 'Create order',
      description: 'Orders a pizza.',
      requestType: RequestType.POST,
      url: 'https://shop.example.com:8443/orders/{{shop}}?lang=en&day={{day}}',
      headers: [{ header: 'X-Trace', value: '{{X-Trace}}' }],
      contentType: ContentType.APPLICATION_JSON,
      authType: AuthType.AUTH_OAUTH2,
      grantType: GrantType.CLIENT_CREDENTIALS,
      clientId: 'client-1',
      oauthUrl: 'https://auth.example.com/token',
      body: '{\n  "size": "large"\n}',
      output: '$.id',
      tags: [{ name: 'shop' }, { name: 'orders' }],
    });

    expect(JSON.parse(sut(connector))).toEqual({
      openapi: '3.1.0',
      info: { title: 'Create order', version: '1.0.0' },
      servers: [{ url: 'https://shop.example.com:8443' }],
      tags: [{ name: 'shop' }, { name: 'orders' }],
      paths: {
        '/orders/{shop}': {
          post: {
            operationId: 'createOrder',
            summary: 'Create order',
            description: 'Orders a pizza.',
            tags: ['shop', 'orders'],
            'x-connector-name': 'Create order',
            'x-connector-output': '$.id',
            parameters: [
              { name: 'shop', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'lang', in: 'query', required: true, schema: { type: 'string', const: 'en' } },
              { name: 'day', in: 'query', required: true, schema: { type: 'string' } },
              { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } },
            ],
            requestBody: { required: true, content: { 'application/json': { example: { size: 'large' } } } },
            security: [{ oauth2: [] }],
            responses: { default: { description: "The far side's answer" } },
          },
        },
      },
      components: {
        securitySchemes: {
          oauth2: {
            type: 'oauth2',
            flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: {} } },
            description: 'Give the client id and client secret again: credentials are not exported.',
          },
        },
      },
    });
  });

  it('makes a variable in the host a server variable, and leaves user info out of the server', () => {
    const document = JSON.parse(sut(aForecastConnector({ url: 'https://user:secret@{{tenant}}.example.com/a' })));

    expect(document.servers).toEqual([
      { url: 'https://{tenant}.example.com', variables: { tenant: { default: '{{tenant}}', description: 'The connector variable tenant' } } },
    ]);
    expect(JSON.stringify(document)).not.toContain('secret');
  });

  it.each([
    ['Create CRM lead', 'createCrmLead'],
    ['POST 127.0.0.2:8099/2010-04-01/Accounts/{{AccountSid}}/Messages.json', 'postAccountsMessages'],
    ['GET api.example.com/v1/users?page=2', 'getUsers'],
    ['DELETE api.example.com', 'delete'],
    ['Météo à Zürich (v2)', 'meteoAZurichV2'],
    ['2 factor: send {{code}}', 'op2FactorSend'],
    ['🎉 — 🎉', 'callConnector'],
    ['x'.repeat(100), 'x'.repeat(64)],
  ])('makes the operationId of %j a camelCase identifier: %s', (name, operationId) => {
    const document = JSON.parse(sut(aForecastConnector({ name })));
    const [operation] = Object.values(document.paths['/forecast/{city}']) as Array<{ operationId: string }>;

    expect(operation.operationId).toBe(operationId);
    expect(operation.operationId).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
  });

  it('describes a form body by a schema of its fields, a fixed value as const, beside the example', () => {
    const document = JSON.parse(
      sut(
        aForecastConnector({
          requestType: RequestType.POST,
          contentType: ContentType.APPLICATION_FORM_URLENCODED,
          body: 'To=%2B1555&Body=Hi+there&From={{from}}',
        }),
      ),
    );

    expect(document.paths['/forecast/{city}'].post.requestBody.content).toEqual({
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          properties: { To: { type: 'string', const: '+1555' }, Body: { type: 'string', const: 'Hi there' }, From: { type: 'string' } },
          required: ['To', 'Body', 'From'],
        },
        example: 'To=%2B1555&Body=Hi+there&From={{from}}',
      },
    });
  });

  it('gives a form body that is not name=value pairs no schema, only its example', () => {
    const document = JSON.parse(
      sut(aForecastConnector({ requestType: RequestType.POST, contentType: ContentType.APPLICATION_FORM_URLENCODED, body: 'a=1&a=2' })),
    );

    expect(document.paths['/forecast/{city}'].post.requestBody.content).toEqual({ 'application/x-www-form-urlencoded': { example: 'a=1&a=2' } });
  });

  describe('never writes a $ref it did not make', () => {
    const attacker = 'https://attacker.example/schema.json';
    const body = JSON.stringify({ pet: { $ref: attacker }, tags: [{ $id: attacker, $schema: attacker }], name: 'Rex' }, null, 2);
    const connector = aForecastConnector({ requestType: RequestType.POST, contentType: ContentType.APPLICATION_JSON, body });

    /** Every key of the document, at any depth. */
    const keysOf = (value: unknown): string[] =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, child]) => [...(Array.isArray(value) ? [] : [key]), ...keysOf(child)])
        : [];

    it('exports a JSON body holding $-keys as its text, where no key exists, and imports it back the same', async () => {
      const document = JSON.parse(sut(connector));

      expect(keysOf(document).filter((key) => key.startsWith('$'))).toEqual([]);
      expect(document.paths['/forecast/{city}'].post.requestBody.content['application/json']).toEqual({ example: body });
      expect((await importOpenApi(sut(connector), {})).connectors[0].body).toBe(body);
    });
  });

  it("writes the connector's declared Content-Type as the request body's media type, not as a header parameter", () => {
    const operation = onlyOperation(
      aForecastConnector({
        requestType: RequestType.PATCH,
        headers: [{ header: 'Content-Type', value: 'application/json-patch+json' }],
        contentType: ContentType.APPLICATION_JSON,
        body: '[]',
      }),
    );

    expect(Object.keys(operation.requestBody.content)).toEqual(['application/json-patch+json']);
    expect(operation.parameters.filter((parameter) => parameter.in === 'header')).toEqual([]);
  });

  it('writes an escaped placeholder as the text the connector sends, in the example and a fixed header', () => {
    const operation = onlyOperation(
      aForecastConnector({
        requestType: RequestType.POST,
        headers: [{ header: 'X-Template', value: '\\{{name}}' }],
        contentType: ContentType.TEXT_PLAIN,
        body: 'dear \\{{name}}: {{v}}',
      }),
    );

    expect(operation.requestBody.content['text/plain'].example).toBe('dear {{name}}: {{v}}');
    expect(operation.parameters.find(({ name }) => name === 'X-Template')?.schema).toEqual({ type: 'string', const: '{{name}}' });
  });

  it('describes a multipart body as a form schema: binary files, an array for a repeated name, encoding, text values as the example', () => {
    const parts = [
      { name: 'to', value: '{{to}}' },
      { name: 'meta', value: '{"k":1}', contentType: 'application/json' },
      { name: 'photo', base64: 'AP8=', filename: 'a.png', contentType: 'image/png' },
      { name: 'photo', base64: 'AP8=', filename: 'b.png' },
    ];
    const document = JSON.parse(
      sut(aForecastConnector({ requestType: RequestType.POST, contentType: ContentType.MULTIPART_FORM_DATA, body: multipartBody(parts) })),
    );

    expect(document.paths['/forecast/{city}'].post.requestBody.content['multipart/form-data']).toEqual({
      schema: {
        type: 'object',
        properties: { to: { type: 'string' }, meta: { type: 'string' }, photo: { type: 'array', items: { type: 'string', format: 'binary' } } },
        required: ['to', 'meta', 'photo'],
      },
      encoding: { meta: { contentType: 'application/json' }, photo: { contentType: 'image/png' } },
      example: { to: '{{to}}', meta: '{"k":1}' },
      'x-connector-parts': parts,
    });
  });

  describe('round trip: importOpenApi gives the same connector back', () => {
    const connectors: Array<[string, ExportedConnector]> = [
      [
        'no auth, variables in path, query and host',
        aForecastConnector({ url: 'https://{{tenant}}.example.com:8080/forecast/{{city}}/days?units=metric&q=a%20b&day={{day}}' }),
      ],
      [
        'a name that is no identifier, output and tags',
        aForecastConnector({
          name: 'GET forecast.example.com/{{city}} (v2)',
          output: '$.days[?@.rain > 2].date',
          tags: [{ name: 'weather' }, { name: 'öffentlich' }],
        }),
      ],
      [
        'basic auth, a JSON body with unicode, quotes and newlines',
        aForecastConnector({
          requestType: RequestType.POST,
          authType: AuthType.AUTH_BASIC,
          contentType: ContentType.APPLICATION_JSON,
          body: JSON.stringify({ name: 'Zoë "the" 🐕', note: 'line 1\nline 2', qty: 2 }, null, 2),
          description: 'Adds a dog.\nTwo lines.',
        }),
      ],
      [
        'bearer auth, a JSON body with a variable outside a string',
        aForecastConnector({
          requestType: RequestType.PUT,
          authType: AuthType.AUTH_BEARER,
          contentType: ContentType.APPLICATION_JSON,
          body: '{"qty": {{qty}}, "name": "{{name}}"}',
        }),
      ],
      [
        'OAuth 2.0 client credentials, a form body',
        aForecastConnector({
          requestType: RequestType.PATCH,
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.CLIENT_CREDENTIALS,
          clientId: 'c',
          oauthUrl: 'https://auth.example.com/oauth/token',
          contentType: ContentType.APPLICATION_FORM_URLENCODED,
          body: 'a=1&b={{b}}',
        }),
      ],
      [
        'OAuth 2.0 password, an XML body',
        aForecastConnector({
          requestType: RequestType.DELETE,
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.PASSWORD,
          clientId: 'c',
          authUsername: 'ana',
          oauthUrl: 'https://auth.example.com/token',
          contentType: ContentType.APPLICATION_XML,
          body: '<pet name="Rex &amp; co">\n  <age>{{age}}</age>\n</pet>',
        }),
      ],
      [
        'an API key in a header, a text body',
        aForecastConnector({
          requestType: RequestType.POST,
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'X-API-Key',
          apiKeyIn: ApiKeyIn.HEADER,
          contentType: ContentType.TEXT_PLAIN,
          body: 'He said "hi"\r\nand left: {{who}} ✓',
        }),
      ],
      [
        'an API key in the query, a multipart body, headers with fixed values',
        aForecastConnector({
          requestType: RequestType.POST,
          url: 'https://api.example.com/upload',
          headers: [
            { header: 'Accept', value: 'application/json' },
            { header: 'X-Tenant', value: 'acme {{region}}' },
          ],
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'api_key',
          apiKeyIn: ApiKeyIn.QUERY,
          contentType: ContentType.MULTIPART_FORM_DATA,
          body: aMultipartBody(true),
        }),
      ],
      [
        'a declared vendor media type, written as the request body content key',
        aForecastConnector({
          requestType: RequestType.PATCH,
          headers: [
            { header: 'Accept', value: 'application/json' },
            { header: 'Content-Type', value: 'application/merge-patch+json' },
          ],
          contentType: ContentType.APPLICATION_JSON,
          body: '{"spec": {"replicas": {{n}}}}',
        }),
      ],
      [
        'a declared text/csv',
        aForecastConnector({
          requestType: RequestType.POST,
          headers: [{ header: 'Content-Type', value: 'text/csv' }],
          contentType: ContentType.TEXT_PLAIN,
          body: 'a,b\n1,2',
        }),
      ],
      [
        'an empty multipart body',
        aForecastConnector({ requestType: RequestType.PUT, url: 'https://api.example.com/upload', contentType: ContentType.MULTIPART_FORM_DATA, body: '' }),
      ],
      ['HEAD', aForecastConnector({ requestType: RequestType.HEAD, headers: [] })],
      ['OPTIONS, a JSON body that is empty', aForecastConnector({ requestType: RequestType.OPTIONS, contentType: ContentType.APPLICATION_JSON, body: '' })],
    ];

    it.each(connectors)('%s', async (_case, connector) => {
      const draft = await importOpenApi(sut(connector), {});

      const { clientId: _clientId, authUsername: _authUsername, ...fields } = connector;
      expect(draft.connectors).toEqual([{ ...fields, credentials: expect.any(Array), where: expect.any(String) }]);
      expect(draft.warnings).toEqual([]);
    });

    it.each([
      [AuthType.AUTH_BASIC, ['basicUsername', 'basicPassword']],
      [AuthType.AUTH_BEARER, ['bearerToken']],
      [AuthType.AUTH_API_KEY, ['apiKey']],
    ])('asks for the credentials of %s again, without value or variable', async (authType, fields) => {
      const connector = aForecastConnector({ authType, apiKeyName: 'X-API-Key', apiKeyIn: ApiKeyIn.HEADER });

      const draft = await importOpenApi(sut(connector), {});

      expect(draft.connectors[0].credentials).toEqual(fields.map((field) => ({ field, where: expect.stringMatching(/^security scheme /) })));
    });
  });

  it.each([
    ['beside bearer auth', AuthType.AUTH_BEARER],
    ['without auth settings', AuthType.AUTH_NONE],
  ])('writes a secret header %s as a marked apiKey scheme required with the auth, never a parameter, and reads it back', async (_case, authType) => {
    const connector = aForecastConnector({ authType, headers: [{ header: 'x-api-key', value: '<SECRET>', secret: true }] });

    const document = JSON.parse(sut(connector));
    const draft = await importOpenApi(sut(connector), {});

    const operation = Object.values(Object.values(document.paths)[0] as Record<string, { parameters: unknown[]; security: unknown[] }>)[0];
    expect(JSON.stringify(operation.parameters)).not.toContain('x-api-key');
    expect(document.components.securitySchemes.SECRET_X_API_KEY).toMatchObject({
      type: 'apiKey',
      name: 'x-api-key',
      in: 'header',
      'x-connector-secret-header': true,
    });
    expect(JSON.stringify(document)).not.toContain('<SECRET>');
    expect(draft.connectors[0]).toMatchObject({
      authType,
      headers: [{ header: 'x-api-key', value: '', secret: true, where: 'security scheme SECRET_X_API_KEY' }],
    });
    expect(draft.warnings).toEqual([]);
  });
});

import { ApiKeyIn, AuthType, ContentType, GrantType, RequestType } from '@app/domain';
import { ImportSourceError } from '../connector-draft';
import { importOpenApi } from './import-openapi';
import { aDocument, aDocumentWith, anOperation } from './testing/openapi-factories';

const sut = importOpenApi;

async function importOne(document: Record<string, unknown>) {
  const draft = await sut(JSON.stringify(document), {});
  expect(draft.connectors).toHaveLength(1);
  return { connector: draft.connectors[0], warnings: draft.warnings };
}

const WHERE = 'operation POST /pets/{petId}';
const PET_ID = { name: 'petId', in: 'path', required: true, schema: { type: 'string' } };

describe(importOpenApi.name, () => {
  describe('one connector per operation', () => {
    it('makes the fields of a connector from an operation', async () => {
      const { connector, warnings } = await importOne(aDocumentWith({ summary: 'Update a pet', description: 'Changes the pet.' }));

      expect(connector).toEqual({
        name: 'updatePet',
        description: 'Update a pet\n\nChanges the pet.',
        requestType: RequestType.POST,
        url: 'https://api.example.com/v1/pets/{{petId}}',
        headers: [],
        contentType: ContentType.NONE,
        authType: AuthType.AUTH_NONE,
        grantType: null,
        oauthUrl: null,
        apiKeyName: null,
        apiKeyIn: null,
        body: '',
        output: '',
        tags: [],
        credentials: [],
        where: WHERE,
      });
      expect(warnings).toEqual([]);
    });

    it('reads YAML as well as JSON', async () => {
      const yaml = [
        'openapi: 3.0.3',
        'info: { title: Pets, version: "1" }',
        'servers: [{ url: "https://api.example.com" }]',
        'paths:',
        '  /pets:',
        '    get:',
        '      operationId: listPets',
        '      responses: { "200": { description: ok } }',
      ].join('\n');

      const draft = await sut(yaml, {});

      expect(draft.connectors.map((connector) => [connector.name, connector.url])).toEqual([['listPets', 'https://api.example.com/pets']]);
    });

    it('lists operations in the order of the document: paths as written, then get, put, post, delete, options, head, patch', async () => {
      const operation = { responses: { '200': { description: 'ok' } } };
      const document = aDocument({ paths: { '/b': { patch: operation, get: operation, head: operation }, '/a': { delete: operation, options: operation } } });

      const draft = await sut(JSON.stringify(document), {});

      expect(draft.connectors.map((connector) => connector.name)).toEqual(['GET /b', 'HEAD /b', 'PATCH /b', 'DELETE /a', 'OPTIONS /a']);
    });

    it('leaves TRACE operations out, with a warning', async () => {
      const document = aDocument({ paths: { '/a': { trace: { responses: { '200': { description: 'ok' } } } } } });

      const draft = await sut(JSON.stringify(document), {});

      expect(draft.connectors).toEqual([]);
      expect(draft.warnings).toEqual([
        { code: 'UNSUPPORTED_METHOD', where: 'operation TRACE /a', message: 'a connector cannot send TRACE: the operation is left out' },
      ]);
    });

    it('names a connector by its summary without an operationId, else by method and path', async () => {
      const operation = { responses: { '200': { description: 'ok' } } };
      const document = aDocument({ paths: { '/a': { get: { ...operation, summary: '  List\nall  a ' } }, '/b': { get: operation } } });

      const draft = await sut(JSON.stringify(document), {});

      expect(draft.connectors.map((connector) => [connector.name, connector.description])).toEqual([
        ['List all a', null],
        ['GET /b', null],
      ]);
    });

    it('cuts a long name at a word to 100 characters and a long description to 1000, and says so', async () => {
      const { connector, warnings } = await importOne(aDocumentWith({ operationId: `${'word '.repeat(30)}end`, description: 'x'.repeat(1200) }));

      expect(connector.name).toBe(`${'word '.repeat(18)}word…`);
      expect(connector.name.length).toBeLessThanOrEqual(100);
      expect(connector.description).toBe(`${'x'.repeat(999)}…`);
      expect(warnings.map((found) => found.code)).toEqual(['NAME_SHORTENED', 'DESCRIPTION_SHORTENED']);
    });

    it('warns of callbacks and webhooks, which are calls the API makes', async () => {
      const callbacks = { onEvent: { '{$request.body#/url}': { post: { responses: { '200': { description: 'ok' } } } } } };
      const document = aDocumentWith({ callbacks }, { webhooks: { newPet: { post: { responses: { '200': { description: 'ok' } } } } } });

      const { warnings } = await importOne(document);

      expect(warnings).toEqual([
        { code: 'WEBHOOKS_NOT_IMPORTED', where: 'document', message: '1 webhook(s) are calls the API makes, not connectors: left out' },
        { code: 'CALLBACKS_NOT_IMPORTED', where: WHERE, message: 'the callbacks are calls the API makes, not connectors: left out' },
      ]);
    });
  });

  describe('tags', () => {
    it("makes the operation's tags the connector's, in their order, under the tag rules", async () => {
      const { connector, warnings } = await importOne(aDocumentWith({ tags: ['pets', ' Store ', 'PETS', 'x'.repeat(60)] }));

      expect(connector.tags).toEqual([{ name: 'pets' }, { name: 'Store' }, { name: 'x'.repeat(50) }]);
      expect(warnings).toEqual([
        { code: 'TAG_SHORTENED', where: WHERE, message: `the tag "${'x'.repeat(60)}" is longer than 50 characters: shortened to "${'x'.repeat(50)}"` },
      ]);
    });

    it('gives a connector of an operation without tags none', async () => {
      expect((await importOne(aDocumentWith({}))).connector.tags).toEqual([]);
    });
  });

  describe('select', () => {
    const operation = { responses: { '200': { description: 'ok' } } };
    const document = JSON.stringify(
      aDocument({ paths: { '/pets': { get: { ...operation, operationId: 'listPets' }, post: operation }, '/pets/{id}': { get: operation } } }),
    );

    it('takes operationIds and METHOD /path (the method in any case), in the order of the document', async () => {
      const draft = await sut(document, { select: ['get /pets/{id}', 'listPets'] });

      expect(draft.connectors.map((connector) => connector.where)).toEqual(['operation GET /pets', 'operation GET /pets/{id}']);
    });

    it('refuses a selector that matches no operation, naming it', async () => {
      await expect(sut(document, { select: ['listPets', 'DELETE /pets'] })).rejects.toThrow(
        new ImportSourceError(
          'select "DELETE /pets"',
          'matches no operation of the document: give an operationId or a method and path as the document writes it, such as "GET /pets/{petId}"',
        ),
      );
    });

    it('refuses an empty selection and a selector that is not a string', async () => {
      await expect(sut(document, { select: [] })).rejects.toBeInstanceOf(ImportSourceError);
      await expect(sut(document, { select: [42] as never })).rejects.toThrow(
        new ImportSourceError('select[0]', 'must be an operationId or `METHOD /path` string'),
      );
    });
  });

  describe('select before $ref expansion', () => {
    const body = (ref: string) => ({ requestBody: { content: { 'application/json': { schema: { $ref: ref } } } } });
    /** 40 schemas that each point twice at the next: expanded, 2^40 values. */
    const exponential: Record<string, unknown> = { S40: { type: 'string' } };
    for (let level = 0; level < 40; level++) {
      const next = { $ref: `#/components/schemas/S${level + 1}` };
      exponential[`S${level}`] = { type: 'object', properties: { a: next, b: next } };
    }
    const document = aDocument({
      paths: {
        '/pets': { post: anOperation({ operationId: 'addPet', parameters: [], ...body('#/components/schemas/Pet') }) },
        '/broken': { post: anOperation({ operationId: 'broken', parameters: [], ...body('#/components/schemas/Missing') }) },
        '/huge': { post: anOperation({ operationId: 'huge', parameters: [], ...body('#/components/schemas/S0') }) },
      },
      components: {
        schemas: {
          Pet: { type: 'object', properties: { name: { type: 'string' }, owner: { $ref: '#/components/schemas/Owner' } } },
          Owner: { type: 'object', properties: { email: { type: 'string' } } },
          // Invalid, and used by no selected operation.
          Unused: { type: 'not-a-type' },
          ...exponential,
        },
      },
    });

    it('expands only what the selected operations use: a broken $ref, an invalid schema and an exponential one elsewhere do not matter', async () => {
      const draft = await sut(JSON.stringify(document), { select: ['addPet'] });

      expect(draft.connectors.map(({ where }) => where)).toEqual(['operation POST /pets']);
      // Pet's $ref to Owner, followed from the selected part.
      expect(JSON.parse(draft.connectors[0].body)).toEqual({ name: '', owner: { email: '' } });
    });

    it('still reads the whole document without select, and a selected operation that uses the broken part', async () => {
      await expect(sut(JSON.stringify(document), {})).rejects.toBeInstanceOf(ImportSourceError);
      await expect(sut(JSON.stringify(document), { select: ['addPet', 'broken'] })).rejects.toThrow(/Missing/);
      await expect(sut(JSON.stringify(document), { select: ['huge'] })).rejects.toThrow(/expands to more than 4000000 values/);
    });

    it('follows $refs of path items, path-level parameters and Swagger 2.0 definitions from the selection', async () => {
      const swagger = {
        swagger: '2.0',
        info: { title: 'Pets', version: '1' },
        host: 'api.example.com',
        schemes: ['https'],
        parameters: { Id: { name: 'id', in: 'path', required: true, type: 'string' } },
        definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } }, Unused: { $ref: '#/definitions/Nowhere' } },
        paths: {
          '/pets/{id}': {
            parameters: [{ $ref: '#/parameters/Id' }],
            put: {
              operationId: 'putPet',
              parameters: [{ name: 'pet', in: 'body', schema: { $ref: '#/definitions/Pet' } }],
              responses: { 200: { description: 'ok' } },
            },
            delete: { operationId: 'deletePet', responses: { 200: { description: 'ok' } } },
          },
          '/shared': { $ref: '#/x-path-items/shared' },
        },
        'x-path-items': { shared: { get: { operationId: 'shared', responses: { 200: { description: 'ok' } } } } },
      };

      const draft = await sut(JSON.stringify(swagger), { select: ['putPet'] });

      expect(draft.connectors).toEqual([expect.objectContaining({ url: 'https://api.example.com/pets/{{id}}', body: JSON.stringify({ name: '' }, null, 2) })]);
    });
  });

  describe('server URL', () => {
    it("makes declared server variables the environment's, their defaults offered to fill it; a port's is written in", async () => {
      const servers = [
        {
          url: 'https://{region}.example.com:{port}/{base}',
          variables: { region: { default: 'eu', enum: ['eu', 'us'] }, port: { default: '8443' }, base: { default: 'v2' } },
        },
      ];

      const draft = await importOpenApi(JSON.stringify(aDocument({ servers })), {});

      expect(draft.connectors[0].url).toBe('https://{{env.region}}.example.com:8443/{{env.base}}/pets/{{petId}}');
      expect(draft.environmentDefaults).toEqual([
        { name: 'region', value: 'eu', where: WHERE },
        { name: 'base', value: 'v2', where: WHERE },
      ]);
    });

    it('writes server variables in with their defaults when a secret goes to the server, as before', async () => {
      const servers = [{ url: 'https://{region}.example.com/{base}', variables: { region: { default: 'eu' }, base: { default: 'v2' } } }];
      const security = { components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } }, security: [{ token: [] }] };

      const draft = await importOpenApi(JSON.stringify(aDocument({ servers, ...security })), {});

      expect(draft.connectors[0].url).toBe('https://eu.example.com/v2/pets/{{petId}}');
      expect(draft.environmentDefaults).toBeUndefined();
      expect(draft.warnings.map(({ code }) => code)).toContain('SERVER_VARIABLES_WRITTEN_IN');
    });

    it("takes the operation's servers over its path's, and its path's over the document's", async () => {
      const operation = { responses: { '200': { description: 'ok' } } };
      const paths = {
        '/a': { servers: [{ url: 'https://path.example.com' }], get: operation, put: { ...operation, servers: [{ url: 'https://operation.example.com/' }] } },
        '/b': { get: operation },
      };

      const draft = await sut(JSON.stringify(aDocument({ paths })), {});

      expect(draft.connectors.map((connector) => connector.url)).toEqual([
        'https://path.example.com/a',
        'https://operation.example.com/a',
        'https://api.example.com/v1/b',
      ]);
    });

    it('uses the first of several servers, and says which others there are', async () => {
      const { connector, warnings } = await importOne(aDocument({ servers: [{ url: 'https://a.example.com' }, { url: 'https://b.example.com' }] }));

      expect(connector.url).toBe('https://a.example.com/pets/{{petId}}');
      expect(warnings).toEqual([
        { code: 'OTHER_SERVERS', where: 'document', message: 'several servers are named: the connector uses the first; also named: https://b.example.com' },
      ]);
    });

    it('makes the user and password of the server URL basic auth, never part of the URL or a warning', async () => {
      const servers = [{ url: 'https://ada:p%40ss@api.example.com/v1' }, { url: '//bob:other-secret@b.example.com' }];

      const { connector, warnings } = await importOne(aDocument({ servers }));

      expect(connector).toMatchObject({
        url: 'https://api.example.com/v1/pets/{{petId}}',
        authType: AuthType.AUTH_BASIC,
        credentials: [{ field: 'basicToken', value: Buffer.from('ada:p@ss').toString('base64'), where: 'server URL user info' }],
      });
      expect(warnings).toEqual([
        { code: 'OTHER_SERVERS', where: 'document', message: 'several servers are named: the connector uses the first; also named: //b.example.com' },
        { code: 'SERVER_USERINFO', where: WHERE, message: 'the user info in the server URL became basic auth settings: kept as a secret, not in the URL' },
      ]);
    });

    it('asks for the password alone of a server URL whose user info has none', async () => {
      const { connector } = await importOne(aDocument({ servers: [{ url: 'https://ada@api.example.com/v1' }] }));

      expect(connector).toMatchObject({
        authType: AuthType.AUTH_BASIC,
        credentials: [
          { field: 'basicUsername', value: 'ada', where: 'server URL user info' },
          { field: 'basicPassword', where: 'server URL user info' },
        ],
      });
    });

    it("leaves an OAuth 2.0 token URL's user info out of oauthUrl, and says so without quoting it", async () => {
      const oauth = {
        components: {
          securitySchemes: { machine: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://app:s3cret@auth.example.com/token', scopes: {} } } } },
        },
        security: [{ machine: [] }],
      };

      const { connector, warnings } = await importOne(aDocument({ servers: [{ url: 'https://api.example.com' }], ...oauth }));

      expect(connector).toMatchObject({ authType: AuthType.AUTH_OAUTH2, oauthUrl: 'https://auth.example.com/token' });
      expect(JSON.stringify({ connector, warnings })).not.toContain('s3cret');
      expect(warnings.map(({ code }) => code)).toEqual(['TOKEN_URL_USERINFO']);
    });

    it("leaves the server URL's user info out when a security scheme authenticates the call", async () => {
      const security = { components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } }, security: [{ bearer: [] }] };

      const { connector, warnings } = await importOne(aDocument({ servers: [{ url: 'https://ada:secret@api.example.com' }], ...security }));

      expect(connector).toMatchObject({ url: 'https://api.example.com/pets/{{petId}}', authType: AuthType.AUTH_BEARER });
      expect(JSON.stringify({ connector, warnings })).not.toContain('secret');
      expect(warnings).toEqual([
        {
          code: 'SERVER_USERINFO',
          where: WHERE,
          message: 'the user info in the server URL is left out: the security scheme (AUTH_BEARER) authenticates the call',
        },
      ]);
    });

    it('starts the URL with https://{{apiHost}} when the server is relative or missing', async () => {
      const { connector, warnings } = await importOne(aDocument({ servers: [{ url: '/api/v3' }] }));
      const { connector: withoutServers } = await importOne(aDocument({ servers: undefined }));

      expect(connector.url).toBe('https://{{apiHost}}/api/v3/pets/{{petId}}');
      expect(withoutServers.url).toBe('https://{{apiHost}}/pets/{{petId}}');
      expect(warnings).toEqual([
        {
          code: 'RELATIVE_SERVER_URL',
          where: WHERE,
          message:
            'the server URL /api/v3 is relative: the URL starts with https://{{apiHost}} (set the variable when testing, or write the host into the URL)',
        },
      ]);
    });

    it('leaves the auth out when the host is a variable, which a connector with auth may not have', async () => {
      const security = { components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } }, security: [{ bearer: [] }] };

      const { connector, warnings } = await importOne(aDocument({ servers: [{ url: '/v1' }], ...security }));

      expect(connector.authType).toBe(AuthType.AUTH_NONE);
      expect(connector.credentials).toEqual([]);
      expect(warnings.map((found) => found.code)).toEqual(['RELATIVE_SERVER_URL', 'AUTH_NEEDS_ABSOLUTE_SERVER']);
    });

    it('refuses a server that is not http(s)', async () => {
      await expect(importOne(aDocument({ servers: [{ url: 'wss://stream.example.com' }] }))).rejects.toThrow(
        new ImportSourceError(WHERE, 'has the server URL wss://stream.example.com, which is not http or https: a connector calls http(s) URLs only'),
      );
    });
  });

  describe('parameters', () => {
    it('makes required query parameters {{variables}} and leaves optional ones out, naming them', async () => {
      const parameters = [
        PET_ID,
        { name: 'fields', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'limit', in: 'query', schema: { type: 'integer' } },
        { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
      ];

      const { connector, warnings } = await importOne(aDocumentWith({ parameters }));

      expect(connector.url).toBe('https://api.example.com/v1/pets/{{petId}}?fields={{fields}}');
      expect(warnings).toEqual([
        {
          code: 'OPTIONAL_PARAMETERS_LEFT_OUT',
          where: WHERE,
          message: 'optional parameters left out (add them to the URL or headers if needed): limit (query), X-Trace (header)',
        },
      ]);
    });

    it('sends a parameter whose schema allows one value with that value', async () => {
      const parameters = [
        PET_ID,
        { name: 'format', in: 'query', required: true, schema: { type: 'string', enum: ['json & more'] } },
        { name: 'X-Version', in: 'header', required: true, schema: { const: 2 } },
      ];

      const { connector } = await importOne(aDocumentWith({ parameters }));

      expect(connector.url).toBe('https://api.example.com/v1/pets/{{petId}}?format=json%20%26%20more');
      expect(connector.headers).toEqual([{ header: 'X-Version', value: '2' }]);
    });

    it('makes required header parameters headers with a {{variable}}, leaving out cookies and the headers the connector sets otherwise', async () => {
      const parameters = [
        PET_ID,
        { name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'Authorization', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'Content-Length', in: 'header', required: true, schema: { type: 'integer' } },
        { name: 'X-Forwarded-Host', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'X-Original-URL', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'session', in: 'cookie', required: true, schema: { type: 'string' } },
      ];

      const { connector, warnings } = await importOne(aDocumentWith({ parameters }));

      expect(connector.headers).toEqual([{ header: 'X-Request-Id', value: '{{X-Request-Id}}' }]);
      expect(warnings).toEqual([
        {
          code: 'HEADER_PARAMETER_IGNORED',
          where: WHERE,
          message: "the header parameter Authorization is left out: the connector's auth settings set Authorization",
        },
        { code: 'HEADER_PARAMETER_IGNORED', where: WHERE, message: 'the header parameter Content-Length is left out: the HTTP client sets it itself' },
        {
          code: 'HEADER_PARAMETER_IGNORED',
          where: WHERE,
          message:
            'the header parameter X-Forwarded-Host is left out: front ends route a call by it (its host, path, scheme or port): write it into the connector if the API needs it',
        },
        {
          code: 'HEADER_PARAMETER_IGNORED',
          where: WHERE,
          message:
            'the header parameter X-Original-URL is left out: front ends route a call by it (its host, path, scheme or port): write it into the connector if the API needs it',
        },
        { code: 'COOKIE_PARAMETER', where: WHERE, message: 'the cookie parameter session is left out: connectors send no cookies' },
      ]);
    });

    it('renames a parameter whose name is no variable name', async () => {
      const parameters = [PET_ID, { name: 'page[size]', in: 'query', required: true, schema: { type: 'integer' } }];

      const { connector, warnings } = await importOne(aDocumentWith({ parameters }));

      expect(connector.url).toBe('https://api.example.com/v1/pets/{{petId}}?page[size]={{page_size_}}');
      expect(warnings).toEqual([
        {
          code: 'VARIABLE_RENAMED',
          where: WHERE,
          message: 'the parameter page[size] is the variable {{page_size_}}: a variable name is letters, digits, _ . -',
        },
      ]);
    });

    it("takes an operation's parameter over its path's of the same name", async () => {
      const document = aDocument({
        paths: {
          '/pets': {
            parameters: [{ name: 'kind', in: 'query', required: true, schema: { type: 'string' } }],
            get: { parameters: [{ name: 'kind', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
          },
        },
      });

      const { connector, warnings } = await importOne(document);

      expect(connector.url).toBe('https://api.example.com/v1/pets');
      expect(warnings.map((found) => found.message)).toEqual(['optional parameters left out (add them to the URL or headers if needed): kind (query)']);
    });
  });

  describe('request body', () => {
    const body = (content: Record<string, unknown>) => aDocumentWith({ requestBody: { content } });

    it('takes the example of the first media type a connector supports, matched without its parameters', async () => {
      const { connector, warnings } = await importOne(
        body({
          'application/octet-stream': {},
          'application/vnd.api+json; charset=utf-8': { example: { name: 'Rex', 'ü "q"': 'x\ny' } },
          'application/xml': {},
        }),
      );

      expect(connector.contentType).toBe(ContentType.APPLICATION_JSON);
      expect(connector.body).toBe('{\n  "name": "Rex",\n  "ü \\"q\\"": "x\\ny"\n}');
      expect(warnings).toEqual([
        {
          code: 'OTHER_MEDIA_TYPES',
          where: WHERE,
          message: 'the body is sent as application/vnd.api+json; charset=utf-8; the API also takes application/octet-stream, application/xml',
        },
      ]);
    });

    it('takes the first of `examples`, then the schema example, and a string example as the body text itself', async () => {
      const { connector: fromExamples } = await importOne(body({ 'application/json': { examples: { one: { value: { a: 1 } }, two: { value: { a: 2 } } } } }));
      const { connector: fromSchema } = await importOne(body({ 'text/xml': { schema: { type: 'string', example: '<pet/>' } } }));
      const { connector: asText } = await importOne(body({ 'application/json': { example: '{"qty": {{qty}}}' } }));

      expect([fromExamples.body, fromSchema.contentType, fromSchema.body, asText.body]).toEqual([
        '{\n  "a": 1\n}',
        ContentType.APPLICATION_XML,
        '<pet/>',
        '{"qty": {{qty}}}',
      ]);
    });

    it('writes a skeleton of the schema when there is no example, stopping where a schema recurs', async () => {
      const node = {
        type: 'object',
        properties: { name: { type: 'string' }, size: { type: 'integer', default: 3 }, tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
      };
      const schemas = {
        Node: {
          ...node,
          properties: { ...node.properties, parent: { $ref: '#/components/schemas/Node' }, kind: { oneOf: [{ type: 'boolean' }, { type: 'string' }] } },
        },
      };
      const document = aDocumentWith(
        { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } },
        { components: { schemas } },
      );

      const { connector, warnings } = await importOne(document);

      expect(JSON.parse(connector.body)).toEqual({ name: '', size: 3, tags: ['a'], parent: null, kind: false });
      expect(warnings).toEqual([
        { code: 'BODY_GENERATED', where: WHERE, message: 'the document gives no example of the body: it is a skeleton made from the schema, to be filled in' },
      ]);
    });

    it('leaves readOnly properties out of a skeleton: the API makes them, a request does not send them', async () => {
      const schema = {
        type: 'object',
        properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, secret: { type: 'string', writeOnly: true } },
      };

      const { connector } = await importOne(body({ 'application/json': { schema } }));

      expect(JSON.parse(connector.body)).toEqual({ name: '', secret: '' });
    });

    it('writes a form body from an object example, url-encoded', async () => {
      const { connector } = await importOne(body({ 'application/x-www-form-urlencoded': { example: { name: 'Rex & co', age: 3, tags: ['a'] } } }));

      expect([connector.contentType, connector.body]).toEqual([ContentType.APPLICATION_FORM_URLENCODED, 'name=Rex+%26+co&age=3&tags=%5B%22a%22%5D']);
    });

    it('keeps any other media type as TEXT_PLAIN with its Content-Type, and leaves a multipart body without example empty', async () => {
      const { connector: binary, warnings: binaryWarnings } = await importOne(body({ 'image/png': { schema: { type: 'string', format: 'binary' } } }));
      const { connector: multipart, warnings: multipartWarnings } = await importOne(body({ 'multipart/form-data': { schema: { type: 'object' } } }));
      const { connector: mixed, warnings: mixedWarnings } = await importOne(body({ 'multipart/mixed': { example: 'x' } }));

      expect([binary.contentType, binary.headers, multipart.contentType, multipart.headers, multipart.body]).toEqual([
        ContentType.TEXT_PLAIN,
        [{ header: 'Content-Type', value: 'image/png' }],
        ContentType.MULTIPART_FORM_DATA,
        [],
        '',
      ]);
      expect(binaryWarnings.map((found) => found.code)).toEqual(['BODY_GENERATED']);
      expect(multipartWarnings.map((found) => found.code)).toEqual(['BODY_LEFT_EMPTY']);
      expect([mixed.contentType, mixed.headers, mixedWarnings.map((found) => found.code)]).toEqual([ContentType.TEXT_PLAIN, [], ['UNSUPPORTED_MEDIA_TYPE']]);
    });

    it.each([
      ['application/merge-patch+json', ContentType.APPLICATION_JSON],
      ['application/json-patch+json', ContentType.APPLICATION_JSON],
      ['application/vnd.api+json', ContentType.APPLICATION_JSON],
      ['text/csv', ContentType.TEXT_PLAIN],
      ['application/soap+xml; charset=utf-8', ContentType.APPLICATION_XML],
    ])('imports a body declared as %s with its content type and the declared type as its Content-Type header', async (mediaType, contentType) => {
      const { connector, warnings } = await importOne(aDocumentWith({ requestBody: { content: { [mediaType]: { example: 'x' } } } }));

      expect(connector).toMatchObject({ contentType, body: 'x', headers: [{ header: 'Content-Type', value: mediaType }] });
      expect(warnings).toEqual([]);
    });

    it("keeps no header for a content type's own media type, and ignores a Content-Type header parameter", async () => {
      const { connector, warnings } = await importOne(
        aDocumentWith({
          parameters: [{ name: 'Content-Type', in: 'header', required: true, schema: { type: 'string', enum: ['text/plain'] } }],
          requestBody: { content: { 'application/json': { example: {} } } },
        }),
      );

      expect(connector).toMatchObject({ contentType: ContentType.APPLICATION_JSON, headers: [] });
      expect(warnings.map((found) => found.code)).toContain('HEADER_PARAMETER_IGNORED');
    });

    it('makes a multipart body of parts from the schema: its example values, binary fields as file parts, encoding content types', async () => {
      const form = {
        schema: {
          type: 'object',
          properties: {
            model: { type: 'string', enum: ['whisper-1'] },
            options: { type: 'object', properties: { lang: { type: 'string' } } },
            file: { type: 'string', format: 'binary' },
            images: { type: 'array', items: { type: 'string', format: 'binary' } },
          },
        },
        encoding: { file: { contentType: 'audio/mpeg, audio/wav' } },
      };
      const { connector, warnings } = await importOne(body({ 'multipart/form-data': form }));
      const { connector: withExample } = await importOne(body({ 'multipart/form-data': { ...form, example: { model: 'tiny', extra: 3 } } }));

      expect(connector.contentType).toBe(ContentType.MULTIPART_FORM_DATA);
      expect(JSON.parse(connector.body)).toEqual([
        { name: 'model', value: 'whisper-1' },
        { name: 'options', value: '{"lang":""}' },
        { name: 'file', value: '', filename: 'file', contentType: 'audio/mpeg' },
        { name: 'images', value: '', filename: 'images' },
      ]);
      expect(warnings).toEqual([
        {
          code: 'BODY_GENERATED',
          where: WHERE,
          message:
            "the document gives no example of the form: its parts are made from the schema's fields, to be filled in; " +
            'the file parts file, images have an empty value: write their content (value, or base64 for bytes)',
        },
      ]);
      expect(JSON.parse(withExample.body).slice(0, 3)).toEqual([
        { name: 'model', value: 'tiny' },
        { name: 'extra', value: '3' },
        { name: 'options', value: '{"lang":""}' },
      ]);
    });

    it('never fetches an externalValue example', async () => {
      const { connector, warnings } = await importOne(body({ 'text/plain': { examples: { remote: { externalValue: 'https://example.com/body.txt' } } } }));

      expect(connector.body).toBe('');
      expect(warnings.map((found) => found.code)).toEqual(['EXTERNAL_EXAMPLE', 'BODY_LEFT_EMPTY']);
    });

    it('leaves a body over 64 KiB empty', async () => {
      const { connector, warnings } = await importOne(body({ 'text/plain': { example: 'x'.repeat(70_000) } }));

      expect(connector.body).toBe('');
      expect(warnings).toEqual([
        { code: 'BODY_TOO_LARGE', where: WHERE, message: 'the example is 70000 characters, over the 65536 a connector body holds: the body is left empty' },
      ]);
    });
  });

  describe('security', () => {
    const securitySchemes = {
      basic: { type: 'http', scheme: 'Basic' },
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      digest: { type: 'http', scheme: 'digest' },
      headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'key' },
      hostKey: { type: 'apiKey', in: 'header', name: 'Host' },
      machine: {
        type: 'oauth2',
        flows: {
          implicit: { authorizationUrl: 'https://auth.example.com/a', scopes: {} },
          clientCredentials: { tokenUrl: '/oauth/token', scopes: { read: 'r' } },
        },
      },
      user: { type: 'oauth2', flows: { password: { tokenUrl: 'https://auth.example.com/token', scopes: {} } } },
      browser: {
        type: 'oauth2',
        flows: { authorizationCode: { authorizationUrl: 'https://auth.example.com/a', tokenUrl: 'https://auth.example.com/t', scopes: {} } },
      },
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.example.com/.well-known/openid-configuration' },
    };
    const secured = (security: unknown, root: Record<string, unknown> = {}) => aDocumentWith({ security }, { components: { securitySchemes }, ...root });

    it.each([
      [
        'basic',
        {
          authType: AuthType.AUTH_BASIC,
          credentials: [
            { field: 'basicUsername', where: 'security scheme basic' },
            { field: 'basicPassword', where: 'security scheme basic' },
          ],
        },
      ],
      ['bearer', { authType: AuthType.AUTH_BEARER, credentials: [{ field: 'bearerToken', where: 'security scheme bearer' }] }],
      [
        'headerKey',
        {
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'X-API-Key',
          apiKeyIn: ApiKeyIn.HEADER,
          credentials: [{ field: 'apiKey', where: 'security scheme headerKey' }],
        },
      ],
      [
        'queryKey',
        {
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'api_key',
          apiKeyIn: ApiKeyIn.QUERY,
          credentials: [{ field: 'apiKey', where: 'security scheme queryKey' }],
        },
      ],
      [
        'user',
        {
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.PASSWORD,
          oauthUrl: 'https://auth.example.com/token',
          credentials: ['clientId', 'authUsername', 'authPassword'].map((field) => ({ field, where: 'security scheme user' })),
        },
      ],
    ])('maps the scheme %s to the auth settings, asking for its credentials', async (scheme, auth) => {
      const { connector, warnings } = await importOne(secured([{ [scheme]: [] }]));

      expect(connector).toMatchObject({ grantType: null, oauthUrl: null, apiKeyName: null, apiKeyIn: null, ...auth });
      expect(warnings).toEqual([]);
    });

    it('maps client credentials, with a token URL relative to the server, and says that scopes are not sent', async () => {
      const { connector, warnings } = await importOne(secured([{ machine: ['read'] }]));

      expect(connector).toMatchObject({
        authType: AuthType.AUTH_OAUTH2,
        grantType: GrantType.CLIENT_CREDENTIALS,
        oauthUrl: 'https://api.example.com/oauth/token',
      });
      expect(connector.credentials).toEqual([
        { field: 'clientId', where: 'security scheme machine' },
        { field: 'clientSecret', where: 'security scheme machine' },
      ]);
      expect(warnings).toEqual([
        { code: 'OAUTH2_SCOPES_NOT_SENT', where: WHERE, message: "the scopes read of machine are not asked for: a connector's token request sends no scope" },
      ]);
    });

    it('imports schemes a connector cannot use as no auth, saying why', async () => {
      const { connector, warnings } = await importOne(
        secured([{ digest: [] }, { cookieKey: [] }, { hostKey: [] }, { browser: [] }, { oidc: [] }, { nowhere: [] }]),
      );

      expect(connector.authType).toBe(AuthType.AUTH_NONE);
      expect(warnings.map((found) => found.message)).toEqual([
        'digest: a connector cannot use HTTP digest authentication (basic and bearer only); the connector is imported without it',
        'cookieKey: a connector sends an API key in a header or the query, not in cookie; the connector is imported without it',
        'hostKey: its name Host cannot be Host: that header names the host the call is meant for; the connector is imported without it',
        'browser: a connector gets OAuth 2.0 tokens by client credentials or password, not by authorizationCode; the connector is imported without it',
        'oidc: a connector cannot use openIdConnect security; the connector is imported without it',
        'nowhere: no such security scheme is declared; the connector is imported without it',
      ]);
    });

    it('takes the first alternative a connector supports, and of several schemes required together one as the auth settings, a second as a secret header', async () => {
      const { connector, warnings } = await importOne(secured([{ digest: [] }, { headerKey: [], bearer: [] }, {}]));

      expect(connector.authType).toBe(AuthType.AUTH_API_KEY);
      expect(connector.headers).toEqual([{ header: 'Authorization', value: '', secret: true, where: 'security scheme bearer' }]);
      expect(warnings).toEqual([
        { code: 'SECURITY_ALTERNATIVES', where: WHERE, message: 'the API accepts digest or headerKey and bearer or none: the connector uses headerKey' },
        {
          code: 'SECURITY_SCHEMES_COMBINED',
          where: WHERE,
          message: 'the API wants headerKey and bearer together: the connector carries headerKey, and bearer as a secret header',
        },
      ]);
    });

    it('makes an API key in a header required with bearer auth a secret header, its header parameter with it', async () => {
      const document = secured([{ bearer: [], headerKey: [] }]);
      const { connector } = await importOne(document);

      expect(connector).toMatchObject({ authType: AuthType.AUTH_BEARER, credentials: [{ field: 'bearerToken' }] });
      expect(connector.headers.filter(({ secret }) => secret)).toEqual([
        expect.objectContaining({ secret: true, value: '', where: 'security scheme headerKey' }),
      ]);
    });

    it("takes the operation's security over the document's, `[]` being no auth", async () => {
      const { connector } = await importOne(secured([], { security: [{ bearer: [] }] }));
      const { connector: inherited } = await importOne(secured(undefined, { security: [{ bearer: [] }] }));

      expect([connector.authType, inherited.authType]).toEqual([AuthType.AUTH_NONE, AuthType.AUTH_BEARER]);
    });

    it('does not send an API key parameter the document also declares: the auth settings send it', async () => {
      const parameters = [PET_ID, { name: 'x-api-key', in: 'header', required: true, schema: { type: 'string' } }];

      const { connector } = await importOne(aDocumentWith({ parameters, security: [{ headerKey: [] }] }, { components: { securitySchemes } }));

      expect(connector.headers).toEqual([]);
    });
  });

  describe('Swagger 2.0', () => {
    const swagger = (overrides: Record<string, unknown>) => ({
      swagger: '2.0',
      info: { title: 'Pets', version: '1' },
      host: 'pets.example.com',
      basePath: '/v2',
      schemes: ['http', 'https'],
      ...overrides,
    });

    it('builds the URL from https (when offered), host and basePath, and the body from the body parameter', async () => {
      const post = {
        operationId: 'addPet',
        consumes: ['application/json'],
        parameters: [{ name: 'pet', in: 'body', required: true, schema: { type: 'object', properties: { name: { type: 'string', example: 'Rex' } } } }],
        security: [{ key: [] }],
        responses: { '200': { description: 'ok' } },
      };
      const document = swagger({ paths: { '/pets': { post } }, securityDefinitions: { key: { type: 'apiKey', in: 'header', name: 'api_key' } } });

      const { connector, warnings } = await importOne(document);

      expect(connector).toMatchObject({
        url: 'https://pets.example.com/v2/pets',
        contentType: ContentType.APPLICATION_JSON,
        body: '{\n  "name": "Rex"\n}',
        authType: AuthType.AUTH_API_KEY,
      });
      expect(warnings).toEqual([
        {
          code: 'OTHER_SERVERS',
          where: 'document',
          message: 'several servers are named: the connector uses the first; also named: http://pets.example.com/v2',
        },
        {
          code: 'BODY_GENERATED',
          where: 'operation POST /pets',
          message: 'the document gives no example of the body: it is a skeleton made from the schema, to be filled in',
        },
      ]);
    });

    it('makes formData parameters a form body, and maps basic and the application flow', async () => {
      const form = [
        { name: 'name', in: 'formData', type: 'string', required: true },
        { name: 'age', in: 'formData', type: 'integer' },
      ];
      const paths = {
        '/a': { post: { parameters: form, security: [{ basic: [] }], responses: { '200': { description: 'ok' } } } },
        '/b': { get: { security: [{ app: [] }], responses: { '200': { description: 'ok' } } } },
      };
      const securityDefinitions = {
        basic: { type: 'basic' },
        app: { type: 'oauth2', flow: 'application', tokenUrl: 'https://auth.example.com/token', scopes: {} },
      };

      const draft = await sut(JSON.stringify(swagger({ schemes: ['https'], paths, securityDefinitions })), {});

      expect(draft.connectors.map(({ contentType, body, authType, grantType, oauthUrl }) => ({ contentType, body, authType, grantType, oauthUrl }))).toEqual([
        { contentType: ContentType.APPLICATION_FORM_URLENCODED, body: 'name=&age=0', authType: AuthType.AUTH_BASIC, grantType: null, oauthUrl: null },
        {
          contentType: ContentType.NONE,
          body: '',
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.CLIENT_CREDENTIALS,
          oauthUrl: 'https://auth.example.com/token',
        },
      ]);
    });

    it('assumes https when the document names no scheme', async () => {
      const { connector, warnings } = await importOne(
        swagger({ schemes: undefined, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } }),
      );

      expect(connector.url).toBe('https://pets.example.com/v2/a');
      expect(warnings).toEqual([
        { code: 'SERVER_SCHEME_ASSUMED', where: 'document', message: 'the document names no `schemes`: https://pets.example.com is assumed' },
      ]);
    });
  });

  describe('documents that cannot be imported', () => {
    it('names the line of a YAML or JSON syntax error', async () => {
      await expect(sut('openapi: 3.1.0\ninfo: [unclosed\n', {})).rejects.toThrow(/^source line \d: is not valid YAML or JSON: /);
      await expect(sut('{\n  "openapi": "3.1.0"\n  "info": {}\n}', {})).rejects.toThrow(/^source line 3: is not valid JSON: /);
    });

    it.each([
      ['at the start', '{"a": x,\n"b": 1, "c": 2, "d": 3}', 'line 1'],
      ['in the middle', '{"a": 1,\n"b": 2,\n"c": x, "d": 3, "e": 4, "f": 5}', 'line 3'],
      ['at the end', '{"a": 1, "b": 2, "c": 3,\n"d": x}', 'line 2'],
      ['where its quote occurs twice', '{"a": [1, 1, 1, 1, x, 2, 2, 2, 2],\n"b": [1, 1, 1, 1, x, 2, 2, 2, 2]}', 'document'],
    ])('names the line of an unexpected JSON token %s, from the quote V8 gives', async (_place, source, where) => {
      await expect(sut(source, {})).rejects.toThrow(new RegExp(`^source ${where}: is not valid JSON: Unexpected token 'x'`));
    });

    it('refuses a YAML key given twice in one mapping, naming the line of the second', async () => {
      await expect(sut('openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\ninfo: {}', {})).rejects.toThrow(
        new ImportSourceError('line 4', 'has the key "info" twice in one mapping: keep one'),
      );
    });

    it('refuses a document that is not OpenAPI 3.0, 3.1 or Swagger 2.0', async () => {
      await expect(sut('{"openapi": "3.2.0"}', {})).rejects.toThrow(
        new ImportSourceError(
          'document',
          'has openapi: 3.2.0: OpenAPI 3.0, 3.1 (`openapi: 3.1.0`) and Swagger 2.0 (`swagger: "2.0"`) documents can be imported',
        ),
      );
      await expect(sut('- a list', {})).rejects.toThrow(
        new ImportSourceError('document', 'is not an OpenAPI document: expected an object with `openapi: 3.x` or `swagger: "2.0"`'),
      );
      await expect(sut('  ', {})).rejects.toThrow(new ImportSourceError('document', 'is empty: paste the OpenAPI document (JSON or YAML)'));
    });

    it('says what the validator finds wrong, what its frame points at, and where in the document', async () => {
      const document = aDocument({ info: { title: 'Pets' }, servers: [{ urll: 'https://api.example.com' }] });

      await expect(sut(JSON.stringify(document), {})).rejects.toThrow(
        new ImportSourceError(
          'document',
          "is not a valid OpenAPI document: REQUIRED must have required property 'version' (version is missing here!) at /info; " +
            "REQUIRED must have required property 'url' (url is missing here!) at /servers/0",
        ),
      );
    });

    it('refuses a $ref to a part of the document that does not exist', async () => {
      const document = aDocumentWith({ requestBody: { $ref: '#/components/requestBodies/Missing' } });

      await expect(sut(JSON.stringify(document), {})).rejects.toThrow(
        /^source document: cannot be read: Missing \$ref pointer "#\/components\/requestBodies\/Missing"/,
      );
    });

    it('reports what the validator tolerates as warnings', async () => {
      const document = aDocument({ paths: { '/pets/{petId}': { get: anOperation({ parameters: [] }) } } });

      const draft = await sut(JSON.stringify(document), {});

      expect(draft.connectors).toHaveLength(1);
      expect(draft.warnings.map((found) => found.code)).toEqual(['DOCUMENT_WARNING']);
    });

    it('reports at most 20 of them, and how many more there are', async () => {
      const paths = Object.fromEntries(
        Array.from({ length: 25 }, (_, index) => [`/pets${index}/{petId}`, { get: anOperation({ operationId: `get${index}`, parameters: [] }) }]),
      );

      const draft = await sut(JSON.stringify(aDocument({ paths })), {});

      expect(draft.warnings).toHaveLength(21);
      expect(draft.warnings[20]).toEqual({ code: 'DOCUMENT_WARNING', where: 'document', message: 'and 5 more findings of the same kind' });
    });
  });
});

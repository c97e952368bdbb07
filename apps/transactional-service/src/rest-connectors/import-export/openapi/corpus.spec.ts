import { isHttpUrlWithPlaceholders } from '@app/domain';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConnectorDraft, ImportDraft } from '../connector-draft';
import { importOpenApi } from './import-openapi';

/** Documents nobody here wrote (test/fixtures/import/openapi/README.md says where each comes from). */
const CORPUS = resolve(__dirname, '../../../../../../test/fixtures/import/openapi');

function importFixture(path: string): Promise<ImportDraft> {
  return importOpenApi(readFileSync(resolve(CORPUS, path), 'utf8'), {});
}

const NO_AUTH = { authType: 'AUTH_NONE', grantType: null, oauthUrl: null, apiKeyName: null, apiKeyIn: null, credentials: [] };

function pick(connectors: ConnectorDraft[], ...fields: Array<keyof ConnectorDraft>): unknown[][] {
  return connectors.map((connector) => fields.map((field) => connector[field]));
}

describe('importOpenApi over the corpus', () => {
  it('Swagger 2.0 petstore (YAML): 20 connectors, the implicit OAuth flow left out', async () => {
    const draft = await importFixture('readme-oas-examples/swagger-2.0-petstore.yaml');

    expect(pick(draft.connectors, 'name', 'requestType', 'url', 'authType', 'contentType')).toEqual([
      ['updatePet', 'PUT', 'http://petstore.swagger.io/v2/pet', 'AUTH_NONE', 'APPLICATION_JSON'],
      ['addPet', 'POST', 'http://petstore.swagger.io/v2/pet', 'AUTH_NONE', 'APPLICATION_JSON'],
      ['findPetsByStatus', 'GET', 'http://petstore.swagger.io/v2/pet/findByStatus?status={{status}}', 'AUTH_NONE', 'NONE'],
      ['findPetsByTags', 'GET', 'http://petstore.swagger.io/v2/pet/findByTags?tags={{tags}}', 'AUTH_NONE', 'NONE'],
      ['getPetById', 'GET', 'http://petstore.swagger.io/v2/pet/{{petId}}', 'AUTH_API_KEY', 'NONE'],
      ['updatePetWithForm', 'POST', 'http://petstore.swagger.io/v2/pet/{{petId}}', 'AUTH_NONE', 'APPLICATION_FORM_URLENCODED'],
      ['deletePet', 'DELETE', 'http://petstore.swagger.io/v2/pet/{{petId}}', 'AUTH_NONE', 'NONE'],
      ['uploadFile', 'POST', 'http://petstore.swagger.io/v2/pet/{{petId}}/uploadImage', 'AUTH_NONE', 'MULTIPART_FORM_DATA'],
      ['getInventory', 'GET', 'http://petstore.swagger.io/v2/store/inventory', 'AUTH_API_KEY', 'NONE'],
      ['placeOrder', 'POST', 'http://petstore.swagger.io/v2/store/order', 'AUTH_NONE', 'APPLICATION_JSON'],
      ['getOrderById', 'GET', 'http://petstore.swagger.io/v2/store/order/{{orderId}}', 'AUTH_NONE', 'NONE'],
      ['deleteOrder', 'DELETE', 'http://petstore.swagger.io/v2/store/order/{{orderId}}', 'AUTH_NONE', 'NONE'],
      ['createUser', 'POST', 'http://petstore.swagger.io/v2/user', 'AUTH_NONE', 'APPLICATION_JSON'],
      ['createUsersWithArrayInput', 'POST', 'http://petstore.swagger.io/v2/user/createWithArray', 'AUTH_NONE', 'APPLICATION_JSON'],
      ['createUsersWithListInput', 'POST', 'http://petstore.swagger.io/v2/user/createWithList', 'AUTH_NONE', 'APPLICATION_JSON'],
      ['loginUser', 'GET', 'http://petstore.swagger.io/v2/user/login?username={{username}}&password={{password}}', 'AUTH_NONE', 'NONE'],
      ['logoutUser', 'GET', 'http://petstore.swagger.io/v2/user/logout', 'AUTH_NONE', 'NONE'],
      ['getUserByName', 'GET', 'http://petstore.swagger.io/v2/user/{{username}}', 'AUTH_NONE', 'NONE'],
      ['updateUser', 'PUT', 'http://petstore.swagger.io/v2/user/{{username}}', 'AUTH_NONE', 'APPLICATION_JSON'],
      ['deleteUser', 'DELETE', 'http://petstore.swagger.io/v2/user/{{username}}', 'AUTH_NONE', 'NONE'],
    ]);
    expect(draft.connectors[0]).toEqual({
      name: 'updatePet',
      description: 'Update an existing pet',
      requestType: 'PUT',
      url: 'http://petstore.swagger.io/v2/pet',
      tags: [{ name: 'pet' }],
      headers: [],
      contentType: 'APPLICATION_JSON',
      body: JSON.stringify(
        { id: 0, category: { id: 0, name: '' }, name: 'doggie', photoUrls: [''], tags: [{ id: 0, name: '' }], status: 'available' },
        null,
        2,
      ),
      ...NO_AUTH,
      output: '',
      where: 'operation PUT /pet',
    });
    expect(draft.connectors[4]).toMatchObject({
      apiKeyName: 'api_key',
      apiKeyIn: 'HEADER',
      credentials: [{ field: 'apiKey', where: 'security scheme api_key' }],
    });
    expect(draft.connectors[5].body).toBe('name=&status=');
    expect(draft.warnings).toEqual([
      {
        code: 'UNSUPPORTED_SECURITY_SCHEME',
        where: 'operation PUT /pet',
        message:
          'petstore_auth: a connector gets OAuth 2.0 tokens by client credentials or password, not by implicit; the connector is imported without it (and 6 other operation(s))',
      },
      {
        code: 'OTHER_MEDIA_TYPES',
        where: 'operation PUT /pet',
        message: 'the body is sent as application/json; the API also takes application/xml (and 1 other operation(s))',
      },
      {
        code: 'BODY_GENERATED',
        where: 'operation PUT /pet',
        message: 'the document gives no example of the body: it is a skeleton made from the schema, to be filled in (and 7 other operation(s))',
      },
      {
        code: 'OPTIONAL_PARAMETERS_LEFT_OUT',
        where: 'operation DELETE /pet/{petId}',
        message: 'optional parameters left out (add them to the URL or headers if needed): api_key (header)',
      },
      {
        code: 'BODY_GENERATED',
        where: 'operation POST /pet/{petId}/uploadImage',
        message:
          "the document gives no example of the form: its parts are made from the schema's fields, to be filled in; " +
          'the file parts file have an empty value: write their content (value, or base64 for bytes)',
      },
    ]);
    expect(JSON.parse(draft.connectors.find(({ name }) => name === 'uploadFile')!.body)).toEqual([
      { name: 'additionalMetadata', value: '' },
      { name: 'file', value: '', filename: 'file' },
    ]);
  });

  it('Swagger 2.0 with a recursive schema: the skeleton stops where it recurs', async () => {
    const draft = await importFixture('readme-oas-examples/swagger-2.0-schema-circular.json');

    expect(draft.connectors).toEqual([
      {
        name: 'POST /post',
        description: null,
        requestType: 'POST',
        url: 'http://httpbin.org/post',
        headers: [],
        contentType: 'APPLICATION_JSON',
        body: '{\n  "children": [\n    null\n  ]\n}',
        ...NO_AUTH,
        output: '',
        tags: [],
        where: 'operation POST /post',
      },
    ]);
    expect(draft.warnings.map((found) => found.code)).toEqual(['BODY_GENERATED']);
  });

  it('OpenAPI 3.0 security schemes: each supported one as the auth settings, the others named', async () => {
    const draft = await importFixture('readme-oas-examples/openapi-3.0-security.json');

    expect(pick(draft.connectors, 'name', 'authType', 'grantType', 'oauthUrl', 'apiKeyName', 'apiKeyIn')).toEqual([
      ['Query parameter', 'AUTH_API_KEY', null, null, 'apiKey', 'QUERY'],
      ['Header', 'AUTH_API_KEY', null, null, 'X-API-KEY', 'HEADER'],
      ['Cookie', 'AUTH_NONE', null, null, null, null],
      ['Basic', 'AUTH_BASIC', null, null, null, null],
      ['Bearer (`jwt` format)', 'AUTH_BEARER', null, null, null, null],
      ['Bearer', 'AUTH_BEARER', null, null, null, null],
      ['General support (authorizationCode flow type)', 'AUTH_NONE', null, null, null, null],
      ['General support (clientCredentials flow type)', 'AUTH_OAUTH2', 'CLIENT_CREDENTIALS', 'http://alt.example.com/oauth/token', null, null],
      ['General support (all flow types)', 'AUTH_OAUTH2', 'CLIENT_CREDENTIALS', 'http://example.com/oauth/token', null, null],
      ['General support (password flow type)', 'AUTH_OAUTH2', 'PASSWORD', 'http://alt.example.com/oauth/token', null, null],
      ['General support (implicit flow type)', 'AUTH_NONE', null, null, null, null],
      ['General support', 'AUTH_NONE', null, null, null, null],
      ['No auth requirements', 'AUTH_NONE', null, null, null, null],
      ['Optional auth', 'AUTH_API_KEY', null, null, 'apiKey', 'QUERY'],
      ['Forced invalid authentication', 'AUTH_API_KEY', null, null, 'X-API-KEY', 'HEADER'],
    ]);
    expect(draft.connectors[9].credentials).toEqual(
      ['clientId', 'authUsername', 'authPassword'].map((field) => ({ field, where: 'security scheme oauth2_password' })),
    );
    expect(pick(draft.connectors, 'url')[3]).toEqual(['https://httpbin.org/anything/basic']);
    expect(draft.warnings.map(({ code, where }) => [code, where])).toEqual([
      ['UNSUPPORTED_SECURITY_SCHEME', 'operation POST /anything/apiKey'],
      ['UNSUPPORTED_SECURITY_SCHEME', 'operation GET /anything/oauth2'],
      ['OAUTH2_SCOPES_NOT_SENT', 'operation PUT /anything/oauth2'],
      ['OAUTH2_SCOPES_NOT_SENT', 'operation POST /anything/oauth2'],
      ['OAUTH2_SCOPES_NOT_SENT', 'operation DELETE /anything/oauth2'],
      ['UNSUPPORTED_SECURITY_SCHEME', 'operation PATCH /anything/oauth2'],
      ['UNSUPPORTED_SECURITY_SCHEME', 'operation POST /anything/openIdConnect'],
      ['SECURITY_ALTERNATIVES', 'operation GET /anything/optional-auth'],
    ]);
  });

  it('OpenAPI 3.0 with several security requirements: the first supported scheme, the rest named', async () => {
    const draft = await importFixture('readme-oas-examples/openapi-3.0-security-multiple.yaml');

    expect(pick(draft.connectors, 'url', 'authType', 'grantType')).toEqual([
      ['https://httpbin.org/anything/and', 'AUTH_API_KEY', null],
      ['https://httpbin.org/anything/or', 'AUTH_OAUTH2', 'CLIENT_CREDENTIALS'],
      ['https://httpbin.org/anything/and-or', 'AUTH_OAUTH2', 'CLIENT_CREDENTIALS'],
      ['https://httpbin.org/anything/many-and-or', 'AUTH_OAUTH2', 'CLIENT_CREDENTIALS'],
    ]);
    expect(draft.warnings).toEqual([
      {
        code: 'SECURITY_SCHEMES_COMBINED',
        where: 'operation POST /anything/and',
        message: 'the API wants apiKey_header and basic and oauth2 together: the connector carries apiKey_header, and basic as a secret header (not oauth2)',
      },
      { code: 'SECURITY_ALTERNATIVES', where: 'operation POST /anything/or', message: 'the API accepts oauth2 or apiKey_header: the connector uses oauth2' },
      {
        code: 'OAUTH2_SCOPES_NOT_SENT',
        where: 'operation POST /anything/or',
        message: "the scopes write:things of oauth2 are not asked for: a connector's token request sends no scope (and 1 other operation(s))",
      },
      {
        code: 'SECURITY_ALTERNATIVES',
        where: 'operation POST /anything/and-or',
        message: 'the API accepts oauth2 and apiKey_header or oauth2_alternate: the connector uses oauth2',
      },
      {
        code: 'SECURITY_SCHEMES_COMBINED',
        where: 'operation POST /anything/and-or',
        message: 'the API wants oauth2 and apiKey_header together: the connector carries oauth2, and apiKey_header as a secret header',
      },
      {
        code: 'SECURITY_ALTERNATIVES',
        where: 'operation POST /anything/many-and-or',
        message:
          'the API accepts oauth2 and basic or bearer and bearer_jwt or bearer_jwt or basic or basic and bearer or apiKey_cookie and apiKey_header and apiKey_query: the connector uses oauth2',
      },
      {
        code: 'SECURITY_SCHEMES_COMBINED',
        where: 'operation POST /anything/many-and-or',
        message: 'the API wants oauth2 and basic together: the connector carries only oauth2',
      },
    ]);
  });

  it('OpenAPI 3.0 server variables at document, path and operation level', async () => {
    const draft = await importFixture('readme-oas-examples/openapi-3.0-server-variables.yaml');

    expect(pick(draft.connectors, 'name', 'url')).toEqual([
      // Server variables are the environment's (a port's written in with its default); their defaults fill it.
      ['Global servers + variables', 'https://{{env.name}}.example.com:443/{{env.basePath}}/global'],
      ['Operation-level servers + variables', 'https://httpbin.com/anything/{{env.subpath}}/operation'],
      ['Path-common level operation servers', 'https://httpbin.com/anything/common/{{env.subpath}}/path'],
      ['Path-common level and operation-level operation servers', 'https://httpbin.com/anything/{{env.subpath}}/combo'],
    ]);
    expect(draft.environmentDefaults).toEqual([
      { name: 'name', value: 'demo', where: 'operation POST /global' },
      { name: 'basePath', value: 'v2', where: 'operation POST /global' },
      { name: 'subpath', value: 'demo', where: 'operation POST /operation' },
    ]);
    expect(draft.warnings.map(({ code, where }) => [code, where])).toEqual([
      ['OTHER_SERVERS', 'document'],
      ['OTHER_SERVERS', 'operation POST /operation'],
      ['OTHER_SERVERS', 'operation PUT /path'],
    ]);
  });

  it('OpenAPI 3.0 request examples: example, examples, $ref examples, stringified JSON, forms', async () => {
    const draft = await importFixture('readme-oas-examples/openapi-3.0-request-examples.json');
    const user = (id: number) => JSON.stringify({ id, email: 'test@example.com', name: 'Test user name' }, null, 2);

    expect(pick(draft.connectors, 'name', 'contentType', 'body', 'headers')).toEqual([
      ['Within `examples` (parameters)', 'NONE', '', []],
      ['Within `example`', 'APPLICATION_JSON', user(12343354), []],
      ['Within `examples` (mixed)', 'APPLICATION_JSON', user(1234), [{ header: 'param5', value: '{{param5}}' }]],
      ['`$ref` within `example`', 'APPLICATION_JSON', user(12343354), []],
      ['Within `examples` (body)', 'APPLICATION_JSON', user(1234), []],
      ['Within `example`', 'APPLICATION_JSON', user(12343354), []],
      ['Stringified JSON arrays in an `examples` value', 'APPLICATION_JSON', JSON.stringify([{ name: 'Fluffy', petType: 'Cat' }], null, 2), []],
      // A string example is the body as written, even where it is not JSON: the document says so.
      ['Primitive `example`', 'APPLICATION_JSON', 'column1,column2,column3,column4', []],
      ['Stringified JSON object in an `examples` value', 'APPLICATION_JSON', JSON.stringify({ name: 'Fluffy', petType: 'Cat' }, null, 2), []],
      ['Within `examples`', 'TEXT_PLAIN', 'OK', []],
      ['demoFormData', 'APPLICATION_FORM_URLENCODED', 'client_id=id123&client_secret=secret456&scope=789', []],
    ]);
    expect(draft.connectors[0].url).toBe('https://httpbin.org/anything/parameterExamples/{{param1}}/{{param2}}');
    expect(draft.warnings.map(({ code, where }) => [code, where])).toEqual([
      ['OPTIONAL_PARAMETERS_LEFT_OUT', 'operation PATCH /parameterExamples/{param1}/{param2}'],
      ['OTHER_MEDIA_TYPES', 'operation POST /requestBody-multi-media-types'],
    ]);
  });

  it('OpenAPI 3.0 recursive request bodies: four skeletons that end where their schema recurs', async () => {
    const draft = await importFixture('readme-oas-examples/openapi-3.0-circular-request-bodies.yaml');

    expect(pick(draft.connectors, 'name', 'url')).toEqual([
      ['directCircular', 'https://httpbin.org/direct'],
      ['indirectCircular', 'https://httpbin.org/indirect'],
      ['polymorphicCircular', 'https://httpbin.org/polymorphic'],
      ['multipleCircular', 'https://httpbin.org/multiple'],
    ]);
    expect(JSON.parse(draft.connectors[0].body)).toEqual({ id: '', name: '', parent: null, children: [null] });
    expect(draft.warnings).toEqual([
      {
        code: 'BODY_GENERATED',
        where: 'operation POST /direct',
        message: 'the document gives no example of the body: it is a skeleton made from the schema, to be filled in (and 3 other operation(s))',
      },
    ]);
  });

  it('OpenAPI 3.1 Train Travel API: 7 connectors, its authorization-code OAuth left out, its webhook named', async () => {
    const draft = await importFixture('readme-oas-examples/openapi-3.1-train-travel.yaml');

    expect(pick(draft.connectors, 'name', 'requestType', 'url')).toEqual([
      ['get-stations', 'GET', 'https://api.example.com/stations'],
      ['get-trips', 'GET', 'https://api.example.com/trips?origin={{origin}}&destination={{destination}}&date={{date}}'],
      ['get-bookings', 'GET', 'https://api.example.com/bookings'],
      ['create-booking', 'POST', 'https://api.example.com/bookings'],
      ['get-booking', 'GET', 'https://api.example.com/bookings/{{bookingId}}'],
      ['delete-booking', 'DELETE', 'https://api.example.com/bookings/{{bookingId}}'],
      ['create-booking-payment', 'POST', 'https://api.example.com/bookings/{{bookingId}}/payment'],
    ]);
    expect(draft.connectors[3]).toEqual({
      name: 'create-booking',
      description: 'Create a booking\n\nA booking is a temporary hold on a trip. It is not confirmed until the payment is processed.',
      requestType: 'POST',
      url: 'https://api.example.com/bookings',
      tags: [{ name: 'Bookings' }],
      headers: [],
      contentType: 'APPLICATION_JSON',
      // The Booking's `id` is readOnly: the API makes it, a request leaves it out.
      body: JSON.stringify(
        {
          trip_id: '4f4e4e1-c824-4d63-b37a-d8d698862f1d',
          passenger_name: 'John Doe',
          has_bicycle: false,
          has_dog: false,
        },
        null,
        2,
      ),
      ...NO_AUTH,
      output: '',
      where: 'operation POST /bookings',
    });
    expect(draft.warnings).toEqual([
      { code: 'WEBHOOKS_NOT_IMPORTED', where: 'document', message: '1 webhook(s) are calls the API makes, not connectors: left out' },
      {
        code: 'UNSUPPORTED_SECURITY_SCHEME',
        where: 'operation GET /stations',
        message:
          'OAuth2: a connector gets OAuth 2.0 tokens by client credentials or password, not by authorizationCode; the connector is imported without it (and 6 other operation(s))',
      },
      {
        code: 'OPTIONAL_PARAMETERS_LEFT_OUT',
        where: 'operation GET /trips',
        message: 'optional parameters left out (add them to the URL or headers if needed): bicycles (query), dogs (query)',
      },
      { code: 'OTHER_MEDIA_TYPES', where: 'operation POST /bookings', message: 'the body is sent as application/json; the API also takes application/xml' },
      {
        code: 'BODY_GENERATED',
        where: 'operation POST /bookings',
        message: 'the document gives no example of the body: it is a skeleton made from the schema, to be filled in',
      },
    ]);
  });

  it('OpenAPI 3.1 with webhooks only: no connector, one warning', async () => {
    const draft = await importFixture('readme-oas-examples/openapi-3.1-webhooks.yaml');

    expect(draft).toEqual({
      connectors: [],
      warnings: [{ code: 'WEBHOOKS_NOT_IMPORTED', where: 'document', message: '1 webhook(s) are calls the API makes, not connectors: left out' }],
    });
  });

  it("Figma's REST API (OpenAPI 3.1, 400 KB of YAML): 54 connectors with its personal access token as an API key", async () => {
    const draft = await importFixture('figma-rest-api-spec/openapi.yaml');

    expect(draft.connectors).toHaveLength(54);
    expect(draft.connectors[0]).toEqual({
      name: 'getFile',
      description: expect.stringMatching(/^Get file JSON\n\nReturns the document identified by `file_key` as a JSON object\./),
      requestType: 'GET',
      url: 'https://api.figma.com/v1/files/{{file_key}}',
      tags: [{ name: 'Files' }],
      headers: [],
      contentType: 'NONE',
      body: '',
      authType: 'AUTH_API_KEY',
      grantType: null,
      oauthUrl: null,
      apiKeyName: 'X-Figma-Token',
      apiKeyIn: 'HEADER',
      output: '',
      credentials: [{ field: 'apiKey', where: 'security scheme PersonalAccessToken' }],
      where: 'operation GET /v1/files/{file_key}',
    });
    expect(draft.connectors.find((connector) => connector.name === 'postComment')?.body).toBe(
      JSON.stringify({ message: '', comment_id: '', client_meta: { x: 0, y: 0 } }, null, 2),
    );
    expect(draft.connectors.find((connector) => connector.name === 'getOEmbed')?.url).toBe('https://api.figma.com/v1/oembed?url={{url}}');
    expect(draft.connectors.every((connector) => connector.authType === 'AUTH_API_KEY' && isHttpUrlWithPlaceholders(connector.url, 2048))).toBe(true);
    expect(draft.warnings[0]).toEqual({
      code: 'SECURITY_ALTERNATIVES',
      where: 'operation GET /v1/files/{file_key}',
      message: 'the API accepts PersonalAccessToken or PlanAccessToken or OAuth2: the connector uses PersonalAccessToken (and 39 other operation(s))',
    });
    expect(new Set(draft.warnings.map((found) => found.code))).toEqual(
      new Set(['SECURITY_ALTERNATIVES', 'OPTIONAL_PARAMETERS_LEFT_OUT', 'DESCRIPTION_SHORTENED', 'BODY_GENERATED', 'CALLBACKS_NOT_IMPORTED']),
    );
  });
});

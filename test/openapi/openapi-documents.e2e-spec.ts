import { DEMO_IDS } from '@app/seed-data';
import { OpenAPIObject } from '@nestjs/swagger';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { ROOT, runNode } from '../support/run-command';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { AppName, committedDocument, operationsOf } from './committed-documents';
import { DocumentValidator } from './document-validator';

const CONNECTORS = '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/bot/{botUUID}/rest-connectors';

/** The seed's operations, in its words: path, method, operation id, summary. */
const SEED_OPERATIONS: Record<AppName, Array<[string, string, string, string]>> = {
  'transactional-service': [
    [`${CONNECTORS}/pagination`, 'get', 'pageRestConnectors', "Page of the bot's connectors"],
    [`${CONNECTORS}/quicksearch`, 'get', 'quicksearchRestConnectors', 'Autocomplete suggestions'],
    [`${CONNECTORS}/list`, 'get', 'listRestConnectors', 'List all connectors of the bot'],
    [`${CONNECTORS}/{serviceUUID}`, 'get', 'getRestConnector', 'Get one connector'],
    [CONNECTORS, 'post', 'createRestConnector', 'Create a connector'],
    [`${CONNECTORS}/{serviceUUID}`, 'put', 'updateRestConnector', 'Update a connector'],
    [`${CONNECTORS}/{serviceUUID}`, 'delete', 'deleteRestConnector', 'Delete a connector (soft)'],
  ],
  environment: [
    ['/platform-environment/org/{orgUUID}/environments', 'get', 'listEnvironments', 'Environments of an organization'],
    ['/platform-environment/org/{orgUUID}/environments/{envUUID}', 'get', 'getEnvironment', 'One environment'],
  ],
  'bot-admin': [
    ['/platform-bot-admin/org/{orgUUID}/env/{envUUID}/bots-admin', 'get', 'listBots', 'Bots of an environment'],
    ['/platform-bot-admin/org/{orgUUID}/env/{envUUID}/bots-admin/{botUUID}', 'get', 'getBot', 'One bot'],
  ],
};

/** What this platform adds to the seed (docs/api-contract.md, "Connector test runs", "History, trash and restore"), with its success status. */
const ADDED_OPERATIONS: Record<AppName, Array<[string, string, string, string, string]>> = {
  'transactional-service': [
    [`${CONNECTORS}/test`, 'post', 'testUnsavedRestConnector', 'Test an unsaved connector', '200'],
    [`${CONNECTORS}/{serviceUUID}/test`, 'post', 'testSavedRestConnector', 'Test a saved connector', '200'],
    [`${CONNECTORS}/{serviceUUID}/test-runs`, 'get', 'restConnectorTestRuns', 'Test runs of a connector', '200'],
    [`${CONNECTORS}/test-runs`, 'get', 'unsavedRestConnectorTestRuns', "The bot's test runs of unsaved connectors", '200'],
    [`${CONNECTORS}/deleted`, 'get', 'deletedRestConnectors', "The bot's trash", '200'],
    [`${CONNECTORS}/{serviceUUID}/versions`, 'get', 'restConnectorVersions', 'Versions of a connector', '200'],
    [`${CONNECTORS}/{serviceUUID}/versions/{version}`, 'get', 'restConnectorVersion', 'One version of a connector', '200'],
    [`${CONNECTORS}/{serviceUUID}/versions/{version}/diff/{otherVersion}`, 'get', 'restConnectorVersionDiff', 'What changed between two versions', '200'],
    [`${CONNECTORS}/{serviceUUID}/versions/{version}/revert`, 'post', 'revertRestConnector', 'Revert a connector to an earlier version', '200'],
    [`${CONNECTORS}/{serviceUUID}/restore`, 'post', 'restoreRestConnector', 'Restore a deleted connector', '200'],
    [`${CONNECTORS}/import`, 'post', 'importRestConnectors', 'Import connectors from cURL, OpenAPI or Postman', '200'],
    [`${CONNECTORS}/{serviceUUID}/export`, 'get', 'exportRestConnector', 'Export a connector as cURL, OpenAPI or Postman', '200'],
    [`${CONNECTORS}/promotions`, 'post', 'promoteRestConnectors', "Promote another bot's connectors into this bot", '200'],
    [`${CONNECTORS}/promotions`, 'get', 'restConnectorPromotions', "The bot's promotions", '200'],
    [`${CONNECTORS}/promotions/{promotionId}`, 'get', 'restConnectorPromotion', 'One promotion', '200'],
    [`${CONNECTORS}/promotions/{promotionId}/revert`, 'post', 'revertRestConnectorPromotion', 'Revert a promotion', '200'],
    [
      '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/connector-events',
      'get',
      'connectorEvents',
      "The environment's connector change events",
      '200',
    ],
    [
      '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/connector-variables',
      'get',
      'getConnectorVariables',
      "The environment's connector variables",
      '200',
    ],
    [
      '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/connector-variables',
      'put',
      'putConnectorVariables',
      "Replace the environment's connector variables",
      '200',
    ],
    [
      '/platform-transactional-service/org/{orgUUID}/env/{envUUID}/connector-variables/history',
      'get',
      'connectorVariablesHistory',
      "Versions of the environment's connector variables",
      '200',
    ],
  ],
  environment: [],
  'bot-admin': [],
};

/** A path template as a pattern its concrete paths match: each `{id}` a uuid. */
const pathPattern = (template: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[0-9a-f-]{36}')}$`);

/** Every `example` and `examples` value anywhere in a document. */
const examplesIn = (value: unknown): unknown[] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, child]) => (key === 'example' || key === 'examples' ? [child] : examplesIn(child)))
    : [];

const SUCCESS: Record<string, string> = { get: '200', post: '201', put: '200', delete: '204' };
/** The success status of an operation: its method's, or what ADDED_OPERATIONS says. */
const successOf = (path: string, method: string) =>
  Object.values(ADDED_OPERATIONS)
    .flat()
    .find(([added, addedMethod]) => added === path && addedMethod === method)?.[4] ?? SUCCESS[method];

type Operation = { parameters?: Array<Record<string, any>>; responses: Record<string, any>; security?: unknown; tags?: string[]; requestBody?: any };
const operation = (document: OpenAPIObject, path: string, method: string) => (document.paths[path] as Record<string, Operation>)[method];
const firstOperation = (document: OpenAPIObject) => [operationsOf(document)[0].path, operationsOf(document)[0].method] as const;
const schemaOf = (document: OpenAPIObject, name: string) => document.components!.schemas![name] as { properties: Record<string, any>; required?: string[] };

describe.each([
  [TRANSACTIONAL_SERVICE_APP, 'transactional-service'],
  [ENVIRONMENT_APP, 'environment'],
  [BOT_ADMIN_APP, 'bot-admin'],
] as const)('The OpenAPI document of %s.label', (definition, app: AppName) => {
  let sut: TestApp;
  let development: TestApp;
  let served: OpenAPIObject;
  let servedInDevelopment: OpenAPIObject;
  const committed = committedDocument(app);

  beforeAll(async () => {
    // In production, as deployed; outside production the served document pre-fills the demo ids.
    sut = await startTestApp(definition, mysqlTestConfig({ nodeEnv: 'production' }));
    served = (await sut.http.get(`/${definition.label}/docs-json`).expect(200)).body;
    development = await startTestApp(definition, mysqlTestConfig({ nodeEnv: 'development' }));
    servedInDevelopment = (await development.http.get(`/${definition.label}/docs-json`).expect(200)).body;
  });
  afterAll(async () => {
    await sut.close();
    await development.close();
  });

  it('is served exactly as committed in docs/openapi (run npm run openapi after an API change)', () => {
    expect(served).toEqual(committed);
  });

  it("pre-fills path ids with the demo data's outside production, with the generic uuid in production", () => {
    const exampleIds = (document: OpenAPIObject) =>
      operationsOf(document).flatMap(({ path, method }) =>
        (operation(document, path, method).parameters ?? []).filter((p) => p.in === 'path').map((p) => `${p.name}=${p.schema.example}`),
      );
    const demo: Record<string, string> = {
      orgUUID: DEMO_IDS.acme,
      envUUID: DEMO_IDS.acmeProduction,
      botUUID: DEMO_IDS.supportBot,
      serviceUUID: DEMO_IDS.weatherConnector,
    };
    // The path ids; a version number is pre-filled with 1 alike, and a promotion's id (the demo data has none: one exists once applied) with the generic uuid.
    const isVersion = (pair: string) => /^(version|otherVersion|promotionId)=/.test(pair);
    const names = exampleIds(served)
      .filter((pair) => !isVersion(pair))
      .map((pair) => pair.split('=')[0]);
    expect(names.length).toBeGreaterThan(0);

    const ids = (document: OpenAPIObject) => exampleIds(document).filter((pair) => !isVersion(pair));
    expect(ids(servedInDevelopment)).toEqual(names.map((name) => `${name}=${demo[name]}`));
    expect(ids(served)).toEqual(names.map((name) => `${name}=3fa85f64-5717-4562-b3fc-2c963f66afa6`));
    for (const document of [served, servedInDevelopment]) {
      const versions = exampleIds(document).filter(isVersion);
      expect(versions.length > 0).toBe(app === 'transactional-service');
      expect(versions.filter((pair) => !pair.endsWith('=1') && pair !== 'promotionId=3fa85f64-5717-4562-b3fc-2c963f66afa6')).toEqual([]);
    }
  });

  it("has exactly the seed's operations of its group, in the seed's words, and the ones the contract adds, each in its task group and secured by the bearer scheme", () => {
    const expected = [...SEED_OPERATIONS[app], ...ADDED_OPERATIONS[app]].map(([path, method, operationId, summary]) => ({
      path,
      method,
      operationId,
      summary,
    }));

    expect(operationsOf(served)).toEqual(expect.arrayContaining(expected));
    expect(operationsOf(served)).toHaveLength(expected.length);
    for (const { path, method, operationId } of expected) {
      const group = definition.groups.find((candidate) => candidate.operations.includes(operationId))!;
      expect(operation(served, path, method)).toMatchObject({ tags: [group.name], security: [{ bearer: [] }] });
    }
    // The sections in the order a user works, each saying what it is for; the operations numbered in that order.
    expect(served.tags).toEqual(definition.groups.map(({ name }) => ({ name, description: expect.stringMatching(/\w{3,}/) })));
    const numbered = operationsOf(served).map(({ path, method }) => ({
      id: (operation(served, path, method) as any).operationId,
      order: (operation(served, path, method) as any)['x-order'],
    }));
    expect(numbered.sort((a, b) => a.order - b.order).map(({ id }) => id)).toEqual(definition.groups.flatMap((group) => group.operations));
    expect(served.components!.securitySchemes!.bearer).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: expect.stringContaining('RFC8725'),
    });
    expect(served.components!.securitySchemes!.bearer).toMatchObject({
      description: expect.stringMatching(
        /^Paste the token alone: "Bearer " is added for you. Locally, `npm start` prints a development token, and `npm run token` makes another/,
      ),
    });
  });

  it('gives no header parameter a value Swagger UI would fill in and send: no example nor default (Consistency-Token describes its form instead)', () => {
    for (const document of [served, servedInDevelopment]) {
      const headers = operationsOf(document).flatMap(({ path, method }) =>
        (operation(document, path, method).parameters ?? []).filter((p) => p.in === 'header'),
      );
      expect(headers.filter((p) => p.name === 'Consistency-Token')).toHaveLength(operationsOf(document).length);
      const prefilled = headers.filter((p) => examplesIn(p).length > 0 || p.schema?.default !== undefined);
      expect(prefilled.map(({ name }) => name)).toEqual([]);
    }
    const token = operation(served, ...firstOperation(served)).parameters!.find((p) => p.name === 'Consistency-Token')!;
    expect(token.description).toMatch(
      /Leave it out unless a write gave you one\. Its form: up to 16 `domain-server-sequence` groups of digits, comma-separated \(such as `0-1-4711`\)/,
    );
  });

  it('declares every path id as a required uuid string, and a version number as a positive integer', () => {
    for (const { path, method } of operationsOf(served)) {
      const ids = (path.match(/\{(\w+)\}/g) ?? []).map((id) => id.slice(1, -1));
      const declared = (operation(served, path, method).parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name)).toEqual(ids);
      for (const parameter of declared) {
        const schema = /^(version|otherVersion)$/.test(parameter.name) ? { type: 'integer', format: 'int32', minimum: 1 } : { type: 'string', format: 'uuid' };
        expect(parameter).toMatchObject({ required: true, schema });
      }
    }
  });

  it("gives every success and every error a schema, errors the contract's error body", () => {
    for (const { path, method } of operationsOf(served)) {
      const { responses } = operation(served, path, method);
      const success = successOf(path, method);
      expect(responses[success]).toBeDefined();
      if (success !== '204') expect(responses[success].content['application/json'].schema).toBeDefined();
      for (const status of ['400', '401', '403', '404', '429', '503']) {
        expect(responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      }
    }
    expect(Object.keys(schemaOf(served, 'ErrorBody').properties)).toEqual(['statusCode', 'error', 'message', 'path', 'timestamp', 'requestId']);
  });
});

describe('What the documents say, field for field', () => {
  const connectors = committedDocument('transactional-service');
  const environments = committedDocument('environment');
  const bots = committedDocument('bot-admin');

  it('documents the pagination and quicksearch parameters as the seed gives them', () => {
    const query = (path: string) =>
      Object.fromEntries((operation(connectors, path, 'get').parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
    const page = query(`${CONNECTORS}/pagination`);
    const quick = query(`${CONNECTORS}/quicksearch`);

    expect(page.page).toMatchObject({ required: false, schema: { type: 'integer', format: 'int32', default: 1 } });
    expect(page.linesPerPage).toMatchObject({ required: false, schema: { type: 'integer', format: 'int32', default: 5 } });
    expect(page.orderBy).toMatchObject({ schema: { type: 'string', default: 'updatedAt' } });
    expect(page.direction).toMatchObject({ schema: { type: 'string', default: 'DESC' } });
    expect(page.searchTerms).toMatchObject({ schema: { type: 'array', items: { type: 'string' } } });
    expect(page.searchTerms.description).toContain('searchTerms=a&searchTerms=b');
    expect(quick.searchTerm).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(quick.limit).toMatchObject({ required: false, schema: { type: 'integer', format: 'int64', default: 6 } });
  });

  it('documents direction and orderBy as the server takes them: each listed value, in any case, and nothing else', () => {
    const admits = (name: string, value: string) => new DocumentValidator(connectors).admitsParameter(`${CONNECTORS}/pagination`, 'get', 'query', name, value);
    const parameter = (name: string) => (connectors.paths[`${CONNECTORS}/pagination`] as any).get.parameters.find((p: { name: string }) => p.name === name);

    expect(parameter('direction').schema).toMatchObject({ type: 'string', default: 'DESC' });
    expect(parameter('direction').schema.enum).toBeUndefined();
    expect(parameter('orderBy').schema.enum).toBeUndefined();
    for (const name of ['direction', 'orderBy']) expect(parameter(name).description).toMatch(/any case/);
    expect(parameter('direction').description).toContain('`ASC`, `DESC`');
    expect(parameter('orderBy').description).toContain('`name`, `updatedAt`, `updatedBy`');
    expect(['ASC', 'DESC', 'asc', 'Desc', 'dEsC'].filter((value) => admits('direction', value))).toEqual(['ASC', 'DESC', 'asc', 'Desc', 'dEsC']);
    expect(['up', 'ascending', ' asc', 'ASC,DESC', '', 'ASCDESC'].filter((value) => admits('direction', value))).toEqual([]);
    expect(['name', 'NAME', 'updatedat', 'UpdatedBy'].filter((value) => admits('orderBy', value))).toEqual(['name', 'NAME', 'updatedat', 'UpdatedBy']);
    expect(['names', 'updated', 'uuid', ''].filter((value) => admits('orderBy', value))).toEqual([]);
  });

  it('documents the Idempotency-Key and X-Request-Id request headers as the server takes them', () => {
    const validator = new DocumentValidator(connectors);
    const key = (value: string) => validator.admitsParameter(CONNECTORS, 'post', 'header', 'Idempotency-Key', value);
    const id = (value: string) => validator.admitsParameter(CONNECTORS, 'post', 'header', 'X-Request-Id', value);

    expect(['a', 'order-42/retry:1', '~'.repeat(255)].filter(key)).toHaveLength(3);
    expect(['', 'x'.repeat(256), 'a b', 'ä', 'a\tb'].filter(key)).toEqual([]);
    expect(['a', 'trace.1_2:3-4', 'x'.repeat(128)].filter(id)).toHaveLength(3);
    expect(['', 'x'.repeat(129), 'a/b', 'a b'].filter(id)).toEqual([]);
  });

  it('documents the conditional requests: If-None-Match and its 304 on a read, If-Match with its 412 and the new ETag on a delete', () => {
    const operation = (method: string) => (connectors.paths[`${CONNECTORS}/{serviceUUID}`] as Record<string, any>)[method];
    const headers = (method: string) =>
      operation(method)
        .parameters.filter((p: { in: string }) => p.in === 'header')
        .map((p: { name: string }) => p.name);

    expect(headers('get')).toContain('If-None-Match');
    expect(operation('get').responses['304'].headers.ETag).toBeDefined();
    for (const method of ['put', 'delete']) {
      expect(headers(method)).toContain('If-Match');
      expect(operation(method).responses['412']).toBeDefined();
    }
    expect(operation('delete').responses['204'].headers.ETag).toBeDefined();
    expect(operation('delete').responses['204'].headers['Consistency-Token']).toBeDefined();
    expect(headers('get')).toContain('Consistency-Token');
  });

  it('documents the import bodies: the JSON import request, the source as text or YAML (a text area), an upload (a file picker), the options in the query', () => {
    const importing = operation(connectors, `${CONNECTORS}/import`, 'post');
    const content = importing.requestBody.content;

    expect(Object.keys(content)).toEqual(['application/json', 'text/plain', 'application/yaml', 'application/x-yaml', 'multipart/form-data']);
    for (const type of ['text/plain', 'application/yaml', 'application/x-yaml']) expect(content[type].schema).toMatchObject({ type: 'string' });
    expect(content['multipart/form-data'].schema).toMatchObject({ required: ['file', 'format'], properties: { file: { type: 'string', format: 'binary' } } });
    const query = importing.parameters!.filter(({ in: where }) => where === 'query').map(({ name }) => name);
    expect(query).toEqual(['format', 'dryRun', 'select', 'onConflict']);
    expect(schemaOf(connectors, 'RestConnectorImport').properties.onConflict).toMatchObject({ default: 'fail' });
  });

  it("documents the write body: required fields, enums, lengths, the seed's placeholders and examples that work", () => {
    const body = schemaOf(connectors, 'RestConnectorWrite');
    const create = operation(connectors, CONNECTORS, 'post').requestBody.content['application/json'];

    expect(body.required).toEqual(['name', 'requestType', 'url', 'contentType', 'authType', 'body', 'output']);
    expect(body.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(body.properties.requestType).toMatchObject({ allOf: [{ $ref: '#/components/schemas/RequestType' }] });
    expect(connectors.components!.schemas!.RequestType).toMatchObject({ enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] });
    expect(connectors.components!.schemas!.AuthType).toMatchObject({ enum: ['AUTH_NONE', 'AUTH_BASIC', 'AUTH_BEARER', 'AUTH_OAUTH2', 'AUTH_API_KEY'] });
    expect(connectors.components!.schemas!.ApiKeyIn).toMatchObject({ enum: ['HEADER', 'QUERY'] });
    expect(connectors.components!.schemas!.GrantType).toMatchObject({ enum: ['CLIENT_CREDENTIALS', 'PASSWORD'] });
    expect(Object.keys(body.properties)).not.toEqual(expect.arrayContaining(['uuid']));
    // The placeholders are documented on the secret fields; the create examples carry sample secrets,
    // because a create refuses a placeholder (write-examples.e2e-spec.ts sends every example).
    const secrets = JSON.stringify(['basicToken', 'bearerToken', 'clientSecret', 'authPassword', 'apiKey'].map((field) => body.properties[field]));
    for (const placeholder of ['<BASIC_TOKEN>', '<BEARER_TOKEN>', '<CLIENT_SECRET>', '<PASSWORD>', '<API_KEY>']) expect(secrets).toContain(placeholder);
    expect(JSON.stringify(create.examples)).not.toMatch(/<(BASIC_TOKEN|BEARER_TOKEN|CLIENT_SECRET|PASSWORD|API_KEY)>/);
  });

  it('documents the record, the page, its items and the list items field for field', () => {
    const keys = (name: string) => Object.keys(schemaOf(connectors, name).properties);

    expect(keys('RestConnector')).toEqual([
      'uuid',
      'name',
      'description',
      'requestType',
      'url',
      'headers',
      'contentType',
      'authType',
      'grantType',
      'basicToken',
      'bearerToken',
      'clientId',
      'clientSecret',
      'oauthUrl',
      'authUsername',
      'authPassword',
      'apiKeyName',
      'apiKeyIn',
      'apiKey',
      'body',
      'output',
      'tags',
      'flows',
      'updatedAt',
      'updatedBy',
    ]);
    expect(keys('RestConnectorPage').sort()).toEqual(
      ['content', 'totalPages', 'totalElements', 'size', 'number', 'numberOfElements', 'first', 'last', 'empty', 'sort', 'pageable'].sort(),
    );
    expect(keys('Sort').sort()).toEqual(['empty', 'sorted', 'unsorted']);
    expect(keys('Pageable').sort()).toEqual(['offset', 'pageNumber', 'pageSize', 'paged', 'sort', 'unpaged']);
    expect(keys('RestConnectorPageItem').sort()).toEqual(['flows', 'name', 'tags', 'updatedAt', 'updatedBy', 'user', 'uuid']);
    expect(keys('ConnectorUser').sort()).toEqual(['image', 'username']);
    expect(keys('RestConnectorListItem')).toEqual(['uuid', 'name', 'tags', 'content']);
    expect(keys('ConnectorContentEntry')).toEqual([
      'id',
      'option',
      'expressionCode',
      'connectedTo',
      'buttonText',
      'buttonType',
      'urlRedirect',
      'buttonUrl',
      'cockpitUUID',
    ]);
  });

  it('documents the test runs: both bodies with working examples, the answer field for field, response and output nullable', () => {
    const keys = (name: string) => Object.keys(schemaOf(connectors, name).properties);
    const unsaved = operation(connectors, `${CONNECTORS}/test`, 'post');
    const saved = operation(connectors, `${CONNECTORS}/{serviceUUID}/test`, 'post');

    expect(schemaOf(connectors, 'RestConnectorTest').required).toEqual(['connector']);
    expect(schemaOf(connectors, 'SavedRestConnectorTest').required ?? []).toEqual([]);
    expect(schemaOf(connectors, 'RestConnectorTest').properties.variables).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string', maxLength: 8192 },
      maxProperties: 50,
    });
    expect(Object.keys(unsaved.requestBody.content['application/json'].examples)).toEqual(['noAuth', 'bearer', 'clientCredentials']);
    expect(Object.keys(saved.requestBody.content['application/json'].examples)).toEqual(['asStored', 'withEdits']);
    expect(keys('TestRunAnswer')).toEqual(['outcome', 'message', 'durationMs', 'request', 'response', 'output', 'warnings']);
    expect(connectors.components!.schemas!.TestRunOutcome).toMatchObject({
      enum: ['SUCCESS', 'HTTP_ERROR', 'TIMEOUT', 'CONNECTION_FAILED', 'TLS_ERROR', 'BLOCKED_DESTINATION', 'AUTH_FAILED'],
    });
    for (const [property, ref] of [
      ['response', 'TestRunResponse'],
      ['output', 'TestRunOutput'],
    ]) {
      expect(schemaOf(connectors, 'TestRunAnswer').properties[property]).toMatchObject({
        anyOf: [{ $ref: `#/components/schemas/${ref}` }, { type: 'object', nullable: true, enum: [null] }],
      });
    }
    expect(keys('TestRunRequest')).toEqual(['method', 'url', 'headers', 'body', 'bodyTruncated', 'parts']);
    expect(schemaOf(connectors, 'TestRunRequest').required).not.toContain('parts');
    expect(keys('TestRunPart')).toEqual(['name', 'filename', 'contentType', 'sizeBytes', 'value']);
    expect(keys('TestRunResponse')).toEqual(['status', 'headers', 'body', 'bodyTruncated', 'sizeBytes', 'json', 'jsonPaths', 'jsonPathsTruncated']);
    for (const optional of ['json', 'jsonPaths', 'jsonPathsTruncated']) expect(schemaOf(connectors, 'TestRunResponse').required).not.toContain(optional);
    expect(keys('TestRunOutput')).toEqual(['expression', 'values', 'valuesTruncated', 'error', 'hint']);
    for (const op of [unsaved, saved]) {
      expect(Object.keys(op.responses['200'].content['application/json'].examples)).toEqual([
        'success',
        'nothingSelected',
        'httpError',
        'blocked',
        'authFailed',
      ]);
      expect(op.responses['429']).toBeDefined();
    }
  });

  it('documents history, trash and restore field for field', () => {
    const keys = (name: string) => Object.keys(schemaOf(connectors, name).properties);
    const query = (path: string) =>
      Object.fromEntries((operation(connectors, path, 'get').parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));

    const trail = ['sub', 'requestId', 'reason', 'revertedTo', 'promotionId'];
    expect(keys('RestConnectorVersion')).toEqual(['version', 'operation', 'updatedAt', 'updatedBy', 'user', ...trail, 'changedFields']);
    expect(keys('RestConnectorVersionDetail')).toEqual(['version', 'operation', 'updatedAt', 'updatedBy', 'user', ...trail, 'changedFields', 'snapshot']);
    expect(keys('RestConnectorVersionDiff')).toEqual(['from', 'to', 'changes']);
    expect(keys('RestConnectorFieldChange')).toEqual(['field', 'from', 'to']);
    expect(keys('RestConnectorSnapshot')).toEqual(keys('RestConnector').filter((key) => key !== 'flows'));
    expect(connectors.components!.schemas!.VersionOperation).toMatchObject({ enum: ['CREATED', 'UPDATED', 'DELETED', 'RESTORED'] });
    expect(keys('DeletedRestConnector')).toEqual(['uuid', 'name', 'tags', 'deletedAt', 'deletedBy', 'version', 'etag']);
    for (const page of ['RestConnectorVersionPage', 'DeletedRestConnectorPage']) expect(keys(page).sort()).toEqual(keys('RestConnectorPage').sort());
    for (const path of [`${CONNECTORS}/{serviceUUID}/versions`, `${CONNECTORS}/deleted`]) {
      expect(query(path)).toEqual({
        page: expect.objectContaining({ type: 'integer', default: 1, minimum: 1 }),
        linesPerPage: expect.objectContaining({ type: 'integer', default: 20, maximum: 100 }),
      });
    }
    const restore = operation(connectors, `${CONNECTORS}/{serviceUUID}/restore`, 'post');
    expect(restore.responses['200'].headers.ETag).toBeDefined();
    expect(Object.keys(restore.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '412']));
  });

  it('documents environments (applications properties as a string map) and bots field for field', () => {
    const environment = schemaOf(environments, 'Environment');
    const application = schemaOf(environments, 'EnvironmentApplication');

    expect(Object.keys(environment.properties)).toEqual([
      'uuid',
      'organizationUuid',
      'instanceUuid',
      'instanceName',
      'channelInstanceUuid',
      'channelInstanceName',
      'connectorInstanceUuid',
      'connectorInstanceName',
      'dns',
      'apiURL',
      'name',
      'removed',
      'channelApiUrl',
      'connectorApiUrl',
      'applications',
      'permissions',
    ]);
    expect(application.properties.properties).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    expect(Object.keys(schemaOf(bots, 'Bot').properties)).toEqual(['uuid', 'environmentUuid', 'name', 'image']);
    expect(Object.keys(schemaOf(bots, 'BotList').properties)).toEqual(['bots']);
  });

  it("shows in each document's examples its own app's label only, each error example the path of its operation", () => {
    const documents = [connectors, environments, bots];
    const labels = [TRANSACTIONAL_SERVICE_APP.label, ENVIRONMENT_APP.label, BOT_ADMIN_APP.label];
    documents.forEach((document, index) => {
      const others = labels.filter((label) => label !== labels[index]);
      const examples = JSON.stringify(examplesIn(document));
      expect(others.filter((label) => examples.includes(label))).toEqual([]);
      for (const { path, method } of operationsOf(document)) {
        for (const [status, response] of Object.entries(operation(document, path, method).responses)) {
          const example = response.content?.['application/json']?.example;
          if (Number(status) >= 400) expect({ status, path: example.path }).toEqual({ status, path: expect.stringMatching(pathPattern(path)) });
        }
      }
    });
  });

  it("holds no replacement pattern of String.replace, with which @nestjs/swagger would break Swagger UI's init script", () => {
    for (const document of [connectors, environments, bots]) expect(JSON.stringify(document)).not.toMatch(/\$[`'&$]/);
  });

  it('has no schema that is nullable without a type, which admits no null in OpenAPI 3.0', () => {
    const untyped = (value: unknown, at: string): string[] =>
      value !== null && typeof value === 'object'
        ? [
            ...((value as Record<string, unknown>).nullable === true && !('type' in value) ? [at] : []),
            ...Object.entries(value).flatMap(([key, child]) => untyped(child, `${at}/${key}`)),
          ]
        : [];

    expect([connectors, environments, bots].flatMap((document) => untyped(document, document.info.title))).toEqual([]);
  });

  it('says that the environment group is internal and reached through a support ticket', () => {
    expect(environments.info.description).toContain('network policy blocks external access');
    expect(environments.info.description).toContain('support ticket');
  });
});

describe('The typed client', () => {
  it.each(['transactional-service', 'environment', 'bot-admin'])('in test/client/%s.schema.ts is generated from the committed document', async (app) => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'openapi-client-')), `${app}.schema.ts`);
    const cli = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');

    const result = await runNode([cli, join(ROOT, 'docs', 'openapi', `${app}.json`), '-o', fresh], {});

    expect(result.code).toBe(0);
    expect(readFileSync(fresh, 'utf8')).toBe(readFileSync(join(ROOT, 'test', 'client', `${app}.schema.ts`), 'utf8'));
  });
});

import { fromSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import { ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectorEventsDocumentSource, connectorEventValidator, externalRefs, parseConnectorEventsDocument } from '../support/asyncapi';
import { aConnectorEvent } from '../support/connector-events';
import { ROOT } from '../support/run-command';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { AppConfig, PlatformAppDefinition } from '@app/platform';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { ENVIRONMENT_APP } from '../../apps/environment/src/environment.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';

const OPENAPI = JSON.parse(readFileSync(join(ROOT, 'docs/openapi/transactional-service.json'), 'utf8'));

/** The OpenAPI schemas the events reuse: the snapshot and the operation, with every schema they refer to. */
function reusedOpenApiSchemas(): string[] {
  const names = new Set<string>();
  const visit = (name: string) => {
    if (names.has(name)) return;
    names.add(name);
    for (const [, used] of JSON.stringify(OPENAPI.components.schemas[name]).matchAll(/"#\/components\/schemas\/(\w+)"/g)) visit(used);
  };
  ['RestConnectorSnapshot', 'VersionOperation'].forEach(visit);
  return [...names];
}

describe('The AsyncAPI document of the connector events (docs/asyncapi/connector-events.yaml)', () => {
  const { raw } = connectorEventsDocumentSource();

  it('refers to nothing outside itself, so that no parser fetches anything', () => {
    expect(externalRefs(raw)).toEqual([]);
  });

  it('is AsyncAPI 3.0 that @asyncapi/parser reads with no error and no warning', async () => {
    const { document, diagnostics } = await parseConnectorEventsDocument();
    expect(diagnostics.filter(({ severity }) => severity <= 1).map(({ code, message, path }) => ({ code, message, path }))).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('describes the stream: the nats server, the subject with its four ids, the send operation and the message with its headers', async () => {
    const { document } = await parseConnectorEventsDocument();
    const server = document!.servers().get('nats')!;
    expect(server.protocol()).toBe('nats');
    const channel = document!.channels().get('connectorEvents')!;
    expect(channel.address()).toBe('connectors.events.{orgUUID}.{envUUID}.{botUUID}.{connectorUUID}');
    expect(
      channel
        .parameters()
        .all()
        .map((parameter) => parameter.id()),
    ).toEqual(['orgUUID', 'envUUID', 'botUUID', 'connectorUUID']);
    const operation = document!.operations().get('publishConnectorEvent')!;
    expect(operation.action()).toBe('send');
    expect(
      operation
        .channels()
        .all()
        .map((used) => used.id()),
    ).toEqual(['connectorEvents']);
    const message = document!.components().messages().get('ConnectorEvent')!;
    expect(message.contentType()).toBe('application/cloudevents+json');
    expect(message.headers()!.required()).toEqual(['Nats-Msg-Id', 'content-type', 'Nats-Expected-Stream']);
    expect(message.headers()!.properties()!['content-type'].const()).toBe('application/cloudevents+json');
  });

  it.each(reusedOpenApiSchemas())('holds %s as the OpenAPI document has it, in JSON Schema', (name) => {
    const { $schema: _draft, ...converted } = fromSchema(OPENAPI.components.schemas[name]);
    expect(raw.components.schemas[name]).toEqual(converted);
  });

  it('names no other schema as the OpenAPI document does', () => {
    const sameNames = Object.keys(raw.components.schemas).filter((name) => name in OPENAPI.components.schemas);
    expect(sameNames.sort()).toEqual(reusedOpenApiSchemas().sort());
  });

  it("gives an example whose payload is a valid event and whose Nats-Msg-Id is the event's id", async () => {
    const validate = await connectorEventValidator();
    const [example] = raw.components.messages.ConnectorEvent.examples;
    expect(problems(validate, example.payload)).toEqual([]);
    expect(example.headers['Nats-Msg-Id']).toBe(example.payload.id);
  });

  it('describes the changes of connector variables: their subject under the environment, the send operation, a valid example', async () => {
    const { document } = await parseConnectorEventsDocument();
    expect(document!.channels().get('connectorVariablesEvents')!.address()).toBe('connectors.events.{orgUUID}.{envUUID}.variables');
    expect(document!.operations().get('publishConnectorVariablesEvent')!.action()).toBe('send');
    const validate = await connectorEventValidator('ConnectorVariablesEvent');
    const [example] = raw.components.messages.ConnectorVariablesEvent.examples;
    expect(problems(validate, example.payload)).toEqual([]);
    expect(example.headers['Nats-Msg-Id']).toBe(example.payload.id);
    expect(
      problems(validate, {
        ...example.payload,
        data: { ...example.payload.data, variables: [{ name: 'K', secret: true, value: 'x', destinations: [], sealed: 'x' }] },
      }),
    ).not.toEqual([]);
  });
});

describe('The AsyncAPI document served beside the OpenAPI one', () => {
  const path = `/${TRANSACTIONAL_SERVICE_APP.label}/docs-asyncapi`;
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const start = async (definition: PlatformAppDefinition, config: Partial<AppConfig> = {}) => {
    const sut = await startTestApp(definition, mysqlTestConfig(config));
    apps.push(sut);
    return sut;
  };

  it('is served by the transactional service as committed, as YAML, to anyone (no token, as its OpenAPI document)', async () => {
    const sut = await start(TRANSACTIONAL_SERVICE_APP, { nodeEnv: 'production' });
    const res = await sut.http.get(path).expect(200);

    expect(res.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(res.text).toBe(connectorEventsDocumentSource().text);
    await sut.http.head(path).expect(200);
  });

  it('is linked from the OpenAPI document (externalDocs), which Swagger UI shows under the title', async () => {
    const sut = await start(TRANSACTIONAL_SERVICE_APP);
    const openapi = (await sut.http.get(`/${TRANSACTIONAL_SERVICE_APP.label}/docs-json`).expect(200)).body;

    expect(openapi.externalDocs).toEqual({ description: expect.stringContaining('AsyncAPI 3.0 document'), url: path });
    expect(OPENAPI.externalDocs).toEqual(openapi.externalDocs);
  });

  it('is served by no other app, and not with API_DOCS=off', async () => {
    for (const definition of [ENVIRONMENT_APP, BOT_ADMIN_APP]) {
      const sut = await start(definition);
      const openapi = (await sut.http.get(`/${definition.label}/docs-json`).expect(200)).body;
      expect(openapi.externalDocs).toBeUndefined();
      await sut.http.get(`/${definition.label}/docs-asyncapi`).expect(404);
    }
    const off = await start(TRANSACTIONAL_SERVICE_APP, { apiDocs: false });
    await off.http.get(path).expect(404);
  });
});

describe('connectorEventValidator', () => {
  let validate: ValidateFunction;

  beforeAll(async () => {
    validate = await connectorEventValidator();
  });

  it.each([
    ['connector.created.v1', 'CREATED'],
    ['connector.updated.v1', 'UPDATED'],
    ['connector.deleted.v1', 'DELETED'],
    ['connector.restored.v1', 'RESTORED'],
  ])('accepts a %s event with operation %s', (type, operation) => {
    const event = aConnectorEvent();
    expect(problems(validate, { ...event, type, data: { ...event.data, operation } })).toEqual([]);
  });

  it('refuses an event whose type and operation disagree', () => {
    const event = aConnectorEvent();
    expect(problems(validate, { ...event, type: 'connector.deleted.v1' })).toContain('/data/operation must be equal to constant');
  });

  it('refuses an event without its id, and one whose id is no UUID', () => {
    const { id: _id, ...withoutId } = aConnectorEvent();
    expect(problems(validate, withoutId)).toEqual([" must have required property 'id'"]);
    expect(problems(validate, { ...aConnectorEvent(), id: '42' })).toEqual(['/id must match format "uuid"']);
  });

  it('refuses a snapshot with a field the document does not describe, such as the flows', () => {
    const event = aConnectorEvent();
    const snapshot = { ...event.data.snapshot, flows: [] };
    expect(problems(validate, { ...event, data: { ...event.data, snapshot } })).toEqual(['/data/snapshot must NOT have additional properties']);
  });

  it('refuses a wrong specversion, a source of another shape and a time without its zone', () => {
    const event = aConnectorEvent();
    expect(problems(validate, { ...event, specversion: '0.3', source: '/rest-connectors', time: '2026-11-21T09:30:00' })).toEqual([
      '/specversion must be equal to constant',
      '/source must match pattern "^/org/[0-9a-f-]{36}/env/[0-9a-f-]{36}/bot/[0-9a-f-]{36}/rest-connectors$"',
      '/time must match format "date-time"',
    ]);
  });
});

function problems(validate: ValidateFunction, event: unknown): string[] {
  return validate(event) ? [] : validate.errors!.filter(({ keyword }) => keyword !== 'if').map(({ instancePath, message }) => `${instancePath} ${message}`);
}

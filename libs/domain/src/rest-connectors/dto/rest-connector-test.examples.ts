import { ExamplesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DEMO_ECHO_TARGET } from '../demo-echo-target';
import { TestRunOutcome } from '../rest-connector.enums';
import { REST_CONNECTOR_CREATE_EXAMPLES } from './rest-connector-write.examples';

/** A create example's body (every one is an ExampleObject with a value). */
const createBody = (name: string) => (REST_CONNECTOR_CREATE_EXAMPLES[name] as { value: Record<string, unknown> }).value;

/** A create example pointed at the demo echo target (DEMO_ECHO_TARGET), with an output its answer has. */
const echoing = (name: string, path: string, output: string, overrides: Record<string, unknown> = {}) => ({
  ...createBody(name),
  url: `${DEMO_ECHO_TARGET.url}${path}`,
  output,
  ...overrides,
});

/**
 * Bodies of `POST …/rest-connectors/test` for Swagger UI: the create examples, each with the variables it needs, sent
 * to the demo echo target that `npm start` serves in development, so that each succeeds as shown.
 */
export const REST_CONNECTOR_TEST_EXAMPLES: ExamplesObject = {
  noAuth: {
    summary: 'No authentication, one variable',
    value: { connector: echoing('noAuth', '/v1/alerts?city={{city}}', '$.data.query.city'), variables: { city: 'Lisbon' } },
  },
  bearer: {
    summary: 'Bearer token',
    value: { connector: echoing('bearer', '/api/stock/{{sku}}', '$.data.path'), variables: { sku: 'SKU-1042' } },
  },
  clientCredentials: {
    summary: 'OAuth 2, client credentials',
    value: {
      connector: echoing('clientCredentials', '/api/contacts', '$.data.json.name', { oauthUrl: `${DEMO_ECHO_TARGET.url}/oauth/token` }),
      variables: { name: 'Ana Lima', email: 'ana@example.com' },
    },
  },
};

/** Bodies of `POST …/rest-connectors/{serviceUUID}/test`. */
export const SAVED_REST_CONNECTOR_TEST_EXAMPLES: ExamplesObject = {
  asStored: {
    summary: 'The stored connector',
    description:
      'Runs the connector as stored, with its stored secrets. Name every `{{variable}}` it uses. The demo weather connector calls the demo echo target that `npm start` serves.',
    value: { variables: { city: 'Lisbon' } },
  },
  withEdits: {
    summary: 'Edits that are not saved',
    description:
      "Runs the connector as this PUT body would store it: a secret's placeholder keeps the stored secret while the URL keeps its scheme, host and port. Nothing is saved.",
    value: {
      variables: { city: 'Porto' },
      connector: { ...createBody('noAuth'), url: `${DEMO_ECHO_TARGET.url}/v2/alerts?city={{city}}&lang=en`, output: '$.data.query' },
    },
  },
};

/** Answers of a test run, for the 200 of both operations. */
export const TEST_RUN_ANSWER_EXAMPLES: ExamplesObject = {
  success: {
    summary: 'The far side answered 2xx',
    value: {
      outcome: TestRunOutcome.SUCCESS,
      message: null,
      durationMs: 184,
      request: {
        method: 'GET',
        url: 'https://api.example.com/items/42',
        headers: [
          { header: 'Accept', value: 'application/json' },
          { header: 'User-Agent', value: 'bot-platform-connector-test/1.0' },
          { header: 'Authorization', value: 'Bearer <BEARER_TOKEN>' },
        ],
        body: '',
        bodyTruncated: false,
      },
      response: {
        status: 200,
        headers: [{ header: 'content-type', value: 'application/json' }],
        body: '{"data": {"level": 7}}',
        bodyTruncated: false,
        sizeBytes: 22,
        json: { data: { level: 7 } },
      },
      output: { expression: '$.data.level', values: [7], valuesTruncated: false, error: null, hint: null },
      warnings: [],
    },
  },
  nothingSelected: {
    summary: 'output selects nothing: the hint says how far it got',
    value: {
      outcome: TestRunOutcome.SUCCESS,
      message: null,
      durationMs: 95,
      request: {
        method: 'GET',
        url: 'https://api.example.com/items/42',
        headers: [{ header: 'User-Agent', value: 'bot-platform-connector-test/1.0' }],
        body: '',
        bodyTruncated: false,
      },
      response: {
        status: 200,
        headers: [{ header: 'content-type', value: 'application/json' }],
        body: '{"data": {"level": 7, "unit": "kg"}}',
        bodyTruncated: false,
        sizeBytes: 36,
        json: { data: { level: 7, unit: 'kg' } },
      },
      output: {
        expression: '$.data.levl',
        values: [],
        valuesTruncated: false,
        error: null,
        hint: 'output selects nothing: $[\'data\'] selects an object with the members "level", "unit", and [\'levl\'] selects nothing from it',
      },
      warnings: ['variables.lang is not used: the connector has no {{lang}}'],
    },
  },
  httpError: {
    summary: 'The far side answered an error, not JSON',
    value: {
      outcome: TestRunOutcome.HTTP_ERROR,
      message: 'The far side answered 503',
      durationMs: 41,
      request: {
        method: 'POST',
        url: 'https://crm.example.com/api/contacts',
        headers: [
          { header: 'Content-Type', value: 'application/json' },
          { header: 'User-Agent', value: 'bot-platform-connector-test/1.0' },
          { header: 'Authorization', value: 'Bearer <ACCESS_TOKEN>' },
        ],
        body: '{"email": "ana@example.com"}',
        bodyTruncated: false,
      },
      response: {
        status: 503,
        headers: [{ header: 'content-type', value: 'text/html' }],
        body: '<h1>Down for maintenance</h1>',
        bodyTruncated: false,
        sizeBytes: 29,
      },
      output: { expression: '$.id', values: null, valuesTruncated: false, error: 'the answer is not JSON', hint: null },
      warnings: ['headers.0 Content-Type is not sent: contentType APPLICATION_JSON sends Content-Type: application/json'],
    },
  },
  blocked: {
    summary: 'The host is not a public destination',
    value: {
      outcome: TestRunOutcome.BLOCKED_DESTINATION,
      message: 'metadata.internal is not a public destination: connector test runs only reach public addresses',
      durationMs: 2,
      request: {
        method: 'GET',
        url: 'http://metadata.internal/latest/meta-data/',
        headers: [{ header: 'User-Agent', value: 'bot-platform-connector-test/1.0' }],
        body: '',
        bodyTruncated: false,
      },
      response: null,
      output: null,
      warnings: [],
    },
  },
  authFailed: {
    summary: 'The token endpoint refused the client: its request and answer are shown',
    value: {
      outcome: TestRunOutcome.AUTH_FAILED,
      message: 'Token endpoint: The token endpoint answered 401: invalid_client (Invalid client: client is invalid)',
      durationMs: 63,
      request: {
        method: 'POST',
        url: 'https://id.example.com/oauth/token',
        headers: [
          { header: 'Content-Type', value: 'application/x-www-form-urlencoded' },
          { header: 'Accept', value: 'application/json' },
          { header: 'Authorization', value: 'Basic <CLIENT_CREDENTIALS>' },
        ],
        body: 'grant_type=client_credentials',
        bodyTruncated: false,
      },
      response: {
        status: 401,
        headers: [{ header: 'content-type', value: 'application/json; charset=utf-8' }],
        body: '{"error":"invalid_client","error_description":"Invalid client: client is invalid"}',
        bodyTruncated: false,
        sizeBytes: 82,
        json: { error: 'invalid_client', error_description: 'Invalid client: client is invalid' },
      },
      output: null,
      warnings: [],
    },
  },
};

import { ExamplesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DEMO_ECHO_TARGET } from '../demo-echo-target';

const accept = [{ header: 'Accept', value: 'application/json' }];

/**
 * Create bodies for Swagger UI, each one working as shown against the demo bot of `npm start`: names no
 * demo connector uses, and sample secrets rather than placeholders (a create has no stored secret for a
 * placeholder to keep, so it refuses one). test/openapi/write-examples.e2e-spec.ts sends every one.
 */
export const REST_CONNECTOR_CREATE_EXAMPLES: ExamplesObject = {
  noAuth: {
    summary: 'No authentication',
    value: {
      name: 'Weather alerts',
      description: 'Severe weather alerts for the city the user asks about',
      requestType: 'GET',
      url: 'https://api.weather.example.com/v1/alerts?city={{city}}',
      headers: accept,
      contentType: 'NONE',
      authType: 'AUTH_NONE',
      body: '',
      output: '$.alerts',
      tags: [{ name: 'weather' }],
    },
  },
  basic: {
    summary: 'Basic authentication',
    value: {
      name: 'Invoice status',
      requestType: 'GET',
      url: 'https://billing.example.com/api/invoices/{{invoiceNumber}}',
      headers: accept,
      contentType: 'NONE',
      authType: 'AUTH_BASIC',
      // base64 of `bot-platform:example-password-7Kq2`
      basicToken: 'Ym90LXBsYXRmb3JtOmV4YW1wbGUtcGFzc3dvcmQtN0txMg==',
      body: '',
      output: '$.status',
      tags: [{ name: 'billing' }],
    },
  },
  bearer: {
    summary: 'Bearer token',
    value: {
      name: 'Product stock',
      requestType: 'GET',
      url: 'https://shop.example.com/api/stock/{{sku}}',
      headers: accept,
      contentType: 'NONE',
      authType: 'AUTH_BEARER',
      bearerToken: 'example-token-5f1c9e7a2b4d4e08a6c3',
      body: '',
      output: '$.quantity',
      tags: [{ name: 'shop' }],
    },
  },
  clientCredentials: {
    summary: 'OAuth 2, client credentials',
    value: {
      name: 'Create CRM contact',
      requestType: 'POST',
      url: 'https://crm.example.com/api/contacts',
      headers: accept,
      contentType: 'APPLICATION_JSON',
      authType: 'AUTH_OAUTH2',
      grantType: 'CLIENT_CREDENTIALS',
      oauthUrl: 'https://id.crm.example.com/oauth/token',
      clientId: 'bot-platform',
      clientSecret: 'example-client-secret-1b7e4f2a9c',
      body: '{"name": "{{name}}", "email": "{{email}}"}',
      output: '$.id',
      tags: [{ name: 'crm' }],
    },
  },
  password: {
    summary: 'OAuth 2, password grant',
    value: {
      name: 'Loyalty points',
      requestType: 'GET',
      url: 'https://loyalty.example.com/api/members/{{memberId}}/points',
      headers: accept,
      contentType: 'NONE',
      authType: 'AUTH_OAUTH2',
      grantType: 'PASSWORD',
      oauthUrl: 'https://loyalty.example.com/oauth/token',
      clientId: 'bot-platform',
      authUsername: 'integration-user',
      authPassword: 'Example-Passw0rd-3vR8',
      body: '',
      output: '$.points',
      tags: [{ name: 'loyalty' }],
    },
  },
  apiKeyHeader: {
    summary: 'API key in a header',
    value: {
      name: 'Parcel tracking',
      requestType: 'GET',
      url: 'https://parcels.example.com/v2/track/{{trackingNumber}}',
      headers: accept,
      contentType: 'NONE',
      authType: 'AUTH_API_KEY',
      apiKeyName: 'X-API-Key',
      apiKeyIn: 'HEADER',
      apiKey: 'example-key-8d2f41c7b9e3',
      body: '',
      output: '$.status',
      tags: [{ name: 'shipping' }],
    },
  },
  apiKeyQuery: {
    summary: 'API key in the query',
    value: {
      name: 'Currency rates',
      requestType: 'GET',
      url: 'https://rates.example.com/api/latest?base={{currency}}',
      headers: accept,
      contentType: 'NONE',
      authType: 'AUTH_API_KEY',
      apiKeyName: 'api_key',
      apiKeyIn: 'QUERY',
      apiKey: 'example-key-3b7e90a1d4c6',
      body: '',
      output: '$.rates',
      tags: [{ name: 'finance' }],
    },
  },
  multipart: {
    summary: 'Multipart form data: a text field and a file',
    value: {
      name: 'Send receipt',
      requestType: 'POST',
      url: 'https://mail.example.com/v3/messages',
      headers: accept,
      contentType: 'MULTIPART_FORM_DATA',
      authType: 'AUTH_BEARER',
      bearerToken: 'example-token-5c1a7e9d2b4f',
      body: JSON.stringify([
        { name: 'to', value: '{{email}}' },
        { name: 'subject', value: 'Your receipt' },
        { name: 'attachment', value: 'Total: {{total}}', filename: 'receipt.txt', contentType: 'text/plain' },
      ]),
      output: '$.id',
      tags: [{ name: 'mail' }],
    },
  },
};

/** The demo "Weather forecast" connector as a GET shows it (it stores no secret). */
/** The demo "Weather forecast" connector as seeded: it calls the demo echo target. */
const demoWeather = {
  name: 'Weather forecast',
  requestType: 'GET',
  url: `${DEMO_ECHO_TARGET.url}/v1/forecast?city={{city}}`,
  headers: accept,
  contentType: 'NONE',
  body: '',
  output: '$.data',
};

/**
 * PUT bodies, written for the demo "Weather forecast" connector, whose id Swagger UI pre-fills outside
 * production. No placeholder example: no demo connector stores a secret, and a placeholder where nothing
 * is stored is a 400 (docs/decisions.md, "API documents").
 */
export const REST_CONNECTOR_UPDATE_EXAMPLES: ExamplesObject = {
  edit: {
    summary: 'Edit the demo weather connector',
    value: {
      ...demoWeather,
      description: 'Three-day forecast for the city the user asks about',
      authType: 'AUTH_NONE',
      output: '$.data.days',
      tags: [{ name: 'weather' }, { name: 'public' }, { name: 'forecast' }],
    },
  },
  addBearer: {
    summary: 'Switch the demo weather connector to a bearer token',
    value: {
      ...demoWeather,
      authType: 'AUTH_BEARER',
      bearerToken: 'example-token-8d2e6b1f0c9a4f37b5e4',
      tags: [{ name: 'weather' }, { name: 'public' }],
    },
  },
};

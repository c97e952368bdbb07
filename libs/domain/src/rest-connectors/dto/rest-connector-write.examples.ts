import { ExamplesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const base = {
  requestType: 'GET',
  url: 'https://api.weather.example.com/v1/forecast?city={{city}}',
  headers: [{ header: 'Accept', value: 'application/json' }],
  contentType: 'NONE',
  body: '',
  output: '$.forecast',
  tags: [{ name: 'weather' }],
};

/** Write bodies for Swagger UI; secrets appear as the seed's placeholders, never as values. */
export const REST_CONNECTOR_WRITE_EXAMPLES: ExamplesObject = {
  noAuth: { summary: 'No authentication', value: { name: 'Weather forecast', description: 'Forecast for the city the user asks about', ...base, authType: 'AUTH_NONE' } },
  basic: { summary: 'Basic authentication', value: { name: 'Order status', ...base, url: 'https://shop.example.com/api/orders/{{orderId}}', authType: 'AUTH_BASIC', basicToken: '<BASIC_TOKEN>' } },
  bearer: { summary: 'Bearer token', value: { name: 'Stock level', ...base, url: 'https://shop.example.com/api/stock/{{sku}}', authType: 'AUTH_BEARER', bearerToken: '<BEARER_TOKEN>' } },
  clientCredentials: {
    summary: 'OAuth 2, client credentials',
    value: {
      name: 'Create CRM lead',
      ...base,
      requestType: 'POST',
      url: 'https://crm.example.com/api/leads',
      contentType: 'APPLICATION_JSON',
      body: '{"name": "{{name}}", "email": "{{email}}"}',
      output: '$.id',
      authType: 'AUTH_OAUTH2',
      grantType: 'CLIENT_CREDENTIALS',
      oauthUrl: 'https://id.crm.example.com/oauth/token',
      clientId: 'bot-platform',
      clientSecret: '<CLIENT_SECRET>',
    },
  },
  password: {
    summary: 'OAuth 2, password grant',
    value: {
      name: 'Loyalty points',
      ...base,
      url: 'https://loyalty.example.com/api/members/{{memberId}}/points',
      authType: 'AUTH_OAUTH2',
      grantType: 'PASSWORD',
      oauthUrl: 'https://loyalty.example.com/oauth/token',
      clientId: 'bot-platform',
      authUsername: 'integration-user',
      authPassword: '<PASSWORD>',
    },
  },
};

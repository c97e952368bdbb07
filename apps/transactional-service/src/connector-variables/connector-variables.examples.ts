import { DEMO_ECHO_TARGET } from '@app/domain';

/** Examples of `PUT …/connector-variables` (Swagger UI "Try it out"), in the order they run on the demo data: each keeps the demo's ECHO_URL. */
export const CONNECTOR_VARIABLES_WRITE_EXAMPLES = {
  plainAndSecret: {
    summary: 'A base URL and an API key bound to its host',
    value: {
      variables: [
        { name: 'ECHO_URL', value: DEMO_ECHO_TARGET.url },
        { name: 'BASE_URL', value: 'https://api.example.com/v2' },
        { name: 'API_KEY', value: 'sk_live_123', secret: true, destinations: ['https://api.example.com'] },
      ],
    },
  },
  keepSecret: {
    summary: 'Change the base URL, keep the stored key',
    value: {
      variables: [
        { name: 'ECHO_URL', value: DEMO_ECHO_TARGET.url },
        { name: 'BASE_URL', value: 'https://api.example.com/v3' },
        { name: 'API_KEY', value: '<SECRET>', secret: true, destinations: ['https://api.example.com'] },
      ],
    },
  },
};

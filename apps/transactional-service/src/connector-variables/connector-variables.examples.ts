/** Examples of `PUT …/connector-variables` (Swagger UI "Try it out"). */
export const CONNECTOR_VARIABLES_WRITE_EXAMPLES = {
  plainAndSecret: {
    summary: 'A base URL and an API key bound to its host',
    value: {
      variables: [
        { name: 'BASE_URL', value: 'https://api.example.com/v2' },
        { name: 'API_KEY', value: 'sk_live_123', secret: true, destinations: ['https://api.example.com'] },
      ],
    },
  },
  keepSecret: {
    summary: 'Change the base URL, keep the stored key',
    value: {
      variables: [
        { name: 'BASE_URL', value: 'https://api.example.com/v3' },
        { name: 'API_KEY', value: '<SECRET>', secret: true, destinations: ['https://api.example.com'] },
      ],
    },
  },
};

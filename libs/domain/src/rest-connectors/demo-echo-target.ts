/**
 * The demo echo target: a small HTTP endpoint that `npm start` serves on a loopback address of its own in development
 * only (tools/cli/src/echo-target.ts), which the development default of OUTBOUND_ALLOWED_CIDRS admits (never the
 * production one), so that the demo connector and the Swagger UI test-run examples succeed on a first try. It answers
 * `{ "data": { method, path, query, headers, body, json } }` (json: the body parsed, when it is JSON), and a token
 * for a POST to /oauth/token.
 */
export const DEMO_ECHO_TARGET = {
  host: '127.0.0.2',
  port: 3004,
  /** What the development default of OUTBOUND_ALLOWED_CIDRS admits: this address alone. */
  cidr: '127.0.0.2/32',
  url: 'http://127.0.0.2:3004',
} as const;

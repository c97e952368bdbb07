import { AppConfig, natsServers, PLATFORM_APPS, withoutCredentials } from '@app/platform';

/** The apps' log level under `npm start` unless LOG_LEVEL says otherwise: no line per request, so the banner stays readable. */
export const LAUNCHED_LOG_LEVEL = 'warn';

/**
 * What `npm start` prints once the three apps have started, last: where they listen, what they reach, their URLs and a
 * development token (undefined when real auth is configured). `logLevel` is LOG_LEVEL as set, if it is; `echo` what
 * became of the demo echo target, when npm start serves it.
 */
export function banner(config: AppConfig, token: string | undefined, logLevel: string | undefined, echo?: string): string {
  const where =
    config.host === undefined ? 'every interface' : config.host === '127.0.0.1' ? '127.0.0.1 only (HOST=0.0.0.0 to open it to your network)' : config.host;
  const lines = [
    '',
    'Bot Platform Management API is running',
    `  database: ${config.database.type === 'sqlite' ? config.database.path : 'MySQL (DATABASE_URL)'}`,
    `  listening on: ${where}`,
    `  test runs reach: ${outbound(config)}`,
    ...(echo === undefined ? [] : [`  demo echo target: ${echo}`]),
    `  NATS: ${nats(config)}`,
    `  request logs: ${logLevel === undefined ? 'off (LOG_LEVEL=info npm start shows one line per request)' : `LOG_LEVEL=${logLevel}`}`,
    '',
    ...Object.values(PLATFORM_APPS).map((app) => `  ${app.label.padEnd(32)} http://localhost:${app.defaultPort}/${app.label}/docs`),
    '',
    token
      ? `Development token (demo user, every organization, connectors:write; valid 30 days; others: npm run token -- --help):\n\n${token}\n\n` +
        `Try:\n  TOKEN=${token}\n  curl -H "Authorization: Bearer $TOKEN" http://localhost:3003/platform-bot-admin/org/0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01/env/1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02/bots-admin`
      : 'Auth is configured: call with tokens of your identity provider.',
    '',
    'Press Ctrl+C to stop.',
  ];
  return lines.join('\n');
}

/** What a connector test run may reach: public addresses, and the ranges OUTBOUND_ALLOWED_CIDRS admits. */
function outbound(config: AppConfig): string {
  const admitted = config.connectorTests.allowedCidrs;
  return admitted.length === 0
    ? 'public addresses only, no private or local range admitted (OUTBOUND_ALLOWED_CIDRS admits some)'
    : `public addresses, and ${admitted.join(', ')} (OUTBOUND_ALLOWED_CIDRS)`;
}

/** Where the change events go: the NATS servers (without their credentials) and stream, or the feed alone. */
function nats(config: AppConfig): string {
  const { natsUrl, stream } = config.changeEvents;
  if (!natsUrl) return 'no broker: events via the feed only (NATS_URL publishes them to NATS JetStream)';
  return `${natsServers(natsUrl).map(withoutCredentials).join(', ')}, stream ${stream}`;
}

import { AppConfig, DEFAULT_CHANGE_EVENTS, DEFAULT_CONNECTOR_TESTS, DEFAULT_HTTP_TIMEOUTS, parseServerUrl } from '@app/platform';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_JWT_SECRET = 'test-secret-of-the-e2e-suite-0123456789abcdef';

/** Config of an app under test on the run's MariaDB database (see global-setup). */
export function mysqlTestConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the e2e tests through jest (global-setup)');
  return baseConfig({ database: parseServerUrl(url), ...overrides });
}

/** Config of an app under test on a fresh SQLite file of its own, migrated on connect. */
export function sqliteTestConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const dir = mkdtempSync(join(tmpdir(), 'platform-sqlite-'));
  return baseConfig({ database: { type: 'sqlite', path: join(dir, 'platform.sqlite') }, ...overrides });
}

function baseConfig(overrides: Partial<AppConfig>): AppConfig {
  return {
    nodeEnv: 'test',
    port: 0,
    database: { type: 'sqlite', path: ':memory:' },
    auth: { mode: 'secret', secret: TEST_JWT_SECRET },
    secretsKey: Buffer.alloc(32, 7),
    rateLimitPerMinute: 100_000,
    trustProxyHops: 0,
    httpTimeouts: DEFAULT_HTTP_TIMEOUTS,
    corsOrigins: [],
    connectorTests: DEFAULT_CONNECTOR_TESTS,
    changeEvents: DEFAULT_CHANGE_EVENTS,
    logLevel: 'silent',
    // The e2e-stock jest project (test/support/stock-path.ts) runs its suites on the stock library path.
    performanceOverrides: process.env.PERFORMANCE_OVERRIDES !== 'off',
    apiDocs: true,
    ...overrides,
  };
}

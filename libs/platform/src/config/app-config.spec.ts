import { loadAppConfig } from './app-config';
import { ConfigValidationError } from './config-validation.error';

const KEY = Buffer.alloc(32, 1).toString('base64');
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'mysql://app:pw@db:3306/platform',
  AUTH_JWT_SECRET: 'x'.repeat(32),
  SECRETS_KEY: KEY,
};

function problemOf(env: NodeJS.ProcessEnv): string {
  try {
    loadAppConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be rejected');
}

describe(loadAppConfig.name, () => {
  it('defaults to the embedded SQLite database and development auth outside production', () => {
    const sut = loadAppConfig({}, 3002);

    expect(sut.database).toEqual({ type: 'sqlite', path: expect.stringMatching(/data\/platform\.sqlite$/) });
    expect(sut.auth).toEqual({ mode: 'development', secretFile: expect.stringMatching(/data\/dev-jwt-secret$/) });
    expect(sut.port).toBe(3002);
    expect(sut.nodeEnv).toBe('development');
  });

  it('accepts a complete production configuration', () => {
    const sut = loadAppConfig({ ...PRODUCTION, PORT: '8080', CORS_ORIGINS: 'https://a.example, https://b.example' });

    expect(sut.database).toEqual({ type: 'mysql', url: PRODUCTION.DATABASE_URL, readUrls: [] });
    expect(sut.auth).toEqual({ mode: 'secret', secret: PRODUCTION.AUTH_JWT_SECRET, issuer: undefined, audience: undefined });
    expect(sut.port).toBe(8080);
    expect(sut.secretsKey?.length).toBe(32);
    expect(sut.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });

  it('refuses production without database, auth and secrets key, naming each in one line', () => {
    const message = problemOf({ NODE_ENV: 'production' });

    expect(message).toBe(
      'Invalid configuration: DATABASE_URL is required when NODE_ENV=production; ' +
        'AUTH_JWT_SECRET or AUTH_JWKS_URL is required when NODE_ENV=production; ' +
        'SECRETS_KEY is required when NODE_ENV=production',
    );
    expect(message).not.toContain('\n');
  });

  it('refuses production with AUTH_JWKS_URL but no AUTH_JWT_AUDIENCE, naming it in one line', () => {
    const { AUTH_JWT_SECRET: _secret, ...jwks } = { ...PRODUCTION, AUTH_JWKS_URL: 'https://id.example.com/jwks.json' };

    expect(problemOf({ ...jwks, AUTH_JWT_AUDIENCE: ' ' })).toBe(
      'Invalid configuration: AUTH_JWT_AUDIENCE is required when NODE_ENV=production with AUTH_JWKS_URL',
    );
    expect(loadAppConfig({ ...jwks, AUTH_JWT_AUDIENCE: 'platform-api' }).auth).toEqual({
      mode: 'jwks',
      jwksUrl: 'https://id.example.com/jwks.json',
      issuer: undefined,
      audience: 'platform-api',
    });
  });

  it('bounds slow clients by default, and takes the HTTP timeouts from the environment', () => {
    expect(loadAppConfig({}).httpTimeouts).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 });
    expect(loadAppConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '20000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000' }).httpTimeouts).toEqual({
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 20_000,
      keepAliveTimeoutMs: 75_000,
    });
  });

  it("runs connector tests with the contract's defaults, or as the environment says", () => {
    expect(loadAppConfig({ NODE_ENV: 'test' }).connectorTests).toEqual({ allowedCidrs: [], timeoutMs: 10_000, perMinute: 30 });
    expect(
      loadAppConfig({ OUTBOUND_ALLOWED_CIDRS: '10.20.0.0/16, fd00::/8', CONNECTOR_TEST_TIMEOUT_MS: '2500', CONNECTOR_TEST_PER_MINUTE: '5' }).connectorTests,
    ).toEqual({ allowedCidrs: ['10.20.0.0/16', 'fd00::/8'], timeoutMs: 2_500, perMinute: 5 });
  });

  it('admits the demo echo target alone by default in development, never in production or test, and nothing when set empty', () => {
    expect(loadAppConfig({}).connectorTests.allowedCidrs).toEqual(['127.0.0.2/32']);
    expect(loadAppConfig({ NODE_ENV: 'development', OUTBOUND_ALLOWED_CIDRS: '' }).connectorTests.allowedCidrs).toEqual([]);
    expect(loadAppConfig({ NODE_ENV: 'development', OUTBOUND_ALLOWED_CIDRS: '10.0.0.0/8' }).connectorTests.allowedCidrs).toEqual(['10.0.0.0/8']);
    expect(loadAppConfig({ NODE_ENV: 'test' }).connectorTests.allowedCidrs).toEqual([]);
    expect(loadAppConfig(PRODUCTION).connectorTests.allowedCidrs).toEqual([]);
  });

  it('refuses an OUTBOUND_ALLOWED_CIDRS entry that is not a CIDR, and out-of-range test-run limits', () => {
    expect(problemOf({ OUTBOUND_ALLOWED_CIDRS: '10.0.0.0/8,10.0.0.1,example.com/8' })).toBe(
      'Invalid configuration: OUTBOUND_ALLOWED_CIDRS must be comma-separated CIDRs such as 10.20.0.0/16 or fd00::/8 (not: "10.0.0.1", "example.com/8")',
    );
    expect(problemOf({ CONNECTOR_TEST_TIMEOUT_MS: '0' })).toContain('CONNECTOR_TEST_TIMEOUT_MS must not be less than 100');
    expect(problemOf({ CONNECTOR_TEST_PER_MINUTE: 'many' })).toContain('CONNECTOR_TEST_PER_MINUTE must be an integer number');
  });

  it('parks an event after 5 refusals by default, or as EVENTS_PUBLISH_MAX_ATTEMPTS says, and refuses it out of 1-100', () => {
    expect(loadAppConfig({}).changeEvents.maxPublishAttempts).toBe(5);
    expect(loadAppConfig({ EVENTS_PUBLISH_MAX_ATTEMPTS: '12' }).changeEvents.maxPublishAttempts).toBe(12);
    expect(problemOf({ EVENTS_PUBLISH_MAX_ATTEMPTS: '0' })).toBe('Invalid configuration: EVENTS_PUBLISH_MAX_ATTEMPTS must not be less than 1');
    expect(problemOf({ EVENTS_PUBLISH_MAX_ATTEMPTS: '101' })).toBe('Invalid configuration: EVENTS_PUBLISH_MAX_ATTEMPTS must not be greater than 100');
    expect(problemOf({ EVENTS_PUBLISH_MAX_ATTEMPTS: 'often' })).toContain('EVENTS_PUBLISH_MAX_ATTEMPTS must be an integer number');
  });

  it('takes the replicas, their lag bound and the statement deadline from the environment, and refuses them out of range', () => {
    const sut = loadAppConfig({
      ...PRODUCTION,
      DATABASE_READ_URLS: 'mysql://app:pw@replica-1:3306/platform,mysql://app:pw@replica-2:3306/platform',
      DATABASE_REPLICA_MAX_LAG_MS: '2500',
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
    });

    expect(sut.database).toEqual({
      type: 'mysql',
      url: PRODUCTION.DATABASE_URL,
      readUrls: ['mysql://app:pw@replica-1:3306/platform', 'mysql://app:pw@replica-2:3306/platform'],
      replicaMaxLagMs: 2500,
      statementTimeoutMs: 3000,
    });
    expect(problemOf({ ...PRODUCTION, DATABASE_REPLICA_MAX_LAG_MS: '500', DATABASE_STATEMENT_TIMEOUT_MS: 'soon' })).toMatch(
      /DATABASE_REPLICA_MAX_LAG_MS must not be less than 1000.*DATABASE_STATEMENT_TIMEOUT_MS must be an integer/,
    );
  });

  it('listens on 127.0.0.1 outside production and on every interface in production, unless HOST says otherwise', () => {
    expect(loadAppConfig({}).host).toBe('127.0.0.1');
    expect(loadAppConfig(PRODUCTION).host).toBeUndefined();
    expect(loadAppConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadAppConfig({ ...PRODUCTION, HOST: '::' }).host).toBe('::');
    expect(problemOf({ HOST: 'localhost' })).toMatch(/HOST must be an IP address to listen on, such as 127.0.0.1/);
  });

  it('serves the API documents unless API_DOCS=off', () => {
    expect(loadAppConfig({}).apiDocs).toBe(true);
    expect(loadAppConfig({ API_DOCS: 'off' }).apiDocs).toBe(false);
    expect(problemOf({ API_DOCS: 'no' })).toMatch(/API_DOCS must be on or off/);
  });

  it('trusts no proxy unless TRUST_PROXY_HOPS says how many are in front', () => {
    expect(loadAppConfig({}).trustProxyHops).toBe(0);
    expect(loadAppConfig({ TRUST_PROXY_HOPS: '1' }).trustProxyHops).toBe(1);
    expect(problemOf({ TRUST_PROXY_HOPS: 'true' })).toContain('TRUST_PROXY_HOPS must be an integer number');
  });

  it('refuses a headers timeout longer than the request timeout, as node:http does', () => {
    expect(problemOf({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toBe(
      'Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS',
    );
  });

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: '0' }, 'HTTP_HEADERS_TIMEOUT_MS must not be less than 1'],
    [{ HTTP_REQUEST_TIMEOUT_MS: '30s' }, 'HTTP_REQUEST_TIMEOUT_MS must be an integer number'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '-5' }, 'HTTP_KEEP_ALIVE_TIMEOUT_MS must not be less than 1'],
  ])('rejects a malformed HTTP timeout %o', (env, expected) => {
    expect(problemOf(env)).toContain(expected);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer number'],
    [{ PORT: '70000' }, 'PORT must not be greater than 65535'],
    [{ DATABASE_URL: 'postgres://x/y' }, 'DATABASE_URL must be mysql://user:pass@host:3306/db (or mariadb://…) or sqlite:<path>'],
    [{ SECRETS_KEY: Buffer.alloc(16).toString('base64') }, 'SECRETS_KEY must be 32 bytes encoded in base64 (got 16)'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of the following values'],
    [{ AUTH_JWT_SECRET: 'short' }, 'AUTH_JWT_SECRET must be at least 32 characters'],
    [{ AUTH_JWKS_URL: 'not a url' }, 'AUTH_JWKS_URL must be a URL address'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE must not be less than 1'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV must be one of the following values'],
  ])('rejects a malformed variable %o', (env, expected) => {
    expect(problemOf(env)).toContain(expected);
  });

  it('never echoes a secret value in its message', () => {
    const message = problemOf({ AUTH_JWT_SECRET: 'tiny-secret-value' });

    expect(message).not.toContain('tiny-secret-value');
  });

  it('takes PORT=0 (a port the system picks), not a negative port', () => {
    expect(loadAppConfig({ PORT: '0' }, 3001).port).toBe(0);
    expect(problemOf({ PORT: '-1' })).toContain('PORT must not be less than 0');
  });

  it('treats blank variables as unset', () => {
    const sut = loadAppConfig({ PORT: '', DATABASE_URL: ' ', LOG_LEVEL: '' }, 3001);

    expect(sut.port).toBe(3001);
    expect(sut.database.type).toBe('sqlite');
  });
});

import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { dirname, resolve } from 'node:path';
import type { DatabaseConfig } from '@app/domain';
import { ConfigValidationError } from './config-validation.error';
import { EnvironmentVariables, LOG_LEVELS, NODE_ENVS } from './environment-variables';

export const DEFAULT_SQLITE_URL = 'sqlite:./data/platform.sqlite';
/** Where an app listens outside production unless HOST says otherwise. */
export const LOOPBACK = '127.0.0.1';
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/** How long the HTTP server waits for a client (docs/operations.md, "Timeouts"). */
export interface HttpTimeouts {
  /** From the connection (or the request's first byte) to the end of its headers; then 408 and close. */
  headersTimeoutMs: number;
  /** From the request's first byte to the end of its body; then 408 and close. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Longer than the proxies' idle timeout (ingress-nginx keeps upstream connections 60 s): the proxy, not
  // the app, must close an idle connection, or a request it sends as the app closes fails (502).
  keepAliveTimeoutMs: 65_000,
};

/** Connector test runs (docs/api-contract.md, "Connector test runs"). */
export interface ConnectorTestConfig {
  /** OUTBOUND_ALLOWED_CIDRS: private ranges a test run may reach besides public unicast addresses. */
  allowedCidrs: string[];
  /** From connecting to the last byte of the answer, the token request included. */
  timeoutMs: number;
  /** Test runs per caller in any rolling minute. */
  perMinute: number;
}

export const DEFAULT_CONNECTOR_TESTS: ConnectorTestConfig = { allowedCidrs: [], timeoutMs: 10_000, perMinute: 30 };

/**
 * What OUTBOUND_ALLOWED_CIDRS admits in development when it is not set: the demo echo target's address alone
 * (DEMO_ECHO_TARGET of libs/domain, which this file, loaded by the tests' global setup without path aliases, names
 * by value: tools/cli/src/echo-target.spec.ts holds the two together).
 */
export const DEVELOPMENT_ALLOWED_CIDRS: readonly string[] = ['127.0.0.2/32'];

/** Connector change events (docs/operations.md, "Change events"). */
export interface ChangeEventsConfig {
  /** NATS_URL: the JetStream the relay publishes to; unset, events go to the feed only. */
  natsUrl?: string;
  /** NATS_STREAM: the stream's name. */
  stream: string;
  /** EVENTS_RETENTION_DAYS: events older than this (and published, with NATS) are purged. */
  retentionDays: number;
  /**
   * EVENTS_PUBLISH_MAX_ATTEMPTS: an event JetStream refuses this many times is parked (set aside with its connector's
   * later events until replayed); failures of the broker itself (down, no answer) never count.
   */
  maxPublishAttempts: number;
  /** The subjects' first tokens (default `connectors.events`); not a variable: tests set their own on a shared NATS server. */
  subjectPrefix?: string;
}

export const DEFAULT_CHANGE_EVENTS: ChangeEventsConfig = { stream: 'CONNECTOR_EVENTS', retentionDays: 7, maxPublishAttempts: 5 };

export type AuthConfig =
  | { mode: 'secret'; secret: string; issuer?: string; audience?: string }
  | { mode: 'jwks'; jwksUrl: string; issuer?: string; audience?: string }
  /** Outside production with nothing configured: a secret kept in `secretFile` beside the embedded database. */
  | { mode: 'development'; secretFile: string };

/** The validated, typed configuration every part of the platform reads; nothing reads process.env elsewhere. */
export interface AppConfig {
  nodeEnv: (typeof NODE_ENVS)[number];
  port: number;
  /**
   * HOST: the address the app listens on. Outside production 127.0.0.1 unless set (a development token is
   * printed for every organization: nothing else on the network may use it); in production every interface.
   */
  host?: string;
  database: DatabaseConfig;
  auth: AuthConfig;
  /** 32-byte AES-256-GCM key; absent only outside production. */
  secretsKey?: Buffer;
  secretsKeyPrevious?: Buffer;
  /** Without SECRETS_KEY outside production: a key kept in this file beside the embedded database. */
  developmentSecretsKeyFile?: string;
  rateLimitPerMinute: number;
  /** REDIS_URL: where the rate limits are counted across replicas; unset, each process counts its own. */
  redisUrl?: string;
  /** Proxies in front of the app that append X-Forwarded-For: `req.ip` is the address the outermost of them saw. */
  trustProxyHops: number;
  httpTimeouts: HttpTimeouts;
  corsOrigins: string[];
  connectorTests: ConnectorTestConfig;
  changeEvents: ChangeEventsConfig;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * API_DOCS (default on): Swagger UI and the OpenAPI documents at `/{label}/docs`, `docs-json`, `docs-yaml`, and an
   * app's AsyncAPI document at `docs-asyncapi`; off, those paths are 404 (a production deployment that publishes its
   * documents elsewhere).
   */
  apiDocs: boolean;
  /** PERFORMANCE_OVERRIDES (default on): off runs the stock library path (libs/platform/src/performance/README.md). */
  performanceOverrides: boolean;
}

/**
 * Validates the environment once, at start. Any problem throws a ConfigValidationError
 * whose message is one line naming every offending variable (never its value).
 */
export function loadAppConfig(env: NodeJS.ProcessEnv, defaultPort = 3000): AppConfig {
  const vars = plainToInstance(EnvironmentVariables, pickKnown(env));
  const problems = validateSync(vars, { forbidUnknownValues: false, stopAtFirstError: true }).flatMap(describe);
  const nodeEnv = vars.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  if (production) problems.push(...productionProblems(env, vars));
  const httpTimeouts = httpTimeoutsOf(vars, problems);
  if (vars.AUTH_JWT_SECRET && vars.AUTH_JWKS_URL) problems.push('AUTH_JWT_SECRET and AUTH_JWKS_URL are exclusive: set one');
  const secretsKey = decodeKey('SECRETS_KEY', vars.SECRETS_KEY, problems);
  const secretsKeyPrevious = decodeKey('SECRETS_KEY_PREVIOUS', vars.SECRETS_KEY_PREVIOUS, problems);
  const database = databaseOf(vars, problems);
  const connectorTests = connectorTestsOf(vars, nodeEnv === 'development' && env.OUTBOUND_ALLOWED_CIDRS === undefined, problems);
  if (problems.length > 0 || !database) {
    throw new ConfigValidationError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return {
    nodeEnv,
    port: vars.PORT ?? defaultPort,
    host: vars.HOST ?? (production ? undefined : LOOPBACK),
    database,
    auth: authConfig(vars, database),
    secretsKey,
    secretsKeyPrevious,
    developmentSecretsKeyFile: secretsKey ? undefined : resolve(dataDirOf(database), 'dev-secrets-key'),
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    redisUrl: vars.REDIS_URL,
    trustProxyHops: vars.TRUST_PROXY_HOPS ?? 0,
    httpTimeouts,
    corsOrigins: splitList(vars.CORS_ORIGINS),
    connectorTests,
    changeEvents: {
      natsUrl: vars.NATS_URL,
      stream: vars.NATS_STREAM ?? DEFAULT_CHANGE_EVENTS.stream,
      retentionDays: vars.EVENTS_RETENTION_DAYS ?? DEFAULT_CHANGE_EVENTS.retentionDays,
      maxPublishAttempts: vars.EVENTS_PUBLISH_MAX_ATTEMPTS ?? DEFAULT_CHANGE_EVENTS.maxPublishAttempts,
    },
    logLevel: vars.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    performanceOverrides: vars.PERFORMANCE_OVERRIDES !== 'off',
    apiDocs: vars.API_DOCS !== 'off',
  };
}

/** What production cannot run without: a database, a way to check tokens, a key for the secrets. */
function productionProblems(env: NodeJS.ProcessEnv, vars: EnvironmentVariables): string[] {
  const problems: string[] = [];
  if (!env.DATABASE_URL?.trim()) problems.push('DATABASE_URL is required when NODE_ENV=production');
  if (!env.AUTH_JWT_SECRET?.trim() && !env.AUTH_JWKS_URL?.trim()) problems.push('AUTH_JWT_SECRET or AUTH_JWKS_URL is required when NODE_ENV=production');
  if (!env.SECRETS_KEY?.trim()) problems.push('SECRETS_KEY is required when NODE_ENV=production');
  // An identity provider issues tokens to many clients: without an audience, one issued to another client of the
  // same provider would pass.
  if (vars.AUTH_JWKS_URL && !vars.AUTH_JWT_AUDIENCE) problems.push('AUTH_JWT_AUDIENCE is required when NODE_ENV=production with AUTH_JWKS_URL');
  return problems;
}

function httpTimeoutsOf(vars: EnvironmentVariables, problems: string[]): HttpTimeouts {
  const timeouts: HttpTimeouts = {
    headersTimeoutMs: vars.HTTP_HEADERS_TIMEOUT_MS ?? DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs,
    requestTimeoutMs: vars.HTTP_REQUEST_TIMEOUT_MS ?? DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs,
    keepAliveTimeoutMs: vars.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs,
  };
  // node:http refuses a headers timeout longer than the request's (the request includes its headers).
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) problems.push('HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS');
  return timeouts;
}

/** The embedded SQLite file, or a MySQL/MariaDB server with its read replicas; undefined when it cannot be. */
function databaseOf(vars: EnvironmentVariables, problems: string[]): DatabaseConfig | undefined {
  const url = vars.DATABASE_URL ?? DEFAULT_SQLITE_URL;
  const readUrls = splitList(vars.DATABASE_READ_URLS);
  if (!url.startsWith('sqlite:')) {
    return parseServerUrl(url, readUrls, { replicaMaxLagMs: vars.DATABASE_REPLICA_MAX_LAG_MS, statementTimeoutMs: vars.DATABASE_STATEMENT_TIMEOUT_MS });
  }
  if (readUrls.length === 0) return { type: 'sqlite', path: resolve(url.slice('sqlite:'.length)) };
  problems.push('DATABASE_READ_URLS needs a mysql:// DATABASE_URL');
  return undefined;
}

/**
 * OUTBOUND_ALLOWED_CIDRS as set (empty: nothing); `echoDefault` (development, the variable not set at all), the demo
 * echo target's address alone (DEVELOPMENT_ALLOWED_CIDRS), so that the demo's first test run succeeds. Never so in production
 * or test: there nothing is admitted unless named.
 */
function connectorTestsOf(vars: EnvironmentVariables, echoDefault: boolean, problems: string[]): ConnectorTestConfig {
  const allowedCidrs = echoDefault ? [...DEVELOPMENT_ALLOWED_CIDRS] : splitList(vars.OUTBOUND_ALLOWED_CIDRS);
  const badCidrs = allowedCidrs.filter((cidr) => !isCidr(cidr));
  if (badCidrs.length > 0) {
    problems.push(
      `OUTBOUND_ALLOWED_CIDRS must be comma-separated CIDRs such as 10.20.0.0/16 or fd00::/8 (not: ${badCidrs.map((cidr) => JSON.stringify(cidr.slice(0, 50))).join(', ')})`,
    );
  }
  return {
    allowedCidrs,
    timeoutMs: vars.CONNECTOR_TEST_TIMEOUT_MS ?? DEFAULT_CONNECTOR_TESTS.timeoutMs,
    perMinute: vars.CONNECTOR_TEST_PER_MINUTE ?? DEFAULT_CONNECTOR_TESTS.perMinute,
  };
}

function authConfig(vars: EnvironmentVariables, database: DatabaseConfig): AuthConfig {
  const claims = { issuer: vars.AUTH_JWT_ISSUER, audience: vars.AUTH_JWT_AUDIENCE };
  if (vars.AUTH_JWT_SECRET) return { mode: 'secret', secret: vars.AUTH_JWT_SECRET, ...claims };
  if (vars.AUTH_JWKS_URL) return { mode: 'jwks', jwksUrl: vars.AUTH_JWKS_URL, ...claims };
  return { mode: 'development', secretFile: resolve(dataDirOf(database), 'dev-jwt-secret') };
}

/** Where development-only files live: beside the embedded database, or ./data. */
function dataDirOf(database: DatabaseConfig): string {
  return database.type === 'sqlite' ? dirname(database.path) : resolve('data');
}

/** `mysql://…` or `mariadb://…`; mysql2 is given the URL with the mysql scheme either way. */
export function parseServerUrl(url: string, readUrls: string[] = [], tuning: { replicaMaxLagMs?: number; statementTimeoutMs?: number } = {}): DatabaseConfig {
  const type = url.startsWith('mariadb:') ? 'mariadb' : 'mysql';
  const toMysql = (u: string) => u.replace(/^mariadb:/, 'mysql:');
  return { type, url: toMysql(url), readUrls: readUrls.map(toMysql), ...definedOnly(tuning) };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function decodeKey(name: string, value: string | undefined, problems: string[]): Buffer | undefined {
  if (value === undefined) return undefined;
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) {
    problems.push(`${name} must be 32 bytes encoded in base64 (got ${key.length})`);
    return undefined;
  }
  return key;
}

/** A CIDR as ipaddr.js reads it (the outbound guard admits ranges with the same parser). */
function isCidr(value: string): boolean {
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** The variables EnvironmentVariables declares (each has a validation rule), and no other: read from its metadata. */
const KNOWN_VARIABLES = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(EnvironmentVariables, '', true, false)
      .map((rule) => rule.propertyName),
  ),
];

function pickKnown(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(KNOWN_VARIABLES.map((key) => [key, env[key]]));
}

function describe(error: ValidationError): string[] {
  return Object.values(error.constraints ?? {}).map((message) => (message.startsWith(error.property) ? message : `${error.property} ${message}`));
}

import { Transform } from 'class-transformer';
import { IsBase64, IsIn, IsInt, IsIP, IsOptional, IsString, IsUrl, Matches, Max, MinLength, Min } from 'class-validator';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const ON_OFF = ['on', 'off'] as const;

const DATABASE_URL_PATTERN = /^((mysql|mariadb):\/\/[^\s/]+\/[A-Za-z0-9_$-]+(\?\S*)?|sqlite:\S+)$/;
const MYSQL_URL_LIST_PATTERN = /^mysql:\/\/[^\s/,]+\/[A-Za-z0-9_$-]+(\?[^\s,]*)?(,\s*mysql:\/\/[^\s/,]+\/[A-Za-z0-9_$-]+(\?[^\s,]*)?)*$/;

/** Blank variables count as unset, the way shells and Kubernetes often leave them. */
const emptyToUndefined = ({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const toInt = ({ value }: { value: unknown }) => {
  const v = emptyToUndefined({ value });
  return typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
};

/**
 * The process environment as the platform accepts it. Every variable is listed,
 * with a comment, in `.env.example`; the rules that depend on NODE_ENV live in
 * `loadAppConfig`.
 */
export class EnvironmentVariables {
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(NODE_ENVS)
  NODE_ENV?: (typeof NODE_ENVS)[number];

  @Transform(toInt)
  // Decorators run bottom-up and validation stops at the first failure: type before range.
  @IsOptional()
  @Min(1)
  @Max(65535)
  @IsInt()
  PORT?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIP(undefined, { message: 'must be an IP address to listen on, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)' })
  HOST?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(DATABASE_URL_PATTERN, { message: 'must be mysql://user:pass@host:3306/db (or mariadb://…) or sqlite:<path>' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(MYSQL_URL_LIST_PATTERN, { message: 'must be a comma-separated list of mysql:// URLs' })
  DATABASE_READ_URLS?: string;

  @Transform(toInt)
  @IsOptional()
  // Above the replicas' probe interval (0.5 s): a write is known to the lag measure within it.
  @Min(1_000)
  @Max(3_600_000)
  @IsInt()
  DATABASE_REPLICA_MAX_LAG_MS?: number;

  @Transform(toInt)
  @IsOptional()
  @Min(100)
  @Max(60_000)
  @IsInt()
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  AUTH_JWT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  AUTH_JWKS_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AUTH_JWT_ISSUER?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AUTH_JWT_AUDIENCE?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsBase64()
  SECRETS_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsBase64()
  SECRETS_KEY_PREVIOUS?: string;

  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @IsInt()
  RATE_LIMIT_PER_MINUTE?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be redis://[user:password@]host:6379[/db] (or rediss:// for TLS)' })
  REDIS_URL?: string;

  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @IsInt()
  HTTP_HEADERS_TIMEOUT_MS?: number;

  @Transform(toInt)
  @IsOptional()
  @Min(0)
  @IsInt()
  TRUST_PROXY_HOPS?: number;

  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @IsInt()
  HTTP_REQUEST_TIMEOUT_MS?: number;

  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @IsInt()
  HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  OUTBOUND_ALLOWED_CIDRS?: string;

  @Transform(toInt)
  @IsOptional()
  @Min(100)
  @Max(120_000)
  @IsInt()
  CONNECTOR_TEST_TIMEOUT_MS?: number;

  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @IsInt()
  CONNECTOR_TEST_PER_MINUTE?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(ON_OFF)
  PERFORMANCE_OVERRIDES?: (typeof ON_OFF)[number];

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(ON_OFF, { message: 'must be on or off' })
  API_DOCS?: (typeof ON_OFF)[number];

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(nats|tls):\/\/[^\s,]+(,\s*(nats|tls):\/\/[^\s,]+)*$/, { message: 'must be nats://host:4222 (or tls://…), several comma-separated for a cluster' })
  NATS_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'must be a JetStream stream name: letters, digits, _ and -, at most 64' })
  NATS_STREAM?: string;

  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @Max(3650)
  @IsInt()
  EVENTS_RETENTION_DAYS?: number;

  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @Max(100)
  @IsInt()
  EVENTS_PUBLISH_MAX_ATTEMPTS?: number;
}

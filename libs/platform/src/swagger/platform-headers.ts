import { OpenAPIObject } from '@nestjs/swagger';
import { ACCEPTABLE_REQUEST_ID, REQUEST_ID_HEADER } from '../http/request-id.middleware';
import { BUCKETS, SLOTS } from '../performance/rate-limit-counters';
import { CONSISTENCY_TOKEN_EXAMPLE, CONSISTENCY_TOKEN_HEADER } from '../database/consistency-token';

/** What a Consistency-Token looks like: a MariaDB GTID position (up to 16 `domain-server-sequence`). */
const CONSISTENCY_TOKEN_FORMAT = {
  type: 'string',
  maxLength: 512,
  pattern: '^\\d{1,10}-\\d{1,10}-\\d{1,20}(,\\d{1,10}-\\d{1,10}-\\d{1,20}){0,15}$',
};

const INT32_MAX = 2_147_483_647;
const integer = (maximum: number) => ({ type: 'integer', format: 'int32', minimum: 0, maximum });
/**
 * The rate limit's window is a minute, counted in buckets of a tenth of it: a request is counted for at least the
 * minute and at most a bucket longer (RateLimitCounters), so no wait or reset is longer than 66 s.
 */
const seconds = integer(Math.ceil((60 * SLOTS) / BUCKETS));

/** The headers the platform's edge adds to answers (middleware, rate limit guard, exception filter). */
const HEADERS = {
  [REQUEST_ID_HEADER]: {
    description: "The request id, also in the error body and the logs: the caller's `X-Request-Id` when acceptable, a new UUID otherwise.",
    required: true,
    schema: { type: 'string', maxLength: 128, pattern: ACCEPTABLE_REQUEST_ID.source },
  },
  'X-RateLimit-Limit': {
    description:
      'Requests a caller may make in any rolling minute, across all replicas (with REDIS_URL; each replica alone without). The X-RateLimit headers are absent while the limit cannot be counted (Redis unreachable).',
    schema: integer(INT32_MAX),
  },
  'X-RateLimit-Remaining': { description: 'Requests left to the caller in the current window.', schema: integer(INT32_MAX) },
  'X-RateLimit-Reset': { description: 'Seconds until the oldest counted request leaves the window.', schema: seconds },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: seconds },
  [CONSISTENCY_TOKEN_HEADER]: {
    description:
      "Where this write committed, when the deployment reads from replicas (absent otherwise). Send it back as the `Consistency-Token` request header and the reads of that request see this write, whoever sends it; the writer's own reads see it without the header.",
    schema: { ...CONSISTENCY_TOKEN_FORMAT, example: CONSISTENCY_TOKEN_EXAMPLE },
  },
  'WWW-Authenticate': { description: 'The bearer challenge (RFC 6750), with `error` when a token was given.', required: true, schema: { type: 'string' } },
};
type HeaderName = keyof typeof HEADERS;

const RATE_LIMIT: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * Which headers an answer carries, by status. The rate limit headers come with every answer that passed
 * the rate limit guard, so not with those given before it: 401 and 403 (the JWT guard runs first), 413 and
 * 415 (body middleware), 429 (the limit itself). A 400 from the body parser has none either, one from
 * validation has them: documented headers are optional unless `required`.
 */
function headersOf(status: string, method: string): HeaderName[] {
  const names: HeaderName[] = [REQUEST_ID_HEADER];
  if (WRITE_METHODS.has(method) && status.startsWith('2')) names.push(CONSISTENCY_TOKEN_HEADER);
  if (!['401', '403', '413', '415', '429'].includes(status)) names.push(...RATE_LIMIT);
  if (status === '401') names.push('WWW-Authenticate');
  if (status === '429' || status === '503') names.push('Retry-After');
  return names;
}

/** The request id a caller may send, on every operation. */
const REQUEST_ID_PARAMETER = {
  name: REQUEST_ID_HEADER,
  in: 'header',
  required: false,
  description: "An id of the caller's choice, echoed in the answer and logged; any other value is replaced by a new UUID, not refused.",
  schema: { type: 'string', maxLength: 128, pattern: ACCEPTABLE_REQUEST_ID.source },
};

/**
 * A write of one request's caller, to read after it from any replica (docs/api-contract.md, "Consistency tokens").
 * No example nor default, here or in its schema: Swagger UI fills a parameter's "Try it out" field with either and
 * sends it with every request tried there, a token no write of the caller answered. Its form is in the description.
 */
const CONSISTENCY_TOKEN_PARAMETER = {
  name: CONSISTENCY_TOKEN_HEADER,
  in: 'header',
  required: false,
  description:
    'The `Consistency-Token` a write answered, sent back as it came: the reads of this request see that write (and everything before it), on whatever replica of the database they run. ' +
    `Leave it out unless a write gave you one. Its form: up to 16 \`domain-server-sequence\` groups of digits, comma-separated (such as \`${CONSISTENCY_TOKEN_EXAMPLE}\`); any other value is a 400.`,
  schema: CONSISTENCY_TOKEN_FORMAT,
};

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

type Operation = { parameters?: unknown[]; responses?: Record<string, { headers?: Record<string, unknown> }> };

/**
 * Declares, on every operation and status, the headers the edge sends (as `components.headers`, those used), and
 * the `X-Request-Id` and `Consistency-Token` a caller may send. Added where the document is built: they come from the platform, not
 * from any one controller.
 */
export function withPlatformHeaders(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item as Record<string, Operation>).map(([method, operation]) => [method, withHeaders(operation, method)])),
    ]),
  );
  const used = Object.fromEntries(Object.entries(HEADERS).filter(([name]) => JSON.stringify(paths).includes(`"#/components/headers/${name}"`)));
  return { ...document, paths, components: { ...document.components, headers: { ...document.components?.headers, ...used } } };
}

function withHeaders(operation: Operation, method: string): Operation {
  const responses = Object.fromEntries(
    Object.entries(operation.responses ?? {}).map(([status, response]) => {
      const refs = Object.fromEntries(headersOf(status, method).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
      return [status, { ...response, headers: { ...response.headers, ...refs } }];
    }),
  );
  return { ...operation, parameters: [...(operation.parameters ?? []), REQUEST_ID_PARAMETER, CONSISTENCY_TOKEN_PARAMETER], responses };
}

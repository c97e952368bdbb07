import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { ErrorBody } from './error-body';
import { BODY_LIMIT_BYTES, BODY_TOO_LARGE_MESSAGE } from './json-body.middleware';

/** The ids the error examples name, by path parameter: the same in messages and in paths. */
export const EXAMPLE_IDS: Record<string, string> = {
  orgUUID: '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01',
  envUUID: '1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02',
  botUUID: '6bcfa28e-7d7a-4ae4-9a9e-bf7fc1fd8a07',
  serviceUUID: 'aa0de6c2-b1be-4e28-9ed2-f3bd0531ce0b',
};

/** A `message` typical of each status, for the documented examples. */
const EXAMPLE_MESSAGES: Record<number, string | string[]> = {
  400: ['name is required', 'method is not a field of this body; did you mean requestType?'],
  401: 'Authorization: Bearer <token> is required',
  403: `Not allowed to access organization ${EXAMPLE_IDS.orgUUID}`,
  404: `Bot ${EXAMPLE_IDS.botUUID} not found in environment ${EXAMPLE_IDS.envUUID}`,
  409: 'A rest connector named "Weather forecast" already exists in this bot',
  410: 'The cursor is older than the events kept (EVENTS_RETENTION_DAYS): list the connectors again, then follow the feed without after (from the oldest event kept), skipping the versions your list already has',
  412: `Rest connector ${EXAMPLE_IDS.serviceUUID} has changed since the ETag given in If-Match: its current ETag is "v4"; read it again, then send If-Match: "v4"`,
  413: BODY_TOO_LARGE_MESSAGE,
  415: 'The request body must be application/json in UTF-8',
  422: 'This Idempotency-Key was already used with a different request',
  429: 'Rate limit of 600 requests per minute exceeded',
  500: 'Internal server error',
  503: 'The database is unavailable; retry later',
};

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid path id, query or body; `message` lists every failing field',
  401: 'Missing, invalid or expired bearer token (`WWW-Authenticate: Bearer`)',
  403: 'The token does not cover this organization, or lacks the scope of the operation',
  404: 'Unknown or out-of-scope resource; `message` names what was not found',
  409: 'Another active connector of the bot has that name (case-insensitive)',
  410: 'The feed cursor is older than the events kept (checked after the path: a path outside the organization is a 404 first): list again, then follow the feed from its oldest event',
  412: '`If-Match` does not match the current `ETag`',
  413: `Body over ${BODY_LIMIT_BYTES / 1024} KiB`,
  415: 'Body is not `application/json` in UTF-8',
  422: '`Idempotency-Key` reused with a different body',
  429: 'Rate limit passed; see `Retry-After`',
  500: 'An unexpected error: logged with the request id, answered without detail',
  503: 'The database is unavailable; retry later',
};

/**
 * Documents each listed error status with the contract's error body. The example's `path` is a stand-in:
 * the document builder puts each operation's own path there (withOwnErrorExamplePaths).
 */
export const ApiErrorResponses = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status],
        type: ErrorBody,
        example: {
          statusCode: status,
          error: STATUS_CODES[status],
          message: EXAMPLE_MESSAGES[status],
          path: '/',
          timestamp: '2026-11-21T09:00:00.000Z',
          requestId: '6f1c2b1e-9a53-4f5e-8d43-2f8f6f0b4a10',
        },
      }),
    ),
  );

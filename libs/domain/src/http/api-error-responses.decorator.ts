import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from './error-body';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid path id, query or body; `message` lists every failing field',
  401: 'Missing, invalid or expired bearer token (`WWW-Authenticate: Bearer`)',
  403: 'The token does not cover this organization, or lacks the scope of the operation',
  404: 'Unknown or out-of-scope resource; `message` names what was not found',
  409: 'Another active connector of the bot has that name (case-insensitive)',
  412: '`If-Match` does not match the current `ETag`',
  413: 'Body over 256 KiB',
  415: 'Body is not `application/json`',
  422: '`Idempotency-Key` reused with a different body',
  429: 'Rate limit passed; see `Retry-After`',
  503: 'The database is unavailable; retry later',
};

/** Documents each listed error status with the contract's error body. */
export const ApiErrorResponses = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorBody })),
  );

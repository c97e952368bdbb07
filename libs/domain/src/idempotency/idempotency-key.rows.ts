import { tableRows } from '../database/table-rows';
import { IdempotencyKey } from './idempotency-key.entity';

/** The rows of idempotency_keys (see TableRows). */
export const IDEMPOTENCY_KEY_ROWS = tableRows<IdempotencyKey>()('idempotency_keys', {
  callerSub: ['caller_sub', 'text'],
  idempotencyKey: ['idempotency_key', 'text'],
  fingerprint: ['fingerprint', 'text'],
  state: ['state', 'text'],
  responseStatus: ['response_status', 'int'],
  responseBody: ['response_body', 'json'],
  lockedAt: ['locked_at', 'date'],
  expiresAt: ['expires_at', 'date'],
});

-- The statements of IdempotencyRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- IdempotencyRepository.insert
INSERT INTO
  idempotency_keys (
    caller_sub,
    idempotency_key,
    fingerprint,
    state,
    response_status,
    response_body,
    locked_at,
    expires_at
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?);

-- IdempotencyRepository.find
SELECT
  k.caller_sub AS caller_sub,
  k.idempotency_key AS idempotency_key,
  k.fingerprint AS fingerprint,
  k.state AS state,
  k.response_status AS response_status,
  k.response_body AS response_body,
  k.locked_at AS locked_at,
  k.expires_at AS expires_at
FROM
  idempotency_keys k
WHERE
  caller_sub = :callerSub
  AND idempotency_key = :idempotencyKey;

-- IdempotencyRepository.deleteIfUnchanged
DELETE FROM idempotency_keys
WHERE
  caller_sub = :callerSub
  AND idempotency_key = :idempotencyKey
  AND locked_at = :lockedAt;

-- IdempotencyRepository.takeOver
UPDATE idempotency_keys
SET
  locked_at = :takenAt
WHERE
  caller_sub = :callerSub
  AND idempotency_key = :idempotencyKey
  AND state = 'in_progress'
  AND locked_at = :lockedAt;

-- IdempotencyRepository.complete
UPDATE idempotency_keys
SET
  state = :state,
  response_status = :responseStatus,
  response_body = :responseBody
WHERE
  caller_sub = :callerSub
  AND idempotency_key = :idempotencyKey;

-- IdempotencyRepository.release
DELETE FROM idempotency_keys
WHERE
  caller_sub = :callerSub
  AND idempotency_key = :idempotencyKey
  AND state = 'in_progress';

-- IdempotencyRepository.deleteExpired
DELETE FROM idempotency_keys
WHERE
  expires_at < :now;

-- The statements of ConnectorTestRunRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ConnectorTestRunRepository.record
INSERT INTO
  connector_test_runs (
    uuid,
    organization_uuid,
    environment_uuid,
    bot_uuid,
    connector_uuid,
    caller_sub,
    caller_username,
    request_id,
    destination_host,
    outcome,
    http_status,
    duration_ms,
    started_at
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- ConnectorTestRunRepository.firstPast (saved)
SELECT
  started_at,
  uuid
FROM
  connector_test_runs
WHERE
  bot_uuid = :botUuid
  AND connector_uuid = :connectorUuid
ORDER BY
  started_at DESC,
  uuid DESC
LIMIT
  1
OFFSET
  :kept;

-- ConnectorTestRunRepository.firstPast (unsaved)
SELECT
  started_at,
  uuid
FROM
  connector_test_runs
WHERE
  bot_uuid = :botUuid
  AND connector_uuid IS NULL
ORDER BY
  started_at DESC,
  uuid DESC
LIMIT
  1
OFFSET
  :kept;

-- ConnectorTestRunRepository.deleteFrom (saved)
DELETE FROM connector_test_runs
WHERE
  bot_uuid = :botUuid
  AND connector_uuid = :connectorUuid
  AND (
    started_at < :startedAt
    OR (
      started_at = :startedAt
      AND uuid <= :uuid
    )
  );

-- ConnectorTestRunRepository.deleteFrom (unsaved)
DELETE FROM connector_test_runs
WHERE
  bot_uuid = :botUuid
  AND connector_uuid IS NULL
  AND (
    started_at < :startedAt
    OR (
      started_at = :startedAt
      AND uuid <= :uuid
    )
  );

-- ConnectorTestRunRepository.ofConnector
SELECT
  r.connector_uuid AS connector_uuid,
  r.caller_sub AS caller_sub,
  r.caller_username AS caller_username,
  r.request_id AS request_id,
  r.destination_host AS destination_host,
  r.outcome AS outcome,
  r.http_status AS http_status,
  r.duration_ms AS duration_ms,
  r.started_at AS started_at
FROM
  connector_test_runs r
  JOIN bots b ON b.uuid = r.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  r.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND r.connector_uuid = :serviceUUID
ORDER BY
  r.started_at DESC,
  r.uuid DESC
LIMIT
  :limit
OFFSET
  :offset;
SELECT
  COUNT(*) AS total
FROM
  connector_test_runs r
  JOIN bots b ON b.uuid = r.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  r.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND r.connector_uuid = :serviceUUID;
SELECT
  1 AS found
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  c.uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorTestRunRepository.ofUnsaved
SELECT
  r.connector_uuid AS connector_uuid,
  r.caller_sub AS caller_sub,
  r.caller_username AS caller_username,
  r.request_id AS request_id,
  r.destination_host AS destination_host,
  r.outcome AS outcome,
  r.http_status AS http_status,
  r.duration_ms AS duration_ms,
  r.started_at AS started_at
FROM
  connector_test_runs r
  JOIN bots b ON b.uuid = r.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  r.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND r.connector_uuid IS NULL
ORDER BY
  r.started_at DESC,
  r.uuid DESC
LIMIT
  :limit
OFFSET
  :offset;
SELECT
  COUNT(*) AS total
FROM
  connector_test_runs r
  JOIN bots b ON b.uuid = r.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  r.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND r.connector_uuid IS NULL;

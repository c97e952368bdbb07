-- The statements of ConnectorHistoryRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ConnectorHistoryRepository.record
INSERT INTO
  rest_connector_versions (
    connector_uuid,
    version,
    operation,
    updated_at,
    updated_by,
    updated_by_image,
    updated_by_sub,
    request_id,
    reason,
    reverted_to,
    changed_fields,
    snapshot,
    promotion_id
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- ConnectorHistoryRepository.recordUnchanged
INSERT INTO
  rest_connector_versions (
    connector_uuid,
    version,
    operation,
    updated_at,
    updated_by,
    updated_by_image,
    updated_by_sub,
    request_id,
    reason,
    changed_fields,
    snapshot,
    promotion_id
  )
SELECT
  v.connector_uuid,
  :to,
  :operation,
  :updatedAt,
  :updatedBy,
  :updatedByImage,
  :updatedBySub,
  :requestId,
  :reason,
  '[]',
  v.snapshot,
  :promotionId
FROM
  rest_connector_versions v
WHERE
  v.connector_uuid = :connectorUuid
  AND v.version = :from;

-- ConnectorHistoryRepository.page
SELECT
  v.connector_uuid AS connector_uuid,
  v.version AS version,
  v.operation AS operation,
  v.updated_at AS updated_at,
  v.updated_by AS updated_by,
  v.updated_by_image AS updated_by_image,
  v.updated_by_sub AS updated_by_sub,
  v.request_id AS request_id,
  v.reason AS reason,
  v.reverted_to AS reverted_to,
  v.changed_fields AS changed_fields,
  v.promotion_id AS promotion_id
FROM
  rest_connector_versions v
  JOIN rest_connectors c ON c.uuid = v.connector_uuid
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  v.connector_uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
ORDER BY
  v.version DESC
LIMIT
  :limit
OFFSET
  :offset;
SELECT
  COUNT(*) AS total
FROM
  rest_connector_versions v
  JOIN rest_connectors c ON c.uuid = v.connector_uuid
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  v.connector_uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorHistoryRepository.one
SELECT
  v.connector_uuid AS connector_uuid,
  v.version AS version,
  v.operation AS operation,
  v.updated_at AS updated_at,
  v.updated_by AS updated_by,
  v.updated_by_image AS updated_by_image,
  v.updated_by_sub AS updated_by_sub,
  v.request_id AS request_id,
  v.reason AS reason,
  v.reverted_to AS reverted_to,
  v.changed_fields AS changed_fields,
  v.snapshot AS snapshot,
  v.promotion_id AS promotion_id
FROM
  rest_connector_versions v
  JOIN rest_connectors c ON c.uuid = v.connector_uuid
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  v.connector_uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND v.version = :version;
SELECT
  1 AS found
FROM
  rest_connector_versions v
  JOIN rest_connectors c ON c.uuid = v.connector_uuid
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  v.connector_uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
LIMIT
  1;

-- ConnectorHistoryRepository.secretsChangedBetween
SELECT
  MAX(
    CASE
      WHEN v.changed_fields LIKE '%"basicToken"%' THEN 1
      ELSE 0
    END
  ) AS basicToken,
  MAX(
    CASE
      WHEN v.changed_fields LIKE '%"bearerToken"%' THEN 1
      ELSE 0
    END
  ) AS bearerToken,
  MAX(
    CASE
      WHEN v.changed_fields LIKE '%"clientSecret"%' THEN 1
      ELSE 0
    END
  ) AS clientSecret,
  MAX(
    CASE
      WHEN v.changed_fields LIKE '%"authPassword"%' THEN 1
      ELSE 0
    END
  ) AS authPassword,
  MAX(
    CASE
      WHEN v.changed_fields LIKE '%"apiKey"%' THEN 1
      ELSE 0
    END
  ) AS apiKey,
  MAX(
    CASE
      WHEN v.changed_fields LIKE '%"headers"%' THEN 1
      ELSE 0
    END
  ) AS headers
FROM
  rest_connector_versions v
WHERE
  v.connector_uuid = :serviceUUID
  AND v.version > :low
  AND v.version <= :high;

-- ConnectorHistoryRepository.trash
SELECT
  c.uuid AS uuid,
  c.name AS name,
  c.deleted_at AS deleted_at,
  c.deleted_by AS deleted_by,
  c.version AS version
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  c.bot_uuid = :botUUID
  AND c.deleted_at IS NOT NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
ORDER BY
  c.deleted_at DESC,
  c.uuid DESC
LIMIT
  :limit
OFFSET
  :offset;
SELECT
  COUNT(*) AS total
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  c.bot_uuid = :botUUID
  AND c.deleted_at IS NOT NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

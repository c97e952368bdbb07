-- The statements of ConnectorPromotionRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ConnectorPromotionRepository.sourceRecords
SELECT
  c.uuid AS uuid,
  c.version AS version,
  v.snapshot AS snapshot
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
  JOIN rest_connector_versions v ON v.connector_uuid = c.uuid
  AND v.version = c.version
WHERE
  c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorPromotionRepository.targetsForWrite
SELECT
  c.uuid AS uuid,
  c.bot_uuid AS bot_uuid,
  c.name AS name,
  c.name_key AS name_key,
  c.active_name_key AS active_name_key,
  c.description AS description,
  c.request_type AS request_type,
  c.url AS url,
  c.headers AS headers,
  c.content_type AS content_type,
  c.auth_type AS auth_type,
  c.grant_type AS grant_type,
  c.basic_token AS basic_token,
  c.bearer_token AS bearer_token,
  c.client_id AS client_id,
  c.client_secret AS client_secret,
  c.oauth_url AS oauth_url,
  c.auth_username AS auth_username,
  c.auth_password AS auth_password,
  c.api_key_name AS api_key_name,
  c.api_key_in AS api_key_in,
  c.api_key AS api_key,
  c.body AS body,
  c.output AS output,
  c.created_at AS created_at,
  c.created_by AS created_by,
  c.updated_at AS updated_at,
  c.updated_by AS updated_by,
  c.updated_by_image AS updated_by_image,
  c.deleted_at AS deleted_at,
  c.deleted_by AS deleted_by,
  c.version AS version,
  c.tags_json AS tags_json,
  c.tag_keys AS tag_keys,
  c.flows_json AS flows_json,
  v.snapshot AS snapshot
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
  LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid
  AND v.version = c.version
WHERE
  c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorPromotionRepository.forWriteByUuids
SELECT
  c.uuid AS uuid,
  c.bot_uuid AS bot_uuid,
  c.name AS name,
  c.name_key AS name_key,
  c.active_name_key AS active_name_key,
  c.description AS description,
  c.request_type AS request_type,
  c.url AS url,
  c.headers AS headers,
  c.content_type AS content_type,
  c.auth_type AS auth_type,
  c.grant_type AS grant_type,
  c.basic_token AS basic_token,
  c.bearer_token AS bearer_token,
  c.client_id AS client_id,
  c.client_secret AS client_secret,
  c.oauth_url AS oauth_url,
  c.auth_username AS auth_username,
  c.auth_password AS auth_password,
  c.api_key_name AS api_key_name,
  c.api_key_in AS api_key_in,
  c.api_key AS api_key,
  c.body AS body,
  c.output AS output,
  c.created_at AS created_at,
  c.created_by AS created_by,
  c.updated_at AS updated_at,
  c.updated_by AS updated_by,
  c.updated_by_image AS updated_by_image,
  c.deleted_at AS deleted_at,
  c.deleted_by AS deleted_by,
  c.version AS version,
  c.tags_json AS tags_json,
  c.tag_keys AS tag_keys,
  c.flows_json AS flows_json,
  v.snapshot AS snapshot
FROM
  rest_connectors c
  LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid
  AND v.version = c.version
WHERE
  c.bot_uuid = :botUuid
  AND c.uuid IN (:uuid0);

-- ConnectorPromotionRepository.snapshotsAt
SELECT
  v.connector_uuid AS connector_uuid,
  v.version AS version,
  v.snapshot AS snapshot
FROM
  rest_connector_versions v
WHERE
  (
    v.connector_uuid = :uuid0
    AND v.version = :version0
  );

-- ConnectorPromotionRepository.insert
INSERT INTO
  connector_promotions (
    uuid,
    organization_uuid,
    environment_uuid,
    bot_uuid,
    source_environment_uuid,
    source_bot_uuid,
    prune,
    created_at,
    created_by,
    created_by_sub,
    request_id,
    reason,
    created,
    updated,
    deleted,
    unchanged,
    items,
    reverted_at,
    reverted_by
  )
VALUES
  (
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?
  );

-- ConnectorPromotionRepository.markReverted
UPDATE connector_promotions
SET
  reverted_at = :revertedAt,
  reverted_by = :revertedBy
WHERE
  uuid = :uuid
  AND reverted_at IS NULL;

-- ConnectorPromotionRepository.page
SELECT
  p.uuid AS uuid,
  p.organization_uuid AS organization_uuid,
  p.environment_uuid AS environment_uuid,
  p.bot_uuid AS bot_uuid,
  p.source_environment_uuid AS source_environment_uuid,
  p.source_bot_uuid AS source_bot_uuid,
  p.prune AS prune,
  p.created_at AS created_at,
  p.created_by AS created_by,
  p.created_by_sub AS created_by_sub,
  p.request_id AS request_id,
  p.reason AS reason,
  p.created AS created,
  p.updated AS updated,
  p.deleted AS deleted,
  p.unchanged AS unchanged,
  p.reverted_at AS reverted_at,
  p.reverted_by AS reverted_by
FROM
  connector_promotions p
  JOIN bots b ON b.uuid = p.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  p.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
ORDER BY
  p.uuid DESC
LIMIT
  :limit
OFFSET
  :offset;
SELECT
  COUNT(*) AS total
FROM
  connector_promotions p
  JOIN bots b ON b.uuid = p.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  p.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorPromotionRepository.one
SELECT
  p.uuid AS uuid,
  p.organization_uuid AS organization_uuid,
  p.environment_uuid AS environment_uuid,
  p.bot_uuid AS bot_uuid,
  p.source_environment_uuid AS source_environment_uuid,
  p.source_bot_uuid AS source_bot_uuid,
  p.prune AS prune,
  p.created_at AS created_at,
  p.created_by AS created_by,
  p.created_by_sub AS created_by_sub,
  p.request_id AS request_id,
  p.reason AS reason,
  p.created AS created,
  p.updated AS updated,
  p.deleted AS deleted,
  p.unchanged AS unchanged,
  p.items AS items,
  p.reverted_at AS reverted_at,
  p.reverted_by AS reverted_by
FROM
  connector_promotions p
  JOIN bots b ON b.uuid = p.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  p.bot_uuid = :botUUID
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND p.uuid = :promotionId;
SELECT
  1 AS found
FROM
  bots b
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

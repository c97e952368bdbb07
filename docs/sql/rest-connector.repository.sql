-- The statements of RestConnectorRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- RestConnectorRepository.findActive
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
  c.flows_json AS flows_json
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  c.uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- RestConnectorRepository.findActiveWithRelations
SELECT
  c.uuid AS uuid,
  c.name AS name,
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
  c.updated_at AS updated_at,
  c.updated_by AS updated_by,
  c.version AS version,
  c.tags_json AS tags_json,
  c.flows_json AS flows_json
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  c.uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- RestConnectorRepository.findForWrite
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
  c.uuid = :serviceUUID
  AND c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- RestConnectorRepository.findAny
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
  c.flows_json AS flows_json
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

-- RestConnectorRepository.insert
INSERT INTO
  rest_connectors (
    uuid,
    name,
    name_key,
    active_name_key,
    description,
    request_type,
    url,
    headers,
    content_type,
    auth_type,
    grant_type,
    basic_token,
    bearer_token,
    client_id,
    client_secret,
    oauth_url,
    auth_username,
    auth_password,
    api_key_name,
    api_key_in,
    api_key,
    body,
    output,
    created_at,
    created_by,
    updated_at,
    updated_by,
    updated_by_image,
    deleted_at,
    deleted_by,
    version,
    tags_json,
    tag_keys,
    flows_json,
    bot_uuid
  )
VALUES
  (
    :uuid,
    :name,
    :nameKey,
    :activeNameKey,
    :description,
    :requestType,
    :url,
    :headers,
    :contentType,
    :authType,
    :grantType,
    :basicToken,
    :bearerToken,
    :clientId,
    :clientSecret,
    :oauthUrl,
    :authUsername,
    :authPassword,
    :apiKeyName,
    :apiKeyIn,
    :apiKey,
    :body,
    :output,
    :createdAt,
    :createdBy,
    :updatedAt,
    :updatedBy,
    :updatedByImage,
    :deletedAt,
    :deletedBy,
    :version,
    :tagsJson,
    :tagKeys,
    :flowsJson,
    (
      SELECT
        b.uuid
      FROM
        bots b
        JOIN environments e ON e.uuid = b.environment_uuid
      WHERE
        b.uuid = :botUUID
        AND b.environment_uuid = :envUUID
        AND e.organization_uuid = :orgUUID
    )
  );
INSERT INTO
  rest_connector_tags (connector_uuid, name_key, name, position)
VALUES
  (?, ?, ?, ?);

-- RestConnectorRepository.update
UPDATE rest_connectors
SET
  name = :name,
  name_key = :nameKey,
  active_name_key = :activeNameKey,
  description = :description,
  request_type = :requestType,
  url = :url,
  headers = :headers,
  content_type = :contentType,
  auth_type = :authType,
  grant_type = :grantType,
  basic_token = :basicToken,
  bearer_token = :bearerToken,
  client_id = :clientId,
  client_secret = :clientSecret,
  oauth_url = :oauthUrl,
  auth_username = :authUsername,
  auth_password = :authPassword,
  api_key_name = :apiKeyName,
  api_key_in = :apiKeyIn,
  api_key = :apiKey,
  body = :body,
  output = :output,
  updated_at = :updatedAt,
  updated_by = :updatedBy,
  updated_by_image = :updatedByImage,
  tags_json = :tagsJson,
  tag_keys = :tagKeys,
  version = :to
WHERE
  uuid = :uuid
  AND bot_uuid = :botUuid
  AND deleted_at IS NULL
  AND version = :from;
DELETE FROM rest_connector_tags
WHERE
  connector_uuid = :uuid;
INSERT INTO
  rest_connector_tags (connector_uuid, name_key, name, position)
VALUES
  (?, ?, ?, ?);

-- RestConnectorRepository.restore
UPDATE rest_connectors
SET
  deleted_at = :deletedAt,
  deleted_by = :deletedBy,
  active_name_key = :activeNameKey,
  version = :to
WHERE
  uuid = :serviceUUID
  AND bot_uuid = :botUUID
  AND deleted_at IS NOT NULL
  AND version = :from;

-- RestConnectorRepository.softDelete
UPDATE rest_connectors
SET
  deleted_at = :deletedAt,
  deleted_by = :deletedBy,
  active_name_key = :activeNameKey,
  version = :to
WHERE
  uuid = :serviceUUID
  AND bot_uuid = :botUUID
  AND version = :from
  AND deleted_at IS NULL
  AND EXISTS (
    SELECT
      1
    FROM
      bots b
      JOIN environments e ON e.uuid = b.environment_uuid
    WHERE
      b.uuid = :botUUID
      AND b.environment_uuid = :envUUID
      AND e.organization_uuid = :orgUUID
  );

-- RestConnectorRepository.activeWithNameKeys
SELECT
  c.uuid AS uuid,
  c.name AS name,
  c.active_name_key AS active_name_key
FROM
  rest_connectors c
WHERE
  c.bot_uuid = :botUuid
  AND c.active_name_key IN (:nameKey0, :nameKey1);

-- RestConnectorRepository.activeNameKeysStartingWith
SELECT
  c.active_name_key AS active_name_key
FROM
  rest_connectors c
WHERE
  c.bot_uuid = :botUuid
  AND (
    c.active_name_key LIKE :pattern0 ESCAPE '!'
    OR c.active_name_key LIKE :pattern1 ESCAPE '!'
  );

-- RestConnectorRepository.linkedToFlows, MySQL
SELECT
  fc.connector_uuid AS connector_uuid
FROM
  flow_connectors fc
WHERE
  fc.flow_uuid IN (:flowUuid0) FOR
UPDATE;

-- RestConnectorRepository.linkedToFlows, SQLite
SELECT
  fc.connector_uuid AS connector_uuid
FROM
  flow_connectors fc
WHERE
  fc.flow_uuid IN (:flowUuid0);

-- RestConnectorRepository.lockForFlows, MySQL
SELECT
  c.uuid AS uuid
FROM
  rest_connectors c
WHERE
  c.uuid IN (:connectorUuid0)
ORDER BY
  c.uuid FOR
UPDATE;

-- RestConnectorRepository.lockForFlows, SQLite
-- (no statement)

-- RestConnectorRepository.refreshFlows, MySQL
SELECT
  fc.connector_uuid AS connector_uuid,
  f.uuid AS uuid,
  f.name AS name
FROM
  flow_connectors fc
  JOIN rest_connectors c ON c.uuid = fc.connector_uuid
  JOIN flows f ON f.uuid = fc.flow_uuid
  AND f.bot_uuid = c.bot_uuid
WHERE
  fc.connector_uuid IN (:connectorUuid0) LOCK IN SHARE MODE;
UPDATE rest_connectors
SET
  flows_json = :flowsJson
WHERE
  uuid = :uuid;

-- RestConnectorRepository.refreshFlows, SQLite
SELECT
  fc.connector_uuid AS connector_uuid,
  f.uuid AS uuid,
  f.name AS name
FROM
  flow_connectors fc
  JOIN rest_connectors c ON c.uuid = fc.connector_uuid
  JOIN flows f ON f.uuid = fc.flow_uuid
  AND f.bot_uuid = c.bot_uuid
WHERE
  fc.connector_uuid IN (:connectorUuid0);
UPDATE rest_connectors
SET
  flows_json = :flowsJson
WHERE
  uuid = :uuid;

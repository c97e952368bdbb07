-- The statements of ConnectorVariableRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ConnectorVariableRepository.findSet
SELECT
  e.uuid AS environment_uuid,
  s.version AS version
FROM
  environments e
  LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorVariableRepository.findStored
SELECT
  e.uuid AS environment_uuid,
  s.version AS version
FROM
  environments e
  LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorVariableRepository.sharedVersion, MySQL
SELECT
  s.version AS version
FROM
  environments e
  LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID LOCK IN SHARE MODE;

-- ConnectorVariableRepository.sharedVersion, SQLite
SELECT
  s.version AS version
FROM
  environments e
  LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorVariableRepository.lockForWrite, MySQL
SELECT
  s.version AS version
FROM
  environments e
  LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID FOR
UPDATE;

-- ConnectorVariableRepository.lockForWrite, SQLite
-- (no statement)

-- ConnectorVariableRepository.stepSet (first)
INSERT INTO
  connector_variable_sets (
    environment_uuid,
    organization_uuid,
    version,
    updated_at,
    updated_by
  )
SELECT
  e.uuid,
  e.organization_uuid,
  :to,
  :updatedAt,
  :updatedBy
FROM
  environments e
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- ConnectorVariableRepository.stepSet (next)
UPDATE connector_variable_sets
SET
  version = :to,
  updated_at = :updatedAt,
  updated_by = :updatedBy
WHERE
  environment_uuid = :envUUID
  AND organization_uuid = :orgUUID
  AND version = :from;

-- ConnectorVariableRepository.replaceVariables
DELETE FROM connector_variables
WHERE
  environment_uuid = :envUUID;

-- ConnectorVariableRepository.record
INSERT INTO
  connector_variable_set_versions (
    environment_uuid,
    version,
    organization_uuid,
    updated_at,
    updated_by,
    updated_by_sub,
    request_id,
    reason,
    promotion_id,
    changes,
    snapshot
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- ConnectorVariableRepository.page
SELECT
  h.environment_uuid AS environment_uuid,
  h.version AS version,
  h.organization_uuid AS organization_uuid,
  h.updated_at AS updated_at,
  h.updated_by AS updated_by,
  h.updated_by_sub AS updated_by_sub,
  h.request_id AS request_id,
  h.reason AS reason,
  h.promotion_id AS promotion_id,
  h.changes AS changes,
  h.snapshot AS snapshot
FROM
  connector_variable_set_versions h
  JOIN environments e ON e.uuid = h.environment_uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND h.organization_uuid = :orgUUID
ORDER BY
  h.version DESC
LIMIT
  :limit
OFFSET
  :offset;
SELECT
  COUNT(*) AS total
FROM
  connector_variable_set_versions h
  JOIN environments e ON e.uuid = h.environment_uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID
  AND h.organization_uuid = :orgUUID;

-- ConnectorVariableRepository.connectorsOf
SELECT
  c.uuid AS uuid,
  c.bot_uuid AS bot_uuid,
  c.name AS name,
  c.url AS url,
  c.oauth_url AS oauth_url,
  c.auth_type AS auth_type,
  c.grant_type AS grant_type,
  c.headers AS headers,
  c.body AS body,
  c.version AS version,
  c.deleted_at AS deleted_at,
  c.updated_at AS updated_at,
  c.updated_by AS updated_by,
  c.updated_by_image AS updated_by_image,
  c.basic_token AS basic_token,
  c.bearer_token AS bearer_token,
  c.client_secret AS client_secret,
  c.auth_password AS auth_password,
  c.api_key AS api_key,
  v.snapshot AS snapshot
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
  LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid
  AND v.version = c.version
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID
ORDER BY
  c.uuid;

-- ConnectorVariableRepository.clearSecrets
UPDATE rest_connectors
SET
  basic_token = :basicToken,
  bearer_token = :bearerToken,
  client_secret = :clientSecret,
  auth_password = :authPassword,
  api_key = :apiKey,
  headers = :headers,
  updated_at = :updatedAt,
  updated_by = :updatedBy,
  updated_by_image = :updatedByImage,
  version = :to
WHERE
  uuid = :uuid
  AND bot_uuid = :botUuid
  AND version = :from;

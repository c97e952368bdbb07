-- The statements of RestConnectorSearchRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- RestConnectorSearchRepository.listActive
SELECT
  c.uuid AS uuid,
  c.name AS name,
  c.name_key AS name_key,
  c.tags_json AS tags_json,
  cc.content AS content
FROM
  rest_connectors c
  JOIN bots b ON b.uuid = c.bot_uuid
  JOIN environments e ON e.uuid = b.environment_uuid
  LEFT JOIN connector_content cc ON cc.connector_uuid = c.uuid
WHERE
  c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
  AND b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- RestConnectorSearchRepository.page (defaults)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      bots b
      JOIN environments e ON e.uuid = b.environment_uuid
    WHERE
      b.uuid = :botUUID
      AND b.environment_uuid = :envUUID
      AND e.organization_uuid = :orgUUID
  ) AS in_scope,
  (
    SELECT
      COUNT(*)
    FROM
      rest_connectors c
    WHERE
      c.bot_uuid = :botUUID
      AND c.deleted_at IS NULL
  ) AS total;
SELECT
  c.uuid AS uuid,
  c.name AS name,
  c.updated_at AS updated_at,
  c.updated_by AS updated_by,
  c.updated_by_image AS updated_by_image,
  c.tags_json AS tags_json,
  c.flows_json AS flows_json
FROM
  rest_connectors c
WHERE
  c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
ORDER BY
  c.updated_at DESC,
  c.uuid DESC
LIMIT
  :limit
OFFSET
  :offset;

-- RestConnectorSearchRepository.page (by name, two search terms)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      bots b
      JOIN environments e ON e.uuid = b.environment_uuid
    WHERE
      b.uuid = :botUUID
      AND b.environment_uuid = :envUUID
      AND e.organization_uuid = :orgUUID
  ) AS in_scope,
  (
    SELECT
      COUNT(*)
    FROM
      rest_connectors c
    WHERE
      c.bot_uuid = :botUUID
      AND c.deleted_at IS NULL
      AND (
        c.name_key LIKE :term0 ESCAPE '!'
        OR c.tag_keys LIKE :term0 ESCAPE '!'
      )
      AND (
        c.name_key LIKE :term1 ESCAPE '!'
        OR c.tag_keys LIKE :term1 ESCAPE '!'
      )
  ) AS total;
SELECT
  c.uuid AS uuid,
  c.name AS name,
  c.updated_at AS updated_at,
  c.updated_by AS updated_by,
  c.updated_by_image AS updated_by_image,
  c.tags_json AS tags_json,
  c.flows_json AS flows_json
FROM
  rest_connectors c
WHERE
  c.bot_uuid = :botUUID
  AND c.deleted_at IS NULL
  AND (
    c.name_key LIKE :term0 ESCAPE '!'
    OR c.tag_keys LIKE :term0 ESCAPE '!'
  )
  AND (
    c.name_key LIKE :term1 ESCAPE '!'
    OR c.tag_keys LIKE :term1 ESCAPE '!'
  )
ORDER BY
  c.name_key ASC,
  c.uuid ASC
LIMIT
  :limit
OFFSET
  :offset;

-- RestConnectorSearchRepository.suggestNames, MySQL
SELECT
  c.name AS name
FROM
  bots b
  JOIN environments e ON e.uuid = b.environment_uuid
  LEFT JOIN rest_connectors c FORCE INDEX (idx_rest_connectors_bot_name) ON c.bot_uuid = b.uuid
  AND c.deleted_at IS NULL
  AND c.name_key LIKE :contains ESCAPE '!'
WHERE
  b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
ORDER BY
  CASE
    WHEN c.name_key LIKE :startsWith ESCAPE '!' THEN 0
    ELSE 1
  END ASC,
  c.name_key ASC
LIMIT
  :limit;

-- RestConnectorSearchRepository.suggestNames, SQLite
SELECT
  c.name AS name
FROM
  bots b
  JOIN environments e ON e.uuid = b.environment_uuid
  LEFT JOIN rest_connectors c ON c.bot_uuid = b.uuid
  AND c.deleted_at IS NULL
  AND c.name_key LIKE :contains ESCAPE '!'
WHERE
  b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID
ORDER BY
  CASE
    WHEN c.name_key LIKE :startsWith ESCAPE '!' THEN 0
    ELSE 1
  END ASC,
  c.name_key ASC
LIMIT
  :limit;

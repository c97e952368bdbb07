-- The statements of ConnectorRelationsRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ConnectorRelationsRepository.of (two connectors)
SELECT
  0 AS kind,
  t.connector_uuid AS connector_uuid,
  t.position AS position,
  t.name AS name,
  NULL AS uuid
FROM
  rest_connector_tags t
WHERE
  t.connector_uuid IN (:connectorUuid0, :connectorUuid1)
UNION ALL
SELECT
  1 AS kind,
  fc.connector_uuid AS connector_uuid,
  0 AS position,
  f.name AS name,
  f.uuid AS uuid
FROM
  flow_connectors fc
  JOIN flows f ON f.uuid = fc.flow_uuid
WHERE
  f.bot_uuid = :botUuid
  AND fc.connector_uuid IN (:connectorUuid0, :connectorUuid1);

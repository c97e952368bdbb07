-- The statements of BotRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- BotRepository.listInScope
SELECT
  b.uuid AS uuid,
  b.environment_uuid AS environment_uuid,
  b.name AS name,
  b.image AS image
FROM
  environments e
  LEFT JOIN bots b ON b.environment_uuid = e.uuid
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID
ORDER BY
  LOWER(b.name) ASC,
  b.uuid ASC;

-- BotRepository.findInScope
SELECT
  b.uuid AS uuid,
  b.environment_uuid AS environment_uuid,
  b.name AS name,
  b.image AS image
FROM
  bots b
  JOIN environments e ON e.uuid = b.environment_uuid
WHERE
  b.uuid = :botUUID
  AND b.environment_uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

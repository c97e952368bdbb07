-- The statements of ScopeRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ScopeRepository.lookup
SELECT
  o.uuid AS org,
  e.uuid AS env,
  b.uuid AS bot
FROM
  organizations o
  LEFT JOIN environments e ON e.uuid = :envUUID
  AND e.organization_uuid = o.uuid
  LEFT JOIN bots b ON b.uuid = :botUUID
  AND b.environment_uuid = e.uuid
WHERE
  o.uuid = :orgUUID;

-- The statements of EnvironmentRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- EnvironmentRepository.listByOrganization
SELECT
  e.uuid AS uuid,
  e.organization_uuid AS organization_uuid,
  e.name AS name,
  e.removed AS removed,
  e.instance_uuid AS instance_uuid,
  e.instance_name AS instance_name,
  e.channel_instance_uuid AS channel_instance_uuid,
  e.channel_instance_name AS channel_instance_name,
  e.connector_instance_uuid AS connector_instance_uuid,
  e.connector_instance_name AS connector_instance_name,
  e.dns AS dns,
  e.api_url AS api_url,
  e.channel_api_url AS channel_api_url,
  e.connector_api_url AS connector_api_url,
  e.applications AS applications,
  e.permissions AS permissions
FROM
  environments e
WHERE
  e.organization_uuid = :orgUUID
ORDER BY
  LOWER(e.name) ASC,
  e.uuid ASC;

-- EnvironmentRepository.findInScope
SELECT
  e.uuid AS uuid,
  e.organization_uuid AS organization_uuid,
  e.name AS name,
  e.removed AS removed,
  e.instance_uuid AS instance_uuid,
  e.instance_name AS instance_name,
  e.channel_instance_uuid AS channel_instance_uuid,
  e.channel_instance_name AS channel_instance_name,
  e.connector_instance_uuid AS connector_instance_uuid,
  e.connector_instance_name AS connector_instance_name,
  e.dns AS dns,
  e.api_url AS api_url,
  e.channel_api_url AS channel_api_url,
  e.connector_api_url AS connector_api_url,
  e.applications AS applications,
  e.permissions AS permissions
FROM
  environments e
WHERE
  e.uuid = :envUUID
  AND e.organization_uuid = :orgUUID;

-- The statements of ParkedEventRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ParkedEventRepository.heldAmong
SELECT DISTINCT
  ev.connector_uuid AS connector_uuid
FROM
  connector_events ev
WHERE
  ev.held_at IS NOT NULL
  AND ev.connector_uuid IN (:connector0, :connector1);

-- ParkedEventRepository.refused, MySQL
UPDATE connector_event_relay
SET
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND
WHERE
  id = :id
  AND holder = :holder;
UPDATE connector_events
SET
  publish_attempts = publish_attempts + 1,
  publish_error = :error
WHERE
  position = :position;
SELECT
  ev.publish_attempts AS publish_attempts
FROM
  connector_events ev
WHERE
  ev.position = :position;

-- ParkedEventRepository.refused, SQLite
UPDATE connector_event_relay
SET
  lease_until = strftime (
    '%Y-%m-%d %H:%M:%f',
    'now',
    '+' || (:leaseMs / 1000.0) || ' seconds'
  )
WHERE
  id = :id
  AND holder = :holder;
UPDATE connector_events
SET
  publish_attempts = publish_attempts + 1,
  publish_error = :error
WHERE
  position = :position;
SELECT
  ev.publish_attempts AS publish_attempts
FROM
  connector_events ev
WHERE
  ev.position = :position;

-- ParkedEventRepository.markPublishedHolding, MySQL
UPDATE connector_event_relay
SET
  published_through = :through,
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND
WHERE
  id = :id
  AND holder = :holder
  AND published_through < :through;
UPDATE connector_events
SET
  held_at = :at
WHERE
  position IN (:position0, :position1)
  AND held_at IS NULL;

-- ParkedEventRepository.markPublishedHolding, SQLite
UPDATE connector_event_relay
SET
  published_through = :through,
  lease_until = strftime (
    '%Y-%m-%d %H:%M:%f',
    'now',
    '+' || (:leaseMs / 1000.0) || ' seconds'
  )
WHERE
  id = :id
  AND holder = :holder
  AND published_through < :through;
UPDATE connector_events
SET
  held_at = :at
WHERE
  position IN (:position0, :position1)
  AND held_at IS NULL;

-- ParkedEventRepository.releasedSizes
SELECT
  ev.position AS position,
  COALESCE(
    OCTET_LENGTH(v.snapshot) + OCTET_LENGTH(v.changed_fields) + OCTET_LENGTH(v.updated_by) + COALESCE(OCTET_LENGTH(v.reason), 0),
    OCTET_LENGTH(s.snapshot) + OCTET_LENGTH(s.changes) + OCTET_LENGTH(s.updated_by) + COALESCE(OCTET_LENGTH(s.reason), 0),
    0
  ) AS bytes
FROM
  connector_events ev
  LEFT JOIN rest_connector_versions v ON ev.kind = 'connector'
  AND v.connector_uuid = ev.connector_uuid
  AND v.version = ev.version
  LEFT JOIN connector_variable_set_versions s ON ev.kind = 'variables'
  AND s.environment_uuid = ev.environment_uuid
  AND s.version = ev.version
WHERE
  ev.held_at IS NOT NULL
  AND ev.parked_at IS NULL
  AND NOT EXISTS (
    SELECT
      1
    FROM
      connector_events p
    WHERE
      p.held_at IS NOT NULL
      AND p.parked_at IS NOT NULL
      AND p.connector_uuid = ev.connector_uuid
      AND p.position < ev.position
  )
  AND ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ParkedEventRepository.released
SELECT
  ev.position AS position,
  ev.kind AS kind,
  ev.event_uuid AS event_uuid,
  ev.organization_uuid AS organization_uuid,
  ev.environment_uuid AS environment_uuid,
  ev.bot_uuid AS bot_uuid,
  ev.connector_uuid AS connector_uuid,
  ev.version AS version,
  v.operation AS operation,
  v.updated_at AS updated_at,
  v.updated_by AS updated_by,
  v.reason AS reason,
  v.reverted_to AS reverted_to,
  v.changed_fields AS changed_fields,
  v.snapshot AS snapshot,
  v.promotion_id AS promotion_id,
  s.updated_at AS s_updated_at,
  s.updated_by AS s_updated_by,
  s.reason AS s_reason,
  s.promotion_id AS s_promotion_id,
  s.changes AS s_changes,
  s.snapshot AS s_snapshot
FROM
  connector_events ev
  LEFT JOIN rest_connector_versions v ON ev.kind = 'connector'
  AND v.connector_uuid = ev.connector_uuid
  AND v.version = ev.version
  LEFT JOIN connector_variable_set_versions s ON ev.kind = 'variables'
  AND s.environment_uuid = ev.environment_uuid
  AND s.version = ev.version
WHERE
  ev.held_at IS NOT NULL
  AND ev.parked_at IS NULL
  AND NOT EXISTS (
    SELECT
      1
    FROM
      connector_events p
    WHERE
      p.held_at IS NOT NULL
      AND p.parked_at IS NOT NULL
      AND p.connector_uuid = ev.connector_uuid
      AND p.position < ev.position
  )
  AND ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ParkedEventRepository.unhold, MySQL
UPDATE connector_event_relay
SET
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND
WHERE
  id = :id
  AND holder = :holder;
UPDATE connector_events
SET
  held_at = NULL
WHERE
  position IN (:position0, :position1)
  AND parked_at IS NULL;

-- ParkedEventRepository.unhold, SQLite
UPDATE connector_event_relay
SET
  lease_until = strftime (
    '%Y-%m-%d %H:%M:%f',
    'now',
    '+' || (:leaseMs / 1000.0) || ' seconds'
  )
WHERE
  id = :id
  AND holder = :holder;
UPDATE connector_events
SET
  held_at = NULL
WHERE
  position IN (:position0, :position1)
  AND parked_at IS NULL;

-- ParkedEventRepository.counts
SELECT
  COUNT(ev.parked_at) AS parked,
  COUNT(*) AS held
FROM
  connector_events ev
WHERE
  ev.held_at IS NOT NULL;

-- ParkedEventRepository.replay (one)
UPDATE connector_events
SET
  parked_at = NULL,
  publish_attempts = 0
WHERE
  held_at IS NOT NULL
  AND parked_at IS NOT NULL
  AND event_uuid = :eventUuid;

-- ParkedEventRepository.replay (all)
UPDATE connector_events
SET
  parked_at = NULL,
  publish_attempts = 0
WHERE
  held_at IS NOT NULL
  AND parked_at IS NOT NULL;

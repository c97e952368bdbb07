-- The statements of ConnectorEventRepository, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ConnectorEventRepository.feedSizes (environment)
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
  ev.organization_uuid = :orgUUID
  AND ev.environment_uuid = :envUUID
  AND ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.feedSizes (bot)
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
  ev.organization_uuid = :orgUUID
  AND ev.environment_uuid = :envUUID
  AND ev.bot_uuid = :botUUID
  AND ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.feed (environment)
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
  ev.organization_uuid = :orgUUID
  AND ev.environment_uuid = :envUUID
  AND ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.feed (bot)
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
  ev.organization_uuid = :orgUUID
  AND ev.environment_uuid = :envUUID
  AND ev.bot_uuid = :botUUID
  AND ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.progress
SELECT
  r.sequenced_through AS sequenced_through,
  r.published_through AS published_through,
  r.purged_through AS purged_through
FROM
  connector_event_relay r
WHERE
  r.id = :id;

-- ConnectorEventRepository.acquire, MySQL
SELECT
  r.holder AS holder,
  TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), r.lease_until) DIV 1000 AS ends_in_ms
FROM
  connector_event_relay r
WHERE
  r.id = :id;
UPDATE connector_event_relay
SET
  holder = :holder,
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND,
  lease_taken_at = UTC_TIMESTAMP(3),
  lease_epoch = lease_epoch + 1
WHERE
  id = :id
  AND (
    holder = :holder
    OR holder IS NULL
    OR lease_until IS NULL
    OR lease_until < UTC_TIMESTAMP(3)
  );

-- ConnectorEventRepository.acquire, SQLite
SELECT
  r.holder AS holder,
  CAST(
    ROUND(
      (julianday (r.lease_until) - julianday ('now')) * 86400000
    ) AS INTEGER
  ) AS ends_in_ms
FROM
  connector_event_relay r
WHERE
  r.id = :id;
UPDATE connector_event_relay
SET
  holder = :holder,
  lease_until = strftime (
    '%Y-%m-%d %H:%M:%f',
    'now',
    '+' || (:leaseMs / 1000.0) || ' seconds'
  ),
  lease_taken_at = strftime ('%Y-%m-%d %H:%M:%f', 'now'),
  lease_epoch = lease_epoch + 1
WHERE
  id = :id
  AND (
    holder = :holder
    OR holder IS NULL
    OR lease_until IS NULL
    OR lease_until < strftime ('%Y-%m-%d %H:%M:%f', 'now')
  );

-- ConnectorEventRepository.renew, MySQL
UPDATE connector_event_relay
SET
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND
WHERE
  id = :id
  AND holder = :holder;

-- ConnectorEventRepository.renew, SQLite
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

-- ConnectorEventRepository.release
UPDATE connector_event_relay
SET
  holder = NULL,
  lease_until = NULL
WHERE
  id = :id
  AND holder = :holder;

-- ConnectorEventRepository.sequence, MySQL
UPDATE connector_event_relay
SET
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND
WHERE
  id = :id
  AND holder = :holder;
SELECT
  r.sequenced_through AS sequenced_through,
  r.published_through AS published_through,
  r.purged_through AS purged_through
FROM
  connector_event_relay r
WHERE
  r.id = :id;
SELECT
  seq
FROM
  connector_events
WHERE
  position IS NULL
ORDER BY
  seq
LIMIT
  :limit;

-- ConnectorEventRepository.sequence, SQLite
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
SELECT
  r.sequenced_through AS sequenced_through,
  r.published_through AS published_through,
  r.purged_through AS purged_through
FROM
  connector_event_relay r
WHERE
  r.id = :id;
SELECT
  seq
FROM
  connector_events
WHERE
  position IS NULL
ORDER BY
  seq
LIMIT
  :limit;

-- ConnectorEventRepository.hasUnnumbered
SELECT
  1 AS waiting
FROM
  connector_events
WHERE
  position IS NULL
LIMIT
  1;

-- ConnectorEventRepository.numberedSizes
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
  ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.numberedAfter
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
  ev.position > :after
  AND ev.position <= :through
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.numberedScopes
SELECT
  ev.organization_uuid AS organization_uuid,
  ev.environment_uuid AS environment_uuid,
  ev.bot_uuid AS bot_uuid,
  MAX(ev.position) AS last_position
FROM
  connector_events ev
WHERE
  ev.position > :after
  AND ev.position <= :through
GROUP BY
  ev.organization_uuid,
  ev.environment_uuid,
  ev.bot_uuid;

-- ConnectorEventRepository.markPublished, MySQL
UPDATE connector_event_relay
SET
  published_through = :through,
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND
WHERE
  id = :id
  AND holder = :holder
  AND published_through < :through;

-- ConnectorEventRepository.markPublished, SQLite
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

-- ConnectorEventRepository.purge, MySQL
UPDATE connector_event_relay
SET
  lease_until = UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND
WHERE
  id = :id
  AND holder = :holder;
SELECT
  ev.seq AS seq,
  ev.position AS position,
  ev.created_at AS created_at
FROM
  connector_events ev
WHERE
  ev.position IS NOT NULL
  AND ev.position <= :bound
  AND ev.held_at IS NULL
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.purge, SQLite
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
SELECT
  ev.seq AS seq,
  ev.position AS position,
  ev.created_at AS created_at
FROM
  connector_events ev
WHERE
  ev.position IS NOT NULL
  AND ev.position <= :bound
  AND ev.held_at IS NULL
ORDER BY
  ev.position
LIMIT
  :limit;

-- ConnectorEventRepository.oldestUnpublishedAt
SELECT
  created_at
FROM
  connector_events
WHERE
  position IS NULL
ORDER BY
  seq
LIMIT
  1;
SELECT
  created_at
FROM
  connector_events
WHERE
  position > :after
ORDER BY
  position
LIMIT
  1;

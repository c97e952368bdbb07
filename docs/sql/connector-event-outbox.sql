-- The statements of ConnectorEventOutbox, written by `npm run sql` (tools/sql) from its @GenerateSql methods.

-- ConnectorEventOutbox.append
INSERT INTO
  connector_events (
    event_uuid,
    organization_uuid,
    environment_uuid,
    bot_uuid,
    connector_uuid,
    version,
    created_at
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?);

-- ConnectorEventOutbox.appendVariables
INSERT INTO
  connector_events (
    event_uuid,
    kind,
    organization_uuid,
    environment_uuid,
    bot_uuid,
    connector_uuid,
    version,
    created_at
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?);

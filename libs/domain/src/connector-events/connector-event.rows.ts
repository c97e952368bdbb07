import { tableRows } from '../database/table-rows';
import { ConnectorEventRelayState } from './connector-event-relay.entity';
import { ConnectorEvent } from './connector-event.entity';

/** The rows of connector_events and connector_event_relay (see TableRows). */
export const CONNECTOR_EVENT_ROWS = tableRows<ConnectorEvent>()('connector_events', {
  seq: ['seq', 'int'],
  eventUuid: ['event_uuid', 'text'],
  position: ['position', 'int'],
  organizationUuid: ['organization_uuid', 'text'],
  environmentUuid: ['environment_uuid', 'text'],
  botUuid: ['bot_uuid', 'text'],
  connectorUuid: ['connector_uuid', 'text'],
  version: ['version', 'int'],
  createdAt: ['created_at', 'date'],
});

export const CONNECTOR_EVENT_RELAY_ROWS = tableRows<ConnectorEventRelayState>()('connector_event_relay', {
  id: ['id', 'int'],
  holder: ['holder', 'text'],
  leaseUntil: ['lease_until', 'date'],
  sequencedThrough: ['sequenced_through', 'int'],
  publishedThrough: ['published_through', 'int'],
  purgedThrough: ['purged_through', 'int'],
});

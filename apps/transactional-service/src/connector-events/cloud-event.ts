import {
  CONNECTOR_EVENT_TYPES,
  CONNECTOR_VARIABLES_EVENT_TYPE,
  ConnectorCloudEventDto,
  ConnectorVariablesCloudEventDto,
  DomainError,
  RecordedConnectorEvent,
  RecordedEvent,
  RecordedVariablesEvent,
} from '@app/domain';
import { etagOf } from '../rest-connectors/etag';

/**
 * The event of a recorded version as a CloudEvents 1.0 structured JSON object: the same in the feed and on
 * JetStream, built from the outbox row and its version (neither ever changes), so a consumer reading it twice
 * reads it the same.
 */
export function cloudEventOf(recordedEvent: RecordedConnectorEvent): ConnectorCloudEventDto;
export function cloudEventOf(recordedEvent: RecordedEvent): ConnectorCloudEventDto | ConnectorVariablesCloudEventDto;
export function cloudEventOf(recordedEvent: RecordedEvent): ConnectorCloudEventDto | ConnectorVariablesCloudEventDto {
  if (recordedEvent.variables !== undefined) return variablesEventOf(recordedEvent);
  const { event, recorded } = recordedEvent;
  return {
    specversion: '1.0',
    id: event.eventUuid,
    source: `/org/${event.organizationUuid}/env/${event.environmentUuid}/bot/${event.botUuid}/rest-connectors`,
    type: CONNECTOR_EVENT_TYPES[recorded.operation],
    subject: event.connectorUuid,
    time: recorded.updatedAt.toISOString(),
    datacontenttype: 'application/json',
    data: {
      version: event.version,
      etag: etagOf(event),
      operation: recorded.operation,
      changedFields: recorded.changedFields,
      updatedBy: recorded.updatedBy,
      reason: recorded.reason,
      revertedTo: recorded.revertedTo,
      promotionId: recorded.promotionId,
      snapshot: recorded.snapshot,
    },
  };
}

/** The event of a version of an environment's connector variables (connector_variable_set_versions). */
function variablesEventOf({ event, variables }: RecordedVariablesEvent): ConnectorVariablesCloudEventDto {
  return {
    specversion: '1.0',
    id: event.eventUuid,
    source: `/org/${event.organizationUuid}/env/${event.environmentUuid}/connector-variables`,
    type: CONNECTOR_VARIABLES_EVENT_TYPE,
    subject: event.environmentUuid,
    time: variables.updatedAt.toISOString(),
    datacontenttype: 'application/json',
    data: {
      version: event.version,
      etag: etagOf(event),
      changes: variables.changes,
      updatedBy: variables.updatedBy,
      reason: variables.reason,
      promotionId: variables.promotionId,
      variables: variables.snapshot,
    },
  };
}

/** A feed cursor older than what retention kept: the events between may be gone. The message names no position (positions count every tenant's writes). */
export class EventCursorExpiredException extends DomainError {
  constructor() {
    super(
      'EVENT_CURSOR_EXPIRED',
      'The cursor is older than the events kept (EVENTS_RETENTION_DAYS): list the connectors again, then follow the feed without after (from the oldest event kept), skipping the versions your list already has',
    );
  }
}

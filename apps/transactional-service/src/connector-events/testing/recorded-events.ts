import { RecordedConnectorEvent, VersionOperation } from '@app/domain';
import { randomUUID } from 'node:crypto';

/** An outbox event at `position` as the repository reads it: a connector of its own, created, unless `event` says otherwise. */
export function aRecordedEvent(
  position: number,
  event: Partial<RecordedConnectorEvent['event']> = {},
  operation = VersionOperation.CREATED,
): RecordedConnectorEvent {
  return {
    position,
    event: {
      eventUuid: randomUUID(),
      organizationUuid: randomUUID(),
      environmentUuid: randomUUID(),
      botUuid: randomUUID(),
      connectorUuid: randomUUID(),
      version: 1,
      ...event,
    },
    recorded: {
      operation,
      updatedAt: new Date(0),
      updatedBy: 'ada',
      reason: null,
      revertedTo: null,
      promotionId: null,
      changedFields: [],
      snapshot: {} as RecordedConnectorEvent['recorded']['snapshot'],
    },
  };
}

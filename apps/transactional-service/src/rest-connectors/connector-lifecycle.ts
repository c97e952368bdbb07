import { ConnectorTrashState, RestConnector } from '@app/domain';

export interface Deleter {
  username: string;
}

/**
 * A soft delete keeps the row (flows that used the connector still name it), records who deleted it and
 * when, and frees its name: `activeNameKey` is what the unique index on active names holds, so another
 * connector may take the name at once. Reads never see a deleted connector.
 */
export function deletionBy(deleter: Deleter, now: Date): ConnectorTrashState {
  return { deletedAt: now, deletedBy: deleter.username, activeNameKey: null };
}

/** A restore takes the connector out of the trash and gives it its name back (the unique index refuses a name taken meanwhile). */
export function restorationOf(connector: Pick<RestConnector, 'nameKey'>): ConnectorTrashState {
  return { deletedAt: null, deletedBy: null, activeNameKey: connector.nameKey };
}

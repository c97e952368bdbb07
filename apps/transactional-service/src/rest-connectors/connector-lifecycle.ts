import { ConnectorDeletion } from '@app/domain';

export interface Deleter {
  username: string;
}

/**
 * A soft delete keeps the row (flows that used the connector still name it), records who deleted it and
 * when, and frees its name: `activeNameKey` is what the unique index on active names holds, so another
 * connector may take the name at once. Reads never see a deleted connector; the repository bumps its version.
 */
export function deletionBy(deleter: Deleter, now: Date): ConnectorDeletion {
  return { deletedAt: now, deletedBy: deleter.username, activeNameKey: null };
}

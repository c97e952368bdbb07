import { RestConnector } from './rest-connector.entity';

/** The version a connector is created at. */
export const FIRST_VERSION = 1;

/**
 * A write of a connector (update, delete, restore) takes it from the version it was read at to the next one: the
 * rule that numbers versions, stated here only. The repository applies the write only if the row is still at
 * `from` (optimistic locking) and sets `to`; the history records `to`; the answer's ETag names `to`.
 */
export interface VersionStep {
  readonly from: number;
  readonly to: number;
}

export const nextVersionOf = (current: Pick<RestConnector, 'version'>): VersionStep => ({ from: current.version, to: current.version + 1 });

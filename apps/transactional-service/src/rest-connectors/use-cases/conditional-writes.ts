import { ConsistencyScope, RestConnector, RestConnectorPath } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author } from '../author';
import { etagOf, IfMatch } from '../etag';
import { ConnectorBusyException, ConnectorChangedException, EnvironmentChangedException } from '../rest-connector.exceptions';
import { RestConnectorsService } from '../rest-connectors.service';

/** Without If-Match a write retries against the newest version this many times before a 409. */
const WRITE_ATTEMPTS = 3;

/** What a write to an existing connector is given: which one, by whom, the If-Match header as sent, the request's consistency scope. */
export interface ExistingConnectorCommand {
  path: RestConnectorPath;
  author: Author;
  ifMatch?: string;
  consistency?: ConsistencyScope;
}

/** A 412 naming the current ETag when If-Match does not name the version found. */
export function requireMatch(condition: IfMatch | undefined, current: Pick<RestConnector, 'uuid' | 'version'>): void {
  if (condition && !condition.accepts(etagOf(current))) throw new ConnectorChangedException(current.uuid, etagOf(current));
}

/**
 * The optimistic concurrency of the writes to an existing connector (update, delete, restore): an attempt reads the
 * current version, checks it against If-Match (requireMatch) and writes only over that version. An attempt that
 * lost a race (another write landed between its read and its write) is, with If-Match, the 412 naming the version
 * that won; without, tried again from the newest version, up to WRITE_ATTEMPTS, then 409. An attempt whose environment
 * changed under it (EnvironmentChangedException: the connector did not) is tried again with or without If-Match.
 */
@Injectable()
export class ConditionalWrites {
  constructor(private readonly reads: RestConnectorsService) {}

  /** `attempt` answers null when it lost the race. A malformed If-Match is a 400 before anything is read. */
  async untilWritten<T>(path: RestConnectorPath, ifMatch: string | undefined, attempt: (condition: IfMatch | undefined) => Promise<T | null>): Promise<T> {
    const condition = IfMatch.from(ifMatch);
    for (let attempts = 1; ; attempts++) {
      let written: T | null;
      try {
        written = await attempt(condition);
      } catch (error) {
        // The environment changed, not the connector: the If-Match still holds, so the write is checked again either way.
        if (!(error instanceof EnvironmentChangedException) || attempts === WRITE_ATTEMPTS) throw error;
        continue;
      }
      if (written !== null) return written;
      if (condition) {
        const now = await this.reads.findAny(path);
        throw new ConnectorChangedException(now.uuid, etagOf(now));
      }
      if (attempts === WRITE_ATTEMPTS) throw new ConnectorBusyException(path.serviceUUID);
    }
  }
}

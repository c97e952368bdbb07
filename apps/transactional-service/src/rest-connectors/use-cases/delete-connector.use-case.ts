import {
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  Database,
  nextVersionOf,
  RestConnector,
  RestConnectorPath,
  RestConnectorRepository,
  Transaction,
  VersionOperation,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author, versionAuthorOf } from '../author';
import { deletionBy } from '../connector-lifecycle';
import { etagOf } from '../etag';
import { RestConnectorsService } from '../rest-connectors.service';
import { ConditionalWrites, ExistingConnectorCommand, requireMatch } from './conditional-writes';

/**
 * A soft delete (`DELETE …/rest-connectors/{serviceUUID}`): the connector moves to the trash and its name is free
 * again. One unit of work: the row, a DELETED version keeping the record, its change event. With If-Match only from
 * that exact version (else 412); without, from the newest. Answers the connector's new ETag (its version in the
 * trash, what a restore's If-Match names).
 */
@Injectable()
export class DeleteConnector {
  constructor(
    private readonly db: Database,
    private readonly reads: RestConnectorsService,
    private readonly writes: ConditionalWrites,
    private readonly connectors: RestConnectorRepository,
    private readonly history: ConnectorHistoryRepository,
    private readonly outbox: ConnectorEventOutbox,
  ) {}

  async execute({ path, author, ifMatch, consistency }: ExistingConnectorCommand): Promise<string> {
    return this.writes.untilWritten(path, ifMatch, async (condition) => {
      const current = await this.reads.findActive(path, 'primary');
      requireMatch(condition, current);
      const now = new Date();
      const deleted = await this.db.transaction((tx) => this.apply(tx, path, current, author, now), consistency);
      return deleted ? etagOf({ version: nextVersionOf(current).to }) : null;
    });
  }

  /** The delete of `current` (read at its version) in the unit of work `tx`: the row, its DELETED version, its change event; false when another write came first. */
  async apply(tx: Transaction, path: RestConnectorPath, current: Pick<RestConnector, 'uuid' | 'version'>, author: Author, now: Date): Promise<boolean> {
    const step = nextVersionOf(current);
    const recorded = versionAuthorOf(author, now);
    if (!(await this.connectors.softDelete(tx, path, step, deletionBy(author.caller, now)))) return false;
    await this.history.recordUnchanged(tx, current.uuid, step, VersionOperation.DELETED, recorded);
    this.outbox.append(tx, path, { connectorUuid: current.uuid, version: step.to, updatedAt: recorded.updatedAt });
    return true;
  }
}

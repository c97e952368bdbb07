import {
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  Database,
  InvalidInputError,
  nextVersionOf,
  RestConnector,
  RestConnectorPath,
  RestConnectorRepository,
  RestConnectorRestoredDto,
  Transaction,
  VersionOperation,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author, versionAuthorOf } from '../author';
import { ConnectorEnvironments } from '../connector-environment';
import { restorationOf } from '../connector-lifecycle';
import { environmentProblems } from '../connector-write';
import { refersToEnvironment } from '../env-destinations';
import { etagOf, WithEtag } from '../etag';
import { ConnectorNotDeletedException } from '../rest-connector.exceptions';
import { RestConnectorsService } from '../rest-connectors.service';
import { ConditionalWrites, ExistingConnectorCommand, requireMatch } from './conditional-writes';
import { unlessNameTaken } from './name-taken';

/**
 * A deleted connector active again exactly as it was (`POST …/restore`: fields, tags, secrets; flows still name it),
 * with a new version, once what it needs of its environment holds (environmentProblems: a 400 listing each). One unit of work: the row, a RESTORED version keeping the record, its change event. With
 * If-Match only from that exact version (else 412). Two restores at once: one wins, the other finds it active (409);
 * a connector that took the name meanwhile: the unique key refuses it (409 naming it).
 */
@Injectable()
export class RestoreConnector {
  constructor(
    private readonly db: Database,
    private readonly reads: RestConnectorsService,
    private readonly writes: ConditionalWrites,
    private readonly connectors: RestConnectorRepository,
    private readonly history: ConnectorHistoryRepository,
    private readonly outbox: ConnectorEventOutbox,
    private readonly environments: ConnectorEnvironments,
  ) {}

  async execute({ path, author, ifMatch, consistency }: ExistingConnectorCommand): Promise<WithEtag<RestConnectorRestoredDto>> {
    return this.writes.untilWritten(path, ifMatch, async (condition) => {
      const current = await this.reads.findAny(path);
      if (current.deletedAt === null) throw new ConnectorNotDeletedException(current.uuid);
      requireMatch(condition, current);
      // Active again as it was, in its environment as it is now: what it needs of it must still hold.
      const env = await this.environments.of(path);
      const problems = environmentProblems(current, env);
      if (problems.length > 0) throw new InvalidInputError(problems);
      const now = new Date();
      // Checked against the environment as read: held so in the unit of work when the connector refers to it.
      const checkedAgainst = refersToEnvironment(current) ? env.version : null;
      const restored = await unlessNameTaken(current.name, () =>
        this.db.transaction(async (tx) => {
          await this.environments.hold(tx, path, checkedAgainst);
          return this.apply(tx, path, current, author, now);
        }, consistency),
      );
      return restored ? { body: { message: 'Rest connector restored', data: current.uuid }, etag: etagOf({ version: nextVersionOf(current).to }) } : null;
    });
  }

  /**
   * The restore of `current` (deleted, read at its version) in the unit of work `tx`: the row, its RESTORED version, its
   * change event; false when another write came first. A name taken meanwhile fails the unit of work (unlessNameTaken).
   */
  async apply(tx: Transaction, path: RestConnectorPath, current: RestConnector, author: Author, now: Date): Promise<boolean> {
    const step = nextVersionOf(current);
    const recorded = versionAuthorOf(author, now);
    if (!(await this.connectors.restore(tx, path, step, restorationOf(current)))) return false;
    await this.history.recordUnchanged(tx, current.uuid, step, VersionOperation.RESTORED, recorded);
    this.outbox.append(tx, path, { connectorUuid: current.uuid, version: step.to, updatedAt: recorded.updatedAt });
    return true;
  }
}

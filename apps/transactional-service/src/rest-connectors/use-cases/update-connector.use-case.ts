import {
  BotPath,
  ConnectorEventOutbox,
  ConnectorForWrite,
  ConnectorWrite,
  ConnectorHistoryRepository,
  connectorSnapshot,
  Database,
  nextVersionOf,
  RestConnectorRepository,
  RestConnectorUpdatedDto,
  RestConnector,
  RestConnectorWriteDto,
  TagRow,
  Transaction,
  VersionOperation,
  VersionRow,
  VersionStep,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author, versionAuthorOf } from '../author';
import { ConnectorEnvironments } from '../connector-environment';
import { toConnectorWrite } from '../connector-write';
import { ConnectorEnvironment, refersToEnvironment } from '../env-destinations';
import { etagOf, WithEtag } from '../etag';
import { changedSecrets, fieldsChanged, sameTags } from '../history/version-changes';
import { RestConnectorsService } from '../rest-connectors.service';
import { ConditionalWrites, ExistingConnectorCommand, requireMatch } from './conditional-writes';
import { unlessNameTaken } from './name-taken';
import { SecretSealing } from './secret-sealing';

export interface UpdateConnectorCommand extends ExistingConnectorCommand {
  dto: RestConnectorWriteDto;
  /** The earlier version whose record this write puts back (RevertConnector), or null for a PUT. */
  revertedTo?: number | null;
}

/** A full write of an existing connector, the write rules passed: what to write over which version, or nothing when no field changes. */
export interface PreparedUpdate {
  current: RestConnector;
  /**
   * The version of the environment's connector variables the write was checked against, when it depends on them (the
   * stored or the new connector refers to a `{{env.NAME}}`): held in its unit of work (ConnectorEnvironments.hold).
   */
  environmentVersion: number | null;
  /** Null when the write changes no field: nothing is written. */
  write: { step: VersionStep; values: ConnectorWrite; tags: TagRow[] | null; version: VersionRow } | null;
}

/**
 * A full write (`PUT …/rest-connectors/{serviceUUID}`). With If-Match it applies only to that exact version (else 412
 * naming the current ETag); without, it applies to the newest version, re-reading when another write lands in
 * between (ConditionalWrites). A write that changes no field answers the current ETag and writes nothing: no
 * version, no event. Otherwise one unit of work: the row, its tags when they changed, the version naming the fields
 * that changed, its change event.
 */
@Injectable()
export class UpdateConnector {
  constructor(
    private readonly db: Database,
    private readonly reads: RestConnectorsService,
    private readonly writes: ConditionalWrites,
    private readonly connectors: RestConnectorRepository,
    private readonly history: ConnectorHistoryRepository,
    private readonly outbox: ConnectorEventOutbox,
    private readonly sealing: SecretSealing,
    private readonly environments: ConnectorEnvironments,
  ) {}

  async execute({ path, dto, author, ifMatch, consistency, revertedTo = null }: UpdateConnectorCommand): Promise<WithEtag<RestConnectorUpdatedDto>> {
    return this.writes.untilWritten(path, ifMatch, async (condition) => {
      const found = await this.reads.findForWrite(path);
      requireMatch(condition, found.connector);
      const prepared = this.prepare(found, dto, author, await this.environments.forWrite(path, found.connector, dto), new Date(), revertedTo);
      const { current, write } = prepared;
      if (write === null) return { body: { message: 'Rest connector unchanged', data: current.uuid }, etag: etagOf(current) };
      const written = await unlessNameTaken(write.values.name, () =>
        this.db.transaction(async (tx) => {
          await this.environments.hold(tx, path, prepared.environmentVersion);
          return this.apply(tx, path, prepared);
        }, consistency),
      );
      if (!written) return null;
      const message = revertedTo === null ? 'Rest connector updated' : `Rest connector reverted to version ${revertedTo}`;
      return { body: { message, data: current.uuid }, etag: etagOf({ version: write.step.to }) };
    });
  }

  /**
   * The write of `dto` over the connector as found: the write rules in the path's environment `env` (an
   * InvalidInputError listing every problem), its secrets sealed or kept, the version naming the fields that change;
   * no write when none does.
   */
  prepare(
    { connector: current, snapshot: before }: ConnectorForWrite,
    dto: RestConnectorWriteDto,
    author: Author,
    env: ConnectorEnvironment,
    now: Date,
    revertedTo: number | null = null,
  ): PreparedUpdate {
    const { values, tags } = toConnectorWrite(dto, author.caller, now, this.sealing.sealFor(current.uuid), current, env);
    const step = nextVersionOf(current);
    const after = connectorSnapshot({ ...current, ...values }, tags);
    const changedFields = fieldsChanged(before, after, changedSecrets(dto, current, values, this.sealing.sameAsStored(current.uuid)));
    if (changedFields.length === 0) return { current, write: null, environmentVersion: null };
    const version: VersionRow = {
      connectorUuid: current.uuid,
      version: step.to,
      operation: VersionOperation.UPDATED,
      ...versionAuthorOf(author, now),
      revertedTo,
      changedFields,
      snapshot: after,
    };
    return {
      current,
      write: { step, values, tags: sameTags(before, tags) ? null : tags, version },
      environmentVersion: refersToEnvironment(current, values) ? env.version : null,
    };
  }

  /**
   * A prepared write in the unit of work `tx`, whose owner held the environment first when the write depends on it
   * (`environmentVersion`; ConnectorEnvironments.hold): the row (only over the version it was prepared from), its tags,
   * the version, its change event; false when another write came first.
   */
  async apply(tx: Transaction, path: BotPath, { current, write }: PreparedUpdate): Promise<boolean> {
    if (write === null) return true;
    if (!(await this.connectors.update(tx, path.botUUID, current.uuid, write.step, write.values, write.tags))) return false;
    this.history.record(tx, write.version);
    this.outbox.append(tx, path, write.version);
    return true;
  }
}

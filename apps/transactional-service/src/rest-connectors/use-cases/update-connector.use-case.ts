import {
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  connectorSnapshot,
  Database,
  nextVersionOf,
  RestConnectorRepository,
  RestConnectorUpdatedDto,
  RestConnectorWriteDto,
  VersionOperation,
  VersionRow,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { versionAuthorOf } from '../author';
import { toConnectorWrite } from '../connector-write';
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
  ) {}

  async execute({ path, dto, author, ifMatch, consistency, revertedTo = null }: UpdateConnectorCommand): Promise<WithEtag<RestConnectorUpdatedDto>> {
    return this.writes.untilWritten(path, ifMatch, async (condition) => {
      const { connector: current, snapshot: before } = await this.reads.findForWrite(path);
      requireMatch(condition, current);
      const now = new Date();
      const { values, tags } = toConnectorWrite(dto, author.caller, now, this.sealing.sealFor(current.uuid), current);
      const step = nextVersionOf(current);
      const after = connectorSnapshot({ ...current, ...values }, tags);
      const changedFields = fieldsChanged(before, after, changedSecrets(dto, current, values, this.sealing.sameAsStored(current.uuid)));
      if (changedFields.length === 0) return { body: { message: 'Rest connector unchanged', data: current.uuid }, etag: etagOf(current) };
      const version: VersionRow = {
        connectorUuid: current.uuid,
        version: step.to,
        operation: VersionOperation.UPDATED,
        ...versionAuthorOf(author, now),
        revertedTo,
        changedFields,
        snapshot: after,
      };
      const written = await unlessNameTaken(values.name, () =>
        this.db.transaction(async (tx) => {
          if (!(await this.connectors.update(tx, path.botUUID, current.uuid, step, values, sameTags(before, tags) ? null : tags))) return false;
          this.history.record(tx, version);
          this.outbox.append(tx, path, version);
          return true;
        }, consistency),
      );
      if (!written) return null;
      const message = revertedTo === null ? 'Rest connector updated' : `Rest connector reverted to version ${revertedTo}`;
      return { body: { message, data: current.uuid }, etag: etagOf({ version: step.to }) };
    });
  }
}

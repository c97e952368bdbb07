import { ConnectorHistoryRepository, InvalidInputError, RestConnectorUpdatedDto, RestConnectorVersionPath, ScopeService } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { writeOfSnapshot } from '../connector-write';
import { WithEtag } from '../etag';
import { ConnectorNotFoundException, VersionNotFoundException, VersionNotRevertibleException } from '../rest-connector.exceptions';
import { ExistingConnectorCommand } from './conditional-writes';
import { UpdateConnector } from './update-connector.use-case';

export interface RevertConnectorCommand extends Omit<ExistingConnectorCommand, 'path'> {
  path: RestConnectorVersionPath;
}

/**
 * Puts the record of an earlier version back (`POST …/versions/{version}/revert`), as a PUT of its snapshot would
 * (placeholders keep the stored secrets while their destinations are unchanged), recorded as a revert to that
 * version. 409 listing why when that record can no longer be written (a secret it used is no longer stored, or
 * would go elsewhere); as an update otherwise.
 */
@Injectable()
export class RevertConnector {
  constructor(
    private readonly scope: ScopeService,
    private readonly history: ConnectorHistoryRepository,
    private readonly update: UpdateConnector,
  ) {}

  async execute({ path: { version, ...path }, ...command }: RevertConnectorCommand): Promise<WithEtag<RestConnectorUpdatedDto>> {
    const target = await this.scope.inPath(path, await this.history.one(path, version, 'primary'), 'primary');
    if (target === undefined) throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    if (target === null) throw new VersionNotFoundException(path.serviceUUID, version);
    try {
      return await this.update.execute({ ...command, path, dto: writeOfSnapshot(target.snapshot), revertedTo: version });
    } catch (error) {
      if (error instanceof InvalidInputError) throw new VersionNotRevertibleException(path.serviceUUID, version, error.problems);
      throw error;
    }
  }
}

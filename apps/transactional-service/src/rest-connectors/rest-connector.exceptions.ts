import { RestConnectorPath } from '@app/domain';
import { PLATFORM_APPS } from '@app/platform';
import { ConflictException, NotFoundException, PreconditionFailedException } from '@nestjs/common';

export class ConnectorNotFoundException extends NotFoundException {
  constructor(botUuid: string, uuid: string) {
    super(`Rest connector ${uuid} not found in bot ${botUuid}`);
  }
}

/** What ScopeService.resolve answers when the path holds but its connector does not: the connector's 404. */
export const connectorNotFound =
  (path: Pick<RestConnectorPath, 'botUUID' | 'serviceUUID'>) =>
  (): never => {
    throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
  };

/** A read or write of an active connector found it in the trash: a 404 that says how to get it back. */
export class ConnectorInTrashException extends NotFoundException {
  constructor(path: RestConnectorPath, deleted: { deletedAt: Date | null; deletedBy: string | null; version: number }) {
    const restore = `/${PLATFORM_APPS.transactionalService.label}/org/${path.orgUUID}/env/${path.envUUID}/bot/${path.botUUID}/rest-connectors/${path.serviceUUID}/restore`;
    const when = deleted.deletedAt ? ` on ${deleted.deletedAt.toISOString()}` : '';
    const who = deleted.deletedBy ? ` by ${deleted.deletedBy}` : '';
    super(`Rest connector ${path.serviceUUID} is in the trash (deleted${when}${who}): restore it with POST ${restore} (If-Match: "v${deleted.version}" to restore exactly this version), then retry`);
  }
}

export class ConnectorNameConflictException extends ConflictException {
  constructor(name: string) {
    super(`A rest connector named "${name}" already exists in this bot`);
  }
}

export class ConnectorChangedException extends PreconditionFailedException {
  constructor(uuid: string, currentEtag: string) {
    super(`Rest connector ${uuid} has changed since the ETag given in If-Match: its current ETag is ${currentEtag}; read it again, then send If-Match: ${currentEtag}`);
  }
}

export class ConnectorNotDeletedException extends ConflictException {
  constructor(uuid: string) {
    super(`Rest connector ${uuid} is not deleted: only a deleted connector can be restored`);
  }
}

export class VersionNotFoundException extends NotFoundException {
  constructor(uuid: string, version: number) {
    super(`Rest connector ${uuid} has no version ${version}`);
  }
}

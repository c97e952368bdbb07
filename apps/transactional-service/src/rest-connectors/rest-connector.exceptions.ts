import { RestConnectorPath } from '@app/domain';
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

export class ConnectorNameConflictException extends ConflictException {
  constructor(name: string) {
    super(`A rest connector named "${name}" already exists in this bot`);
  }
}

export class ConnectorChangedException extends PreconditionFailedException {
  constructor(uuid: string) {
    super(`Rest connector ${uuid} has changed since the ETag given in If-Match`);
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

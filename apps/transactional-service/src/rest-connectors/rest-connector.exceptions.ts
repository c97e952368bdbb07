import { DomainError, RestConnectorPath } from '@app/domain';
import { PLATFORM_APPS } from '@app/platform';

export class ConnectorNotFoundException extends DomainError {
  constructor(botUuid: string, uuid: string) {
    super('CONNECTOR_NOT_FOUND', `Rest connector ${uuid} not found in bot ${botUuid}`);
  }
}

/** A read or write of an active connector found it in the trash: a 404 that says how to get it back. */
export class ConnectorInTrashException extends DomainError {
  constructor(path: RestConnectorPath, deleted: { deletedAt: Date | null; deletedBy: string | null; version: number }) {
    const restore = `/${PLATFORM_APPS.transactionalService.label}/org/${path.orgUUID}/env/${path.envUUID}/bot/${path.botUUID}/rest-connectors/${path.serviceUUID}/restore`;
    const when = deleted.deletedAt ? ` on ${deleted.deletedAt.toISOString()}` : '';
    const who = deleted.deletedBy ? ` by ${deleted.deletedBy}` : '';
    super(
      'CONNECTOR_IN_TRASH',
      `Rest connector ${path.serviceUUID} is in the trash (deleted${when}${who}): restore it with POST ${restore} (If-Match: "v${deleted.version}" to restore exactly this version), then retry`,
    );
  }
}

export class ConnectorNameConflictException extends DomainError {
  /** Without a name: several were written at once, and one of them is taken. */
  constructor(name?: string) {
    super(
      'CONNECTOR_NAME_TAKEN',
      name === undefined
        ? 'One of the names already belongs to an active rest connector of this bot: rename it (or delete the other), then retry'
        : `A rest connector named "${name}" already exists in this bot`,
    );
  }
}

/** An import (onConflict fail) whose connectors have names that active connectors of the bot already have: every one named. */
export class ImportNamesTakenException extends DomainError {
  constructor(taken: ReadonlyArray<{ name: string; uuid: string }>) {
    const names = taken.map(({ name, uuid }) => `"${name}" (${uuid})`).join(', ');
    super(
      'CONNECTOR_NAME_TAKEN',
      `${taken.length === 1 ? 'A name' : `${taken.length} names`} of the import already ${taken.length === 1 ? 'belongs' : 'belong'} to active rest connectors of this bot: ${names}; ` +
        'send onConflict skip, rename or update (a dry run shows what each does), or rename them in the source',
    );
  }
}

export class ConnectorChangedException extends DomainError {
  constructor(uuid: string, currentEtag: string) {
    super(
      'CONNECTOR_CHANGED',
      `Rest connector ${uuid} has changed since the ETag given in If-Match: its current ETag is ${currentEtag}; read it again, then send If-Match: ${currentEtag}`,
    );
  }
}

export class ConnectorNotDeletedException extends DomainError {
  constructor(uuid: string) {
    super('CONNECTOR_NOT_DELETED', `Rest connector ${uuid} is not deleted: only a deleted connector can be restored`);
  }
}

export class VersionNotFoundException extends DomainError {
  constructor(uuid: string, version: number) {
    super('CONNECTOR_VERSION_NOT_FOUND', `Rest connector ${uuid} has no version ${version}`);
  }
}

/** A revert whose version's record can no longer be written as it was: why, and what to do instead. */
export class VersionNotRevertibleException extends DomainError {
  constructor(uuid: string, version: number, problems: string[]) {
    super(
      'CONNECTOR_VERSION_NOT_REVERTIBLE',
      `Rest connector ${uuid} cannot be reverted to version ${version}: ${problems.join('; ')}. ` +
        `PUT the snapshot of version ${version} with the secrets it needs sent again instead`,
    );
  }
}

/** Writes kept losing the race to other writers' (each retried from the newest version): the caller may retry. */
export class ConnectorBusyException extends DomainError {
  constructor(uuid: string) {
    super('CONNECTOR_BUSY', `Rest connector ${uuid} is being changed by others; retry`);
  }
}

/**
 * A write that depends on its environment's connector variables (`{{env.NAME}}`) found them changed in its unit of
 * work since it was checked against them (ConnectorEnvironments.hold): nothing written. A PUT, revert, restore or
 * single create checks again with the new variables (up to three times); an import or a promotion answers it.
 */
export class EnvironmentChangedException extends DomainError {
  constructor(envUuid: string, checked: number, now: number) {
    super(
      'CONNECTOR_VARIABLES_BUSY',
      `The connector variables of environment ${envUuid} changed while this write was made (it was checked against version ${checked}, ` +
        `they are at version ${now} now); nothing was written: send it again, it will be checked against them as they are now`,
    );
  }
}

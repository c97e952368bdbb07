import { DomainError } from '../errors/domain-error';

export class OrganizationNotFoundException extends DomainError {
  constructor(orgUuid: string) {
    super('ORGANIZATION_NOT_FOUND', `Organization ${orgUuid} not found`);
  }
}

export class EnvironmentNotFoundException extends DomainError {
  constructor(orgUuid: string, envUuid: string) {
    super('ENVIRONMENT_NOT_FOUND', `Environment ${envUuid} not found in organization ${orgUuid}`);
  }
}

export class BotNotFoundException extends DomainError {
  constructor(envUuid: string, botUuid: string) {
    super('BOT_NOT_FOUND', `Bot ${botUuid} not found in environment ${envUuid}`);
  }
}

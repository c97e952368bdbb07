import { NotFoundException } from '@nestjs/common';

export class OrganizationNotFoundException extends NotFoundException {
  constructor(orgUuid: string) {
    super(`Organization ${orgUuid} not found`);
  }
}

export class EnvironmentNotFoundException extends NotFoundException {
  constructor(orgUuid: string, envUuid: string) {
    super(`Environment ${envUuid} not found in organization ${orgUuid}`);
  }
}

export class BotNotFoundException extends NotFoundException {
  constructor(envUuid: string, botUuid: string) {
    super(`Bot ${botUuid} not found in environment ${envUuid}`);
  }
}

import { Injectable } from '@nestjs/common';
import { ReadFrom } from '../database/read-from';
import { BotNotFoundException, EnvironmentNotFoundException, OrganizationNotFoundException } from './scope-not-found.exceptions';
import { ScopeRepository } from './scope.repository';

/**
 * The scope of a path must hold: the environment belongs to the organization and the bot to the
 * environment. Otherwise a 404 naming the first link that is missing.
 */
@Injectable()
export class ScopeService {
  constructor(private readonly scopes: ScopeRepository) {}

  async requireOrganization(orgUuid: string): Promise<void> {
    const found = await this.scopes.lookup(orgUuid);
    if (!found.organization) throw new OrganizationNotFoundException(orgUuid);
  }

  async requireEnvironment(orgUuid: string, envUuid: string): Promise<void> {
    const found = await this.scopes.lookup(orgUuid, envUuid);
    if (!found.organization) throw new OrganizationNotFoundException(orgUuid);
    if (!found.environment) throw new EnvironmentNotFoundException(orgUuid, envUuid);
  }

  /** `from: 'primary'` for the scope check of a write (see ReadFrom). */
  async requireBot(orgUuid: string, envUuid: string, botUuid: string, from: ReadFrom = 'replica'): Promise<void> {
    const found = await this.scopes.lookup(orgUuid, envUuid, botUuid, from);
    if (!found.organization) throw new OrganizationNotFoundException(orgUuid);
    if (!found.environment) throw new EnvironmentNotFoundException(orgUuid, envUuid);
    if (!found.bot) throw new BotNotFoundException(envUuid, botUuid);
  }
}

import { Injectable } from '@nestjs/common';
import { ReadFrom } from '../database/database';
import { NOT_IN_SCOPE, Scoped, ScopeIds } from './not-in-scope';
import { BotNotFoundException, EnvironmentNotFoundException, OrganizationNotFoundException } from './scope-not-found.exceptions';
import { ScopeRepository } from './scope.repository';

/**
 * The scope of a path must hold: the environment belongs to the organization and the bot to the
 * environment. Otherwise a 404 naming the first link that is missing.
 */
@Injectable()
export class ScopeService {
  constructor(private readonly scopes: ScopeRepository) {}

  /**
   * A scoped query's answer. NOT_IN_SCOPE becomes the 404 naming the path's missing link, or, when every
   * link exists, what `inScope` answers: the empty result, or the 404 of the thing itself. `from: 'primary'`
   * when a write depends on it (see ReadFrom).
   */
  async resolve<T>(path: ScopeIds, answer: Scoped<T>, inScope: () => T | Promise<T>, from: ReadFrom = 'replica'): Promise<T> {
    if (answer !== NOT_IN_SCOPE) return answer;
    await this.require(path, from);
    return inScope();
  }

  /** Resolves when every link of the path exists; otherwise the 404 naming the first missing one. */
  async require(path: ScopeIds, from: ReadFrom = 'replica'): Promise<void> {
    const found = await this.scopes.lookup(path, from);
    if (!found.organization) throw new OrganizationNotFoundException(path.orgUUID);
    if (path.envUUID === undefined) return;
    if (!found.environment) throw new EnvironmentNotFoundException(path.orgUUID, path.envUUID);
    if (path.botUUID === undefined) return;
    if (!found.bot) throw new BotNotFoundException(path.envUUID, path.botUUID);
  }
}

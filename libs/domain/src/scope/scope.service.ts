import { Injectable } from '@nestjs/common';
import { ReadFrom } from '../database/database';
import { Lookup, ScopeIds } from './lookup';
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
   * What a scoped query found at the path. When it found nothing there: the 404 naming the path's first missing
   * link, or, when every link exists, undefined: only what the query looked for is missing (or the list is empty),
   * and the caller answers that as its own rule says. `from: 'primary'` when a write depends on it (see ReadFrom).
   */
  async inPath<T>(path: ScopeIds, lookup: Lookup<T>, from: ReadFrom = 'replica'): Promise<T | undefined> {
    if (lookup.found) return lookup.value;
    await this.require(path, from);
    return undefined;
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

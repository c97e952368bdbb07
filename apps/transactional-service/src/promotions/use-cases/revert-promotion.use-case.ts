import {
  ConnectorForWrite,
  ConnectorPromotionRepository,
  ConsistencyScope,
  Database,
  InvalidInputError,
  PromotionAction,
  PromotionDto,
  PromotionPath,
  ScopeService,
  Transaction,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author } from '../../rest-connectors/author';
import { ConnectorEnvironments } from '../../rest-connectors/connector-environment';
import { environmentProblems, writeOfSnapshot } from '../../rest-connectors/connector-write';
import { refersToEnvironment } from '../../rest-connectors/env-destinations';
import { DeleteConnector } from '../../rest-connectors/use-cases/delete-connector.use-case';
import { unlessNameTaken } from '../../rest-connectors/use-cases/name-taken';
import { RestoreConnector } from '../../rest-connectors/use-cases/restore-connector.use-case';
import { UpdateConnector } from '../../rest-connectors/use-cases/update-connector.use-case';
import { EnvironmentChangedException } from '../../rest-connectors/rest-connector.exceptions';
import { PromotionNotFoundException, PromotionNotRevertibleException } from '../promotion.exceptions';
import { PromotionReads } from '../promotion-reads.service';

export interface RevertPromotionCommand {
  path: PromotionPath;
  author: Author;
  consistency?: ConsistencyScope;
}

/**
 * `POST …/promotions/{promotionId}/revert`: every connector the promotion wrote back to its version before it, as one
 * unit of work through the connectors' own writes, each version naming the promotion: an updated one gets its record
 * before back (UpdateConnector, as RevertConnector does: the stored secrets kept while their destinations are
 * unchanged), a created one goes to the trash, a deleted one is restored. 409 when it was reverted already, or naming
 * every connector it wrote that has changed since (its version is no longer the one the promotion left).
 */
@Injectable()
export class RevertPromotion {
  constructor(
    private readonly db: Database,
    private readonly scope: ScopeService,
    private readonly promotions: ConnectorPromotionRepository,
    private readonly update: UpdateConnector,
    private readonly remove: DeleteConnector,
    private readonly restore: RestoreConnector,
    private readonly reads: PromotionReads,
    private readonly environments: ConnectorEnvironments,
  ) {}

  async execute({ path: { promotionId, ...bot }, author, consistency }: RevertPromotionCommand): Promise<PromotionDto> {
    const promotion = await this.scope.inPath(bot, await this.promotions.one(bot, promotionId, 'primary'), 'primary');
    if (!promotion) throw new PromotionNotFoundException(bot.botUUID, promotionId);
    if (promotion.revertedAt !== null) {
      throw new PromotionNotRevertibleException(promotionId, `it was reverted on ${promotion.revertedAt.toISOString()} by ${promotion.revertedBy}`);
    }
    const current = new Map<string, ConnectorForWrite>(
      (
        await this.promotions.forWriteByUuids(
          bot.botUUID,
          promotion.items.map(({ connectorUuid }) => connectorUuid),
        )
      ).map((found) => [found.connector.uuid, found]),
    );
    const changed = promotion.items.filter(({ connectorUuid, versionAfter }) => current.get(connectorUuid)?.connector.version !== versionAfter);
    if (changed.length > 0) {
      const named = changed.map(
        ({ connectorUuid, name, versionAfter }) =>
          `"${name}" (${connectorUuid}: version ${current.get(connectorUuid)?.connector.version ?? 'none'} now, the promotion left version ${versionAfter})`,
      );
      throw new PromotionNotRevertibleException(
        promotionId,
        `${changed.length === 1 ? 'a connector it wrote has' : `${changed.length} connectors it wrote have`} changed since: ${named.join(', ')}. ` +
          'Put them back by hand (their versions: GET …/rest-connectors/{serviceUUID}/versions), or revert them one by one',
      );
    }
    const before = await this.promotions.snapshotsAt(
      promotion.items
        .filter(({ action }) => action === PromotionAction.UPDATE)
        .map(({ connectorUuid, versionBefore }) => ({ connectorUuid, version: versionBefore! })),
    );
    const reverting: Author = { ...author, promotionId };
    // The bot's environment as it is now: the records put back are written in it.
    const environment = await this.environments.of(bot);
    const now = new Date();
    const problems: string[] = [];
    const writes: Array<(tx: Transaction) => Promise<boolean>> = [];
    // The version of the environment the records put back were checked against, when one of them depends on it.
    let checkedAgainst: number | null = null;
    for (const { connectorUuid, name, action, versionBefore } of promotion.items) {
      const found = current.get(connectorUuid)!;
      const path = { ...bot, serviceUUID: connectorUuid };
      if (action === PromotionAction.CREATE) writes.push((tx) => this.remove.apply(tx, path, found.connector, reverting, now));
      else if (action === PromotionAction.DELETE) {
        // Active again as it was, in its environment as it is now: what it needs of it must still hold (as a restore).
        const restoreProblems = environmentProblems(found.connector, environment);
        problems.push(...restoreProblems.map((problem) => `"${name}" (${connectorUuid}): ${problem}`));
        if (refersToEnvironment(found.connector)) checkedAgainst ??= environment.version;
        writes.push((tx) => this.restore.apply(tx, path, found.connector, reverting, now));
      } else {
        try {
          const prepared = this.update.prepare(
            found,
            writeOfSnapshot(before.get(`${connectorUuid}/${versionBefore}`)!),
            reverting,
            environment,
            now,
            versionBefore,
          );
          checkedAgainst ??= prepared.environmentVersion;
          writes.push((tx) => this.update.apply(tx, path, prepared));
        } catch (error) {
          if (!(error instanceof InvalidInputError)) throw error;
          problems.push(...error.problems.map((problem) => `"${name}" (${connectorUuid}): ${problem}`));
        }
      }
    }
    if (problems.length > 0) {
      throw new PromotionNotRevertibleException(
        promotionId,
        `${problems.join('; ')}. PUT those connectors' records before it with the secrets they need instead`,
      );
    }
    await unlessNameTaken(undefined, () =>
      this.db.transaction(async (tx) => {
        try {
          await this.environments.hold(tx, bot, checkedAgainst);
        } catch (error) {
          if (!(error instanceof EnvironmentChangedException)) throw error;
          throw new PromotionNotRevertibleException(
            promotionId,
            "the environment's connector variables changed while it was reverted; nothing was written, retry",
          );
        }
        for (const write of writes) {
          if (!(await write(tx)))
            throw new PromotionNotRevertibleException(promotionId, 'a connector it wrote was changed while it was reverted; nothing was written, retry');
        }
        if (!(await this.promotions.markReverted(tx, promotionId, now, author.caller.username))) {
          throw new PromotionNotRevertibleException(promotionId, 'it was reverted meanwhile');
        }
      }, consistency),
    );
    return this.reads.get(bot, promotionId, consistency ?? 'primary');
  }
}

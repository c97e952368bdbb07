import { DomainError } from '@app/domain';

export class PromotionNotFoundException extends DomainError {
  constructor(botUuid: string, promotionId: string) {
    super('PROMOTION_NOT_FOUND', `Promotion ${promotionId} not found in bot ${botUuid}`);
  }
}

/** An apply whose plan no longer holds: a side changed since the dry run, or while it was applied. */
export class PromotionStaleException extends DomainError {
  constructor(what: string) {
    super('PROMOTION_STALE', `The promotion's plan no longer holds: ${what}. Run the dry run again, review the new plan, then apply it with its digest`);
  }
}

/** A revert refused: the promotion was reverted already, or connectors it wrote have changed since (each named). */
export class PromotionNotRevertibleException extends DomainError {
  constructor(promotionId: string, why: string) {
    super('PROMOTION_NOT_REVERTIBLE', `Promotion ${promotionId} cannot be reverted: ${why}`);
  }
}

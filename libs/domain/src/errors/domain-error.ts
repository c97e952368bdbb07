/**
 * What a rule of the domain refused, by code. libs/domain knows nothing of HTTP: the platform's one exception
 * filter maps each code to a status (libs/platform/src/http/domain-error-status.ts, which the compiler keeps
 * complete), as twenty's exceptions and their REST mapper do.
 */
export type DomainErrorCode =
  | 'ORGANIZATION_NOT_FOUND'
  | 'ENVIRONMENT_NOT_FOUND'
  | 'BOT_NOT_FOUND'
  | 'CONNECTOR_NOT_FOUND'
  | 'CONNECTOR_IN_TRASH'
  | 'CONNECTOR_VERSION_NOT_FOUND'
  | 'CONNECTOR_VERSION_NOT_REVERTIBLE'
  | 'CONNECTOR_NAME_TAKEN'
  | 'CONNECTOR_NOT_DELETED'
  | 'CONNECTOR_BUSY'
  | 'CONNECTOR_CHANGED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENT_REQUEST_IN_PROGRESS'
  | 'EVENT_CURSOR_EXPIRED'
  | 'CONNECTOR_VARIABLES_CHANGED'
  | 'CONNECTOR_VARIABLES_BUSY'
  | 'DESTINATIONS_MOVED'
  | 'PROMOTION_NOT_FOUND'
  | 'PROMOTION_STALE'
  | 'PROMOTION_NOT_REVERTIBLE'
  | 'INVALID_INPUT';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** What the error body carries beside the platform's members (a 409's list of what conflicts), after them; none by default. */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that breaks a rule: every problem found, each a sentence that says how to fix it. */
export class InvalidInputError extends DomainError {
  constructor(readonly problems: string[]) {
    super('INVALID_INPUT', problems.join('; '));
  }
}

import { DomainError } from '../errors/domain-error';

export class IdempotencyKeyReusedException extends DomainError {
  constructor() {
    super('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
  }
}

export class IdempotentRequestInProgressException extends DomainError {
  constructor() {
    super('IDEMPOTENT_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry later');
  }
}

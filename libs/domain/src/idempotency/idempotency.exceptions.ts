import { ConflictException, UnprocessableEntityException } from '@nestjs/common';

export class IdempotencyKeyReusedException extends UnprocessableEntityException {
  constructor() {
    super('This Idempotency-Key was already used with a different request');
  }
}

export class IdempotentRequestInProgressException extends ConflictException {
  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry later');
  }
}

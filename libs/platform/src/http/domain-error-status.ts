import { DomainError, DomainErrorCode, InvalidInputError } from '@app/domain';
import { HttpStatus } from '@nestjs/common';

/** The status of each domain error code: the compiler refuses a code without one. */
const STATUS_OF: Record<DomainErrorCode, HttpStatus> = {
  ORGANIZATION_NOT_FOUND: HttpStatus.NOT_FOUND,
  ENVIRONMENT_NOT_FOUND: HttpStatus.NOT_FOUND,
  BOT_NOT_FOUND: HttpStatus.NOT_FOUND,
  CONNECTOR_NOT_FOUND: HttpStatus.NOT_FOUND,
  CONNECTOR_IN_TRASH: HttpStatus.NOT_FOUND,
  CONNECTOR_VERSION_NOT_FOUND: HttpStatus.NOT_FOUND,
  CONNECTOR_VERSION_NOT_REVERTIBLE: HttpStatus.CONFLICT,
  CONNECTOR_NAME_TAKEN: HttpStatus.CONFLICT,
  CONNECTOR_NOT_DELETED: HttpStatus.CONFLICT,
  CONNECTOR_BUSY: HttpStatus.CONFLICT,
  CONNECTOR_CHANGED: HttpStatus.PRECONDITION_FAILED,
  IDEMPOTENCY_KEY_REUSED: HttpStatus.UNPROCESSABLE_ENTITY,
  IDEMPOTENT_REQUEST_IN_PROGRESS: HttpStatus.CONFLICT,
  EVENT_CURSOR_EXPIRED: HttpStatus.GONE,
  CONNECTOR_VARIABLES_CHANGED: HttpStatus.PRECONDITION_FAILED,
  CONNECTOR_VARIABLES_BUSY: HttpStatus.CONFLICT,
  DESTINATIONS_MOVED: HttpStatus.CONFLICT,
  PROMOTION_NOT_FOUND: HttpStatus.NOT_FOUND,
  PROMOTION_STALE: HttpStatus.CONFLICT,
  PROMOTION_NOT_REVERTIBLE: HttpStatus.CONFLICT,
  INVALID_INPUT: HttpStatus.BAD_REQUEST,
};

/** A domain error as the answer says it: its code's status, and its message (every problem, for invalid input). */
export function describeDomainError(error: DomainError): { status: number; message: string | string[]; details?: Readonly<Record<string, unknown>> } {
  const described = { status: STATUS_OF[error.code], message: error instanceof InvalidInputError ? error.problems : error.message };
  return error.details === undefined ? described : { ...described, details: error.details };
}

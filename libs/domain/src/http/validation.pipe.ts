import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** A body with thousands of bad elements still gets a readable answer. */
export const MAX_VALIDATION_MESSAGES = 50;

/** `headers.3.header must be …`: each message names the failing field by its path. */
function messagesOf(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      parent && message.startsWith(error.property) ? `${parent}.${message}` : message,
    );
    return [...own, ...messagesOf(error.children ?? [], path)];
  });
}

/**
 * The one ValidationPipe of the platform: unknown fields are rejected by name, every failing field is
 * listed at once (up to MAX_VALIDATION_MESSAGES), and query strings and path ids are transformed into
 * their declared types.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const messages = [...new Set(messagesOf(errors))];
      const shown = messages.slice(0, MAX_VALIDATION_MESSAGES);
      if (messages.length > shown.length) shown.push(`… and ${messages.length - shown.length} more`);
      return new BadRequestException(shown);
    },
  });
}

import { ValidationPipe } from '@nestjs/common';

/**
 * The one ValidationPipe of the platform: unknown fields are rejected by name, every failing field is
 * listed at once, and query strings and path ids are transformed into their declared types.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
  });
}

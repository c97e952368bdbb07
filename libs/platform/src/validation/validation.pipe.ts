import { ArgumentMetadata, BadRequestException, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { ArrayLimits } from './array-limits';
import { messagesOf } from './validation-messages';

/** An error names at most this many fields: a body with thousands of bad elements still gets a short answer. */
export const MAX_VALIDATION_MESSAGES = 20;

/** The 400 of every validation failure: each message once, at most MAX_VALIDATION_MESSAGES, then how many more. */
export function validationFailure(messages: string[]): BadRequestException {
  const unique = [...new Set(messages)];
  const shown = unique.slice(0, MAX_VALIDATION_MESSAGES);
  if (unique.length > shown.length) shown.push(`… and ${unique.length - shown.length} more`);
  return new BadRequestException(shown);
}

/**
 * Nest's ValidationPipe with the platform's input rules: an array over its limit is one 400 before any
 * element is transformed or validated (ArrayLimits), and every 400 names fields as validationFailure does.
 * This is the stock path (PERFORMANCE_OVERRIDES=off); RememberingValidationPipe adds the fast path on top.
 */
export class PlatformValidationPipe extends ValidationPipe {
  private readonly arrayLimits = new ArrayLimits();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.metatype && this.toValidate(metadata)) {
      const overLong = this.arrayLimits.overLong(metadata.metatype, value);
      if (overLong.length > 0) throw validationFailure(overLong);
    }
    return super.transform(value, metadata);
  }
}

/**
 * The options of the platform's ValidationPipe, on either path: unknown fields are rejected by name, every
 * failing field is listed at once (up to MAX_VALIDATION_MESSAGES), and query strings and path ids are
 * transformed into their declared types.
 */
export const PLATFORM_VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
  // The target names the fields an unknown one may have meant; the value is quoted back (validation-messages.ts).
  validationError: { target: true, value: true },
  exceptionFactory: (errors) => validationFailure(messagesOf(errors)),
};

import { ArgumentMetadata, BadRequestException, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { ArrayLimits } from './array-limits';
import { quoted } from '../http/quoted';

/** An error names at most this many fields: a body with thousands of bad elements still gets a short answer. */
export const MAX_VALIDATION_MESSAGES = 20;

/**
 * `headers.3.header must be …`, `property headers.3.x should not exist`: each message names the failing
 * field by its path, every name in it cut to the length an error may quote.
 */
function messagesOf(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const property = quoted(error.property);
    const path = parent ? `${parent}.${property}` : property;
    // whitelist's own message, `property <name> should not exist`, names the property inside the text.
    const unknown = `property ${error.property} `;
    const own = Object.values(error.constraints ?? {}).map((message) => {
      if (message.startsWith(unknown)) return `property ${path} ${message.slice(unknown.length)}`;
      return message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : message;
    });
    return [...own, ...messagesOf(error.children ?? [], path)];
  });
}

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
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => validationFailure(messagesOf(errors)),
};

import { ArgumentMetadata, BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { ArrayLimits } from './array-limits';
import { quoted } from '../http/quoted';
import { ValidityCheck } from '../performance/validity-check';

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

/** Arrays inside a remembered object (searchTerms) are shared between requests too: frozen all the way down. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Nest's ValidationPipe with the platform's input rules: an array over its limit is one 400 before any
 * element is transformed or validated (ArrayLimits), and every 400 names fields as validationFailure does.
 * This is the stock path (PERFORMANCE_OVERRIDES=off); RememberingValidationPipe adds the fast path on top.
 */
class PlatformValidationPipe extends ValidationPipe {
  private readonly arrayLimits = new ArrayLimits();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.metatype && this.toValidate(metadata)) {
      const overLong = this.arrayLimits.overLong(metadata.metatype, value);
      if (overLong.length > 0) throw validationFailure(overLong);
    }
    return super.transform(value, metadata);
  }
}

/** Valid path and query objects remembered per DTO class (the oldest forgotten first). */
export const MAX_REMEMBERED_PER_CLASS = 5_000;

/**
 * The fast path (a performance override, docs/performance-overrides.md). Path ids and query strings
 * repeat from request to request (the same bot, the same page), and class-transformer plus
 * class-validator cost more than the query they guard: a valid one is remembered by its text and handed
 * out again, frozen, so no handler can change what another gets. Bodies are always validated afresh.
 * Invalid input is never remembered. Valid objects are recognised by ValidityCheck without
 * class-validator's error machinery.
 */
class RememberingValidationPipe extends PlatformValidationPipe {
  private readonly remembered = new Map<Function, Map<string, unknown>>();
  private readonly validity = new ValidityCheck();

  /**
   * class-validator only for what the quick check cannot call valid: it then finds the errors and
   * writes every message. Options the check does not model (groups, say) go to class-validator alone.
   */
  protected override validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    return ValidityCheck.models(options) && this.validity.isValid(object) ? [] : super.validate(object, options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if ((type !== 'param' && type !== 'query') || !metatype || !this.toValidate(metadata)) return super.transform(value, metadata);
    const key = JSON.stringify(value);
    let known = this.remembered.get(metatype);
    const hit = known?.get(key);
    if (hit !== undefined) return hit;
    const valid = deepFreeze(await super.transform(value, metadata));
    if (!known) this.remembered.set(metatype, (known = new Map()));
    if (known.size >= MAX_REMEMBERED_PER_CLASS) known.delete(known.keys().next().value!);
    known.set(key, valid);
    return valid;
  }
}

/**
 * The one ValidationPipe of the platform, with or without its performance overrides: an array over its limit is refused before anything else is
 * looked at, unknown fields are rejected by name, every failing field is listed at once (up to
 * MAX_VALIDATION_MESSAGES), and query strings and path ids are transformed into their declared types.
 */
export function createValidationPipe(performanceOverrides = true): ValidationPipe {
  const Pipe = performanceOverrides ? RememberingValidationPipe : PlatformValidationPipe;
  return new Pipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationFailure(messagesOf(errors)),
  });
}

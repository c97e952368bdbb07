import { ArgumentMetadata, ValidationError } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { PlatformValidationPipe } from '../validation/validation.pipe';
import { ValidityCheck } from './validity-check';

/** Arrays inside a remembered object (searchTerms) are shared between requests too: frozen all the way down. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Valid path and query objects remembered per DTO class (the oldest forgotten first). */
export const MAX_REMEMBERED_PER_CLASS = 5_000;

/**
 * The fast path (a performance override: README.md here). Path ids and query strings
 * repeat from request to request (the same bot, the same page), and class-transformer plus
 * class-validator cost more than the query they guard: a valid one is remembered by its text and handed
 * out again, frozen, so no handler can change what another gets. Bodies are always validated afresh.
 * Invalid input is never remembered. Valid objects are recognised by ValidityCheck without
 * class-validator's error machinery.
 */
export class RememberingValidationPipe extends PlatformValidationPipe {
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

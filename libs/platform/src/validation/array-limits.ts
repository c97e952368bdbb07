import { getMetadataStorage, MetadataStorage } from 'class-validator';
import { quoted } from '../http/quoted';

/**
 * The array size limits (`@ArrayMaxSize`) of a class's own properties (the top level of a body or a query:
 * where every array of this API's DTOs is), checked on the plain input before anything else:
 * an array over its limit is one error, found in one comparison, instead of a transformation and a
 * validation of every element that the answer would refuse anyway. The limits are read from
 * class-validator's own rules once per class, so they are declared in one place.
 */
export class ArrayLimits {
  private readonly byClass = new WeakMap<Function, Array<[property: string, max: number]>>();

  constructor(private readonly storage: MetadataStorage = getMetadataStorage()) {}

  /** One message per property of `input` whose array is longer than its limit; none for a valid input. */
  overLong(type: Function, input: unknown): string[] {
    if (typeof input !== 'object' || input === null) return [];
    const messages: string[] = [];
    for (const [property, max] of this.limitsOf(type)) {
      const value = (input as Record<string, unknown>)[property];
      if (Array.isArray(value) && value.length > max) messages.push(`${quoted(property)} must contain no more than ${max} elements`);
    }
    return messages;
  }

  private limitsOf(type: Function): Array<[string, number]> {
    let limits = this.byClass.get(type);
    if (!limits) {
      const rules = this.storage.getTargetValidationMetadatas(type, '', false, false, undefined);
      limits = rules.filter((rule) => rule.name === 'arrayMaxSize' && !rule.each).map((rule) => [rule.propertyName, Number(rule.constraints[0])]);
      this.byClass.set(type, limits);
    }
    return limits;
  }
}

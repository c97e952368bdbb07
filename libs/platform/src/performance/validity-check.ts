import { getMetadataStorage, MetadataStorage, ValidationArguments, ValidationTypes, ValidatorConstraintInterface, ValidatorOptions } from 'class-validator';
import { isValidationMetadataCached } from './validation-metadata-cache';

/** The kinds of rule the check runs; PROMISE_VALIDATION and any other kind go to class-validator. */
const MODELLED_TYPES = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.WHITELIST,
  ValidationTypes.IS_DEFINED,
]);

type Rule = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type Check = (object: object) => boolean;

interface Constraint {
  rule: Rule;
  /** The implementations of the rule's constraint class, resolved once (class-validator looks them up per call). */
  implementations: ValidatorConstraintInterface[];
}

interface PropertyCheck {
  name: string;
  /** IsOptional, ValidateIf: when one is false the property is not validated at all. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  /** IsDefined, run (like the rest) only when the conditions hold. */
  defined: Constraint[];
  custom: Constraint[];
  nested: boolean;
}

/**
 * Tells, without building class-validator's error objects, whether class-validator would find an object
 * valid under the platform pipe's options: whitelist and forbidNonWhitelisted, no groups (`models`).
 *
 * class-validator builds an error object, three filtered rule lists and a closure for every property of
 * every object it validates, valid or not: most of a write's validation cost and garbage
 * (docs/performance.md). This check runs the very same rules, read from class-validator's metadata and
 * run through the same constraint implementations in the same order, and answers only "valid" or "not
 * known to be valid". The pipe asks it first and calls class-validator only for the second answer, so
 * every error message still comes from class-validator. It answers "not known" for what it does not
 * model (promises, asynchronous constraints, classes without rules): class-validator then decides.
 *
 * The constraint implementations are resolved when a class's check is built: class-validator's
 * `useContainer`, if ever used, must be called before the first validation (as its documentation asks).
 */
export class ValidityCheck {
  /**
   * Keyed by the class's rule list as the storage hands it out: with cacheValidationMetadata (installed at
   * start-up, see installPerformanceOverrides) that list is the same until a rule is added anywhere, and
   * then a new one, so a check is built once per class and never outlives its rules.
   */
  private readonly checks = new WeakMap<Rule[], Check>();

  constructor(private readonly storage: MetadataStorage = getMetadataStorage()) {
    // Without the cache every lookup hands out a new list, and a check would be built on every call.
    if (!isValidationMetadataCached(storage)) {
      throw new Error('ValidityCheck needs cacheValidationMetadata installed first (installPerformanceOverrides)');
    }
  }

  /** Whether the check models validation with these options; for any other, class-validator alone decides. */
  static models(options: ValidatorOptions | undefined): boolean {
    return Boolean(
      options?.whitelist &&
      options.forbidNonWhitelisted &&
      !options.groups?.length &&
      !options.strictGroups &&
      !options.always &&
      !options.skipMissingProperties &&
      !options.skipNullProperties &&
      !options.skipUndefinedProperties,
    );
  }

  /** True only if class-validator would report no error for `object`. */
  isValid(object: object): boolean {
    if (typeof object.constructor !== 'function') return false;
    const rules = this.storage.getTargetValidationMetadatas(object.constructor, undefined as unknown as string, false, false, undefined);
    let check = this.checks.get(rules);
    if (!check) this.checks.set(rules, (check = this.compile(rules)));
    return check(object);
  }

  private compile(rules: Rule[]): Check {
    // A class without rules is an error with forbidUnknownValues and valid without: class-validator decides.
    if (rules.length === 0) return () => false;
    // A promise, or a kind of rule this check does not know (a later class-validator's): class-validator decides.
    if (rules.some((rule) => !MODELLED_TYPES.has(rule.type))) return () => false;
    const grouped = this.storage.groupByPropertyName(rules);
    if (rules.some((rule) => this.storage.getTargetValidatorConstraints(rule.constraintCls).some((constraint) => constraint.async))) {
      return () => false;
    }
    const allowed = new Set(Object.keys(grouped));
    const properties: PropertyCheck[] = Object.keys(grouped).map((name) => {
      const own = grouped[name].filter((rule) => rule.type !== ValidationTypes.IS_DEFINED && rule.type !== ValidationTypes.WHITELIST);
      return {
        name,
        conditions: own.filter((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION).map((rule) => rule.constraints[0]),
        defined: this.constraints(grouped[name].filter((rule) => rule.type === ValidationTypes.IS_DEFINED)),
        custom: this.constraints(own.filter((rule) => rule.type === ValidationTypes.CUSTOM_VALIDATION)),
        nested: own.some((rule) => rule.type === ValidationTypes.NESTED_VALIDATION),
      };
    });
    return (object) => {
      // whitelist + forbidNonWhitelisted: a property without rules is an error.
      for (const key of Object.keys(object)) if (!allowed.has(key)) return false;
      for (const property of properties) {
        const value = (object as Record<string, unknown>)[property.name];
        if (value instanceof Promise) return false;
        if (!property.conditions.every((condition) => condition(object, value))) continue;
        if (!this.passes(property.defined, object, value) || !this.passes(property.custom, object, value)) return false;
        if (property.nested && !this.nestedPasses(value)) return false;
      }
      return true;
    };
  }

  private constraints(rules: Rule[]): Constraint[] {
    return rules.map((rule) => ({
      rule,
      implementations: this.storage.getTargetValidatorConstraints(rule.constraintCls).map((constraint) => constraint.instance),
    }));
  }

  /** class-validator's customValidations, answering only whether every constraint held. */
  private passes(constraints: Constraint[], object: object, value: unknown): boolean {
    for (const { rule, implementations } of constraints) {
      if (rule.validateIf && !rule.validateIf(object, value)) continue;
      const args: ValidationArguments = {
        targetName: object.constructor.name,
        property: rule.propertyName,
        object,
        value,
        constraints: rule.constraints,
      };
      const items = rule.each ? itemsOf(value) : undefined;
      for (const constraint of implementations) {
        // Array.prototype.every skips the holes of a sparse array, as class-validator's map does.
        if (items === undefined ? !held(constraint.validate(value, args)) : !items.every((item) => held(constraint.validate(item, args)))) {
          return false;
        }
      }
    }
    return true;
  }

  /** class-validator's nestedValidations: arrays item by item, objects by their own class's rules. */
  private nestedPasses(value: unknown): boolean {
    if (value === undefined) return true;
    const items = itemsOf(value);
    if (items !== undefined) return items.every((item) => this.nestedPasses(item));
    if (value instanceof Object) return this.isValid(value);
    return false;
  }
}

/** The items class-validator validates one by one (its convertToArray): an array's, a set's, a map's values. */
function itemsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  if (value instanceof Map) return [...value.values()];
  return undefined;
}

/** A constraint held: a truthy answer that is not a promise (whose answer class-validator would await). */
function held(result: unknown): boolean {
  return Boolean(result) && typeof (result as { then?: unknown }).then !== 'function';
}

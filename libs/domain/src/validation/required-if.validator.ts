import { registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';

type Condition = (object: Record<string, unknown>) => boolean;

/**
 * A string field that `condition` makes required (non-blank); otherwise optional, but type-checked
 * when present. `when` completes the message: `basicToken is required when authType is AUTH_BASIC`.
 */
export function RequiredIf(condition: Condition, when: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    const property = String(propertyName);
    ValidateIf((o: Record<string, unknown>) => condition(o) || (o[property] !== undefined && o[property] !== null))(target, propertyName);
    registerDecorator({
      name: 'requiredIf',
      target: target.constructor,
      propertyName: property,
      options: { message: `$property is required when ${when}`, ...options },
      validator: {
        validate: (value: unknown, args) => !condition(args!.object as Record<string, unknown>) || (typeof value === 'string' && value.trim() !== ''),
      },
    });
  };
}

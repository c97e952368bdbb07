import { registerDecorator, ValidationOptions } from 'class-validator';

/** At most `max` bytes in UTF-8: the contract counts sizes in bytes (64 KiB, 8 KiB). */
export function MaxBytes(max: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'maxBytes',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [max],
      options: { message: `$property must be at most ${max} bytes (UTF-8)`, ...options },
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || Buffer.byteLength(value, 'utf8') <= max,
      },
    });
}

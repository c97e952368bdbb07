import { registerDecorator, ValidationOptions } from 'class-validator';

/** `{{variable}}` placeholders (the name captured) are filled in when the connector runs; they may stand anywhere. */
export const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

export function isHttpUrlWithPlaceholders(value: unknown, maxLength: number): boolean {
  if (typeof value !== 'string' || value.length > maxLength || /\s/.test(value.replace(PLACEHOLDER, ''))) return false;
  try {
    const url = new URL(value.replace(PLACEHOLDER, 'placeholder'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An absolute http or https URL of at most `maxLength` characters; `{{variable}}` placeholders allowed. */
export function IsHttpUrlWithPlaceholders(maxLength: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHttpUrlWithPlaceholders',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: `$property must be an absolute http or https URL of at most ${maxLength} characters ({{variable}} placeholders allowed)`,
        ...options,
      },
      validator: { validate: (value: unknown) => isHttpUrlWithPlaceholders(value, maxLength) },
    });
}

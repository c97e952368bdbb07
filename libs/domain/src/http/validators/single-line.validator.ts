import { registerDecorator, ValidationOptions } from 'class-validator';

/** CR and LF split an HTTP header or a log line; NUL ends a C string. None has a place in a one-line value. */
const LINE_BREAK_OR_NUL = /[\r\n\0]/;

export function isSingleLine(value: unknown): boolean {
  return typeof value !== 'string' || !LINE_BREAK_OR_NUL.test(value);
}

/**
 * A value that may end up in an HTTP message's head (a header, the request line) or in a log line:
 * no CR, LF or NUL, so it can never start a header or a line of its own. Non-strings are left to the type check.
 */
export function SingleLine(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'singleLine',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: '$property must not contain CR, LF or NUL characters', ...options },
      validator: { validate: isSingleLine },
    });
}

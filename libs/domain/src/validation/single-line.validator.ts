import { registerDecorator, ValidationOptions } from 'class-validator';
import { isSingleLine } from './text-rules';

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

import { registerDecorator, ValidationOptions } from 'class-validator';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** RFC 7617: the user-id and the password hold no control characters (RFC 5234 CTL). */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * What `Authorization: Basic <token>` must carry (RFC 7617): the Base64 (standard alphabet, padded, as
 * Buffer writes it back) of UTF-8 text `user-id:password`, split at its first colon, without control characters.
 * Anything else is not understood by the far side, or is understood by each server in its own way.
 */
export function isBasicCredentials(token: string): boolean {
  const bytes = Buffer.from(token, 'base64');
  // Buffer's decoder skips what is not Base64 and takes the URL-safe alphabet: only a token it writes back unchanged is canonical.
  if (token.length === 0 || bytes.toString('base64') !== token) return false;
  try {
    const text = UTF8.decode(bytes);
    return text.includes(':') && !CONTROL.test(text);
  } catch {
    return false;
  }
}

/**
 * An HTTP Basic token (isBasicCredentials) where `applies` says the auth settings use one; `placeholder`, which
 * keeps the stored token, is always accepted. Non-strings are left to the type check.
 */
export function IsBasicCredentials(applies: (object: Record<string, unknown>) => boolean, placeholder: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBasicCredentials',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: '$property must be the Base64 of user-id:password (RFC 7617), such as dXNlcjpwYXNzd29yZA== for user:password',
        ...options,
      },
      validator: {
        validate: (value: unknown, args) =>
          typeof value !== 'string' || value === placeholder || !applies(args!.object as Record<string, unknown>) || isBasicCredentials(value),
      },
    });
}

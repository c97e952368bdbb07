import { registerDecorator, ValidationOptions } from 'class-validator';

/** `{{variable}}` placeholders are filled in when the connector runs; they may stand anywhere. */
const PLACEHOLDER = /\{\{\s*[^{}\s]+\s*\}\}/g;

export function isHttpUrlWithPlaceholders(value: unknown, maxLength: number): boolean {
  if (typeof value !== 'string' || value.length > maxLength || /\s/.test(value.replace(PLACEHOLDER, ''))) return false;
  try {
    const url = new URL(value.replace(PLACEHOLDER, 'placeholder'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * Where a request to an http(s) URL goes, as written and lower-cased: the scheme and the authority
 * (`https://user@host:port`). A stored secret stays bound to it: a move from https to http would send
 * it in clear text, a move of the host, port or user info to another server.
 */
export function destinationOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = /^(https?:\/\/[^/?#]*)/i.exec(url);
  return match ? match[1].toLowerCase() : null;
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

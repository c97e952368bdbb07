import { registerDecorator, ValidationOptions } from 'class-validator';

/** A variable's name: what a placeholder holds and a test run's `variables` name (VARIABLE_NAME). */
export const VARIABLE_NAME_SOURCE = '[A-Za-z_][A-Za-z0-9_.-]{0,63}';

const PLACEHOLDER_SOURCE = `\\{\\{\\s*(${VARIABLE_NAME_SOURCE})\\s*\\}\\}`;

/**
 * `{{name}}` placeholders (the name captured; spaces around it allowed) are filled in when the connector runs; they
 * may stand anywhere. Only a variable's name makes one: anything else in double braces is text, sent as written, so
 * a template the far side fills (`{{1}}` of a WhatsApp template, Mustache's `{{#items}}`, Liquid's
 * `{{ name | upcase }}`, Handlebars' `{{{raw}}}`: three braces are never a placeholder) passes through untouched.
 * A backslash right before one escapes it (ESCAPED_PLACEHOLDER): `\{{name}}` is sent as the text `{{name}}`.
 */
export const PLACEHOLDER = new RegExp(`(?<![{\\\\])${PLACEHOLDER_SOURCE}`, 'g');

/** A text that is one placeholder and nothing else (`{{ token }}`), its name captured. */
export const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER_SOURCE}$`);

/**
 * `\{{name}}`: a placeholder escaped by the backslash before it, sent as the text `{{name}}` (the whole text
 * captured) in header values and the body. In a URL, literal braces are written percent-encoded (`%7B%7B`).
 */
export const ESCAPED_PLACEHOLDER = new RegExp(`\\\\(\\{\\{\\s*${VARIABLE_NAME_SOURCE}\\s*\\}\\})`, 'g');

/** An escaped placeholder (its text captured first) or a placeholder (its name captured second), whichever comes first. */
export const TEMPLATE = new RegExp(`${ESCAPED_PLACEHOLDER.source}|${PLACEHOLDER.source}`, 'g');

/**
 * A connector's text with its placeholders given to `fill` (the name) and its escaped placeholders written as the
 * text they stand for, in one pass: what a filled value holds is never read again.
 */
export function fillPlaceholders(text: string, fill: (name: string) => string): string {
  return text.replace(TEMPLATE, (_match, escaped: string | undefined, name: string | undefined) => (escaped !== undefined ? escaped : fill(name!)));
}

/**
 * A header value or body as it is sent, but for its placeholders: each escaped placeholder (`\{{name}}`) written as
 * the text `{{name}}` it stands for. What an export writes where its reader sends text as written (cURL).
 */
export function withEscapesAsSent(text: string): string {
  return text.replace(ESCAPED_PLACEHOLDER, (_match, literal: string) => literal);
}

/**
 * A URL that starts with an environment's connector variable (`{{env.BASE_URL}}/orders`): its value stands for the
 * scheme and host (and may hold a port and a path), filled as written (env-placeholders.ts).
 */
const LEADING_ENV_PLACEHOLDER = new RegExp(`^\\{\\{\\s*env\\.${VARIABLE_NAME_SOURCE}\\s*\\}\\}(?=[/?#]|$)`);

export function isHttpUrlWithPlaceholders(value: unknown, maxLength: number): boolean {
  if (typeof value !== 'string' || value.length > maxLength || /\s/.test(value.replace(PLACEHOLDER, ''))) return false;
  try {
    const url = new URL(value.replace(LEADING_ENV_PLACEHOLDER, 'https://placeholder').replace(PLACEHOLDER, 'placeholder'));
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

/** What the WHATWG parser trims from both ends of a URL: C0 controls and space. */
const C0_OR_SPACE_AT_ENDS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
/** An http(s) scheme, any case, and the run of `/` and `\` the WHATWG parser skips after it. */
const HTTP_SCHEME_AND_SLASHES = /^(https?):[/\\]*/i;

/**
 * An http(s) URL spelled as every parser reads it: the scheme lower-cased and followed by exactly `//`.
 * The WHATWG parser (undici's) skips any run of `/` and `\` after a special scheme, so `HTTP:/host`,
 * `https:host`, `https:\\host` and `https:///host` all go to `host`; other parsers (RFC 3986, Java's) read
 * them otherwise or not at all. Only that prefix changes (and the C0 controls and spaces WHATWG trims from the
 * ends): the rest, `{{variable}}` placeholders included, stays as written. Anything else is returned as is.
 */
export function canonicalHttpUrl(url: string): string {
  const trimmed = url.replace(C0_OR_SPACE_AT_ENDS, '');
  const match = HTTP_SCHEME_AND_SLASHES.exec(trimmed);
  return match ? `${match[1].toLowerCase()}://${trimmed.slice(match[0].length)}` : url;
}

import { registerDecorator, ValidationOptions } from 'class-validator';
import { ApiKeyIn } from '../rest-connectors/rest-connector.enums';
import { HTTP_TOKEN } from './http-token.validator';
import { CLIENT_MANAGED_HEADERS, ROUTING_HEADERS } from './http-headers';

/**
 * Why `name` cannot carry an API key sent where `apiKeyIn` says, or null. A header must be an HTTP token, and not
 * one the HTTP client sets itself, one that routes the call (the key would go with a call meant for another host)
 * or the Content-Type the connector's contentType sets. A query parameter may be any name: it is percent-encoded.
 */
export function apiKeyNameProblem(name: string, apiKeyIn: unknown): string | null {
  if (name.trim() === '') return 'must not be blank';
  if (apiKeyIn !== ApiKeyIn.HEADER) return null;
  if (!HTTP_TOKEN.test(name)) return 'must be an HTTP header name (RFC 9110 token) when apiKeyIn is HEADER';
  const lower = name.toLowerCase();
  if (CLIENT_MANAGED_HEADERS.has(lower)) return `cannot be ${name}: the HTTP client sets that header itself`;
  const routing = ROUTING_HEADERS.get(lower);
  if (routing === 'other') return `cannot be ${name}: front ends route the call by that header`;
  if (routing !== undefined) return `cannot be ${name}: that header names the host the call is meant for`;
  if (lower === 'content-type') return "cannot be Content-Type: the connector's contentType sets it";
  return null;
}

/** `apiKeyName`: a header or query parameter name that can carry the key (apiKeyNameProblem). Non-strings are left to the type check. */
export function IsApiKeyName(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isApiKeyName',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: ({ value, object }) => `$property ${apiKeyNameProblem(String(value), (object as Record<string, unknown>).apiKeyIn)}`,
        ...options,
      },
      validator: {
        validate: (value: unknown, args) => typeof value !== 'string' || apiKeyNameProblem(value, (args!.object as Record<string, unknown>).apiKeyIn) === null,
      },
    });
}

/** What a header carries safely on every server: visible ASCII and spaces (RFC 9110 advises against the rest). */
const HEADER_SAFE = /^[\x20-\x7e]*$/;

/** `apiKey` sent in a header: visible ASCII only (a query parameter's is percent-encoded, and may hold any text). */
export function IsApiKeyValue(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isApiKeyValue',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: '$property must be printable ASCII when apiKeyIn is HEADER: a header cannot carry other characters safely', ...options },
      validator: {
        validate: (value: unknown, args) =>
          typeof value !== 'string' || (args!.object as Record<string, unknown>).apiKeyIn !== ApiKeyIn.HEADER || HEADER_SAFE.test(value),
      },
    });
}

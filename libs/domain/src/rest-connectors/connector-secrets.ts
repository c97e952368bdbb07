import { SECRET_FIELDS, type SecretField } from './connector-fields';
import type { ConnectorHeader } from './rest-connector.entity';
import { AuthType, GrantType } from './rest-connector.enums';

/** The URLs of a connector: where its call goes, and where an OAuth 2.0 token is got. */
export type UrlField = 'url' | 'oauthUrl';

interface SecretRule {
  /** What a read shows for a set secret, and what a PUT sends back to keep it (docs/api-contract.md, "Rest connectors"). */
  placeholder: string;
  /** The auth settings that use the secret: required with them, discarded with any other. */
  authType: AuthType;
  grantType?: GrantType;
  /** The secret in the words of a 400. */
  words: string;
  /**
   * The URLs it, or what it buys, is sent to, where it goes itself first: a kept secret may not follow a change of
   * any of their destinations. An OAuth secret goes to `oauthUrl`, and the access token got with it to `url`.
   */
  destinations: readonly UrlField[];
  /**
   * The fields that say where in the call it goes, beside its URLs (an API key's header or query parameter): a kept
   * secret may not follow a change of them either, since a far side may log a query string or a header it does not expect.
   */
  placement?: readonly PlacementField[];
}

/** The settings that place a secret within the call. */
export type PlacementField = 'apiKeyIn' | 'apiKeyName';

/**
 * The one source of which secret each auth type uses: the write DTO's conditions and messages, the
 * placeholders of reads and the discarding on write are all derived from it. Which fields are secrets is
 * CONNECTOR_FIELDS' to say; the compiler asks for a rule for each.
 */
export const SECRETS: Record<SecretField, SecretRule> = {
  basicToken: { placeholder: '<BASIC_TOKEN>', words: 'the basic token', authType: AuthType.AUTH_BASIC, destinations: ['url'] },
  bearerToken: { placeholder: '<BEARER_TOKEN>', words: 'the bearer token', authType: AuthType.AUTH_BEARER, destinations: ['url'] },
  clientSecret: {
    placeholder: '<CLIENT_SECRET>',
    words: 'the client secret',
    authType: AuthType.AUTH_OAUTH2,
    grantType: GrantType.CLIENT_CREDENTIALS,
    destinations: ['oauthUrl', 'url'],
  },
  authPassword: {
    placeholder: '<PASSWORD>',
    words: 'the password',
    authType: AuthType.AUTH_OAUTH2,
    grantType: GrantType.PASSWORD,
    destinations: ['oauthUrl', 'url'],
  },
  apiKey: { placeholder: '<API_KEY>', words: 'the API key', authType: AuthType.AUTH_API_KEY, destinations: ['url'], placement: ['apiKeyIn', 'apiKeyName'] },
};

/**
 * What a read shows for a secret header's value (`secret: true`), and what a write sends back, with `secret: true`,
 * to keep the stored value of the secret header of that name (case-insensitively).
 */
export const SECRET_HEADER_PLACEHOLDER = '<SECRET>';

export const isSecretHeader = (header: { secret?: boolean }) => header.secret === true;

/** The stored secret header named `name` (case-insensitively), if any. */
export const storedSecretHeader = (headers: readonly ConnectorHeader[] | undefined, name: string) =>
  headers?.find((stored) => isSecretHeader(stored) && stored.header.toLowerCase() === name.toLowerCase());

/** The headers as a read, a version and an event show them: a secret one's value as SECRET_HEADER_PLACEHOLDER (the list itself when none is). */
export function shownHeaders(headers: readonly ConnectorHeader[]): ConnectorHeader[] {
  if (!headers.some(isSecretHeader)) return headers as ConnectorHeader[];
  return headers.map((header) => (isSecretHeader(header) ? { header: header.header, value: SECRET_HEADER_PLACEHOLDER, secret: true } : header));
}

export const SECRET_PLACEHOLDERS = Object.fromEntries(SECRET_FIELDS.map((field) => [field, SECRETS[field].placeholder])) as Record<SecretField, string>;

/** Whether these auth settings use `field`. */
export function usesSecret(field: SecretField, authType: unknown, grantType: unknown): boolean {
  const rule = SECRETS[field];
  return authType === rule.authType && (rule.grantType === undefined || grantType === rule.grantType);
}

/** `authType is AUTH_OAUTH2 and grantType is PASSWORD`: when `field` is required, in words. */
export function whenSecretIsUsed(field: SecretField): string {
  const { authType, grantType } = SECRETS[field];
  return grantType === undefined ? `authType is ${authType}` : `authType is ${authType} and grantType is ${grantType}`;
}

/** The secrets an auth type uses; the others are discarded on write. */
export function secretsUsedBy(authType: AuthType, grantType: GrantType | null | undefined): SecretField[] {
  return SECRET_FIELDS.filter((field) => usesSecret(field, authType, grantType));
}

/**
 * What these auth settings send to `field`, in the words of a 400, or null when it carries no secret: the secret
 * itself where it goes first (`url` for basic and bearer tokens, `oauthUrl` for OAuth 2.0 credentials), and the
 * OAuth 2.0 access token, got with the credentials, to `url`.
 */
export function secretSentTo(field: UrlField, authType: AuthType, grantType: GrantType | null | undefined): string | null {
  if (authType === AuthType.AUTH_OAUTH2 && field === 'url') return 'the access token';
  const secret = secretsUsedBy(authType, grantType).find((used) => SECRETS[used].destinations[0] === field);
  return secret === undefined ? null : SECRETS[secret].words;
}

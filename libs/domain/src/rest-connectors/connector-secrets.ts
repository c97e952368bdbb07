import { AuthType, GrantType } from './rest-connector.enums';

export type SecretField = 'basicToken' | 'bearerToken' | 'clientSecret' | 'authPassword';

interface SecretRule {
  /** What a read shows for a set secret, and what a PUT sends back to keep it (docs/api-contract.md, "Rest connectors"). */
  placeholder: string;
  /** The auth settings that use the secret: required with them, discarded with any other. */
  authType: AuthType;
  grantType?: GrantType;
  /** The URL it is sent to: a kept secret may not follow a change of that URL's destination. */
  destination: 'url' | 'oauthUrl';
}

/**
 * The one source of which secret each auth type uses: the write DTO's conditions and messages, the
 * placeholders of reads and the discarding on write are all derived from it.
 */
export const SECRETS: Record<SecretField, SecretRule> = {
  basicToken: { placeholder: '<BASIC_TOKEN>', authType: AuthType.AUTH_BASIC, destination: 'url' },
  bearerToken: { placeholder: '<BEARER_TOKEN>', authType: AuthType.AUTH_BEARER, destination: 'url' },
  clientSecret: { placeholder: '<CLIENT_SECRET>', authType: AuthType.AUTH_OAUTH2, grantType: GrantType.CLIENT_CREDENTIALS, destination: 'oauthUrl' },
  authPassword: { placeholder: '<PASSWORD>', authType: AuthType.AUTH_OAUTH2, grantType: GrantType.PASSWORD, destination: 'oauthUrl' },
};

export const SECRET_FIELDS = Object.keys(SECRETS) as SecretField[];

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

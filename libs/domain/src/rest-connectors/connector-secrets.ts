import { AuthType, GrantType } from './rest-connector.enums';

/** Secrets are write-only: a read shows a set secret as its placeholder (docs/api-contract.md, "Rest connectors"). */
export const SECRET_PLACEHOLDERS = {
  basicToken: '<BASIC_TOKEN>',
  bearerToken: '<BEARER_TOKEN>',
  clientSecret: '<CLIENT_SECRET>',
  authPassword: '<PASSWORD>',
} as const;

export type SecretField = keyof typeof SECRET_PLACEHOLDERS;
export const SECRET_FIELDS = Object.keys(SECRET_PLACEHOLDERS) as SecretField[];

/** The URL a secret is sent to: a kept secret may not follow a change of that URL's host. */
export const SECRET_DESTINATION: Record<SecretField, 'url' | 'oauthUrl'> = {
  basicToken: 'url',
  bearerToken: 'url',
  clientSecret: 'oauthUrl',
  authPassword: 'oauthUrl',
};

/** The secrets an auth type uses; the others are discarded on write. */
export function secretsUsedBy(authType: AuthType, grantType: GrantType | null | undefined): SecretField[] {
  switch (authType) {
    case AuthType.AUTH_BASIC:
      return ['basicToken'];
    case AuthType.AUTH_BEARER:
      return ['bearerToken'];
    case AuthType.AUTH_OAUTH2:
      if (grantType === GrantType.CLIENT_CREDENTIALS) return ['clientSecret'];
      if (grantType === GrantType.PASSWORD) return ['authPassword'];
      return [];
    default:
      return [];
  }
}

import { SECRETS, secretSentTo, secretsUsedBy, whenSecretIsUsed } from './connector-secrets';
import { AuthType, GrantType } from './rest-connector.enums';

describe(secretsUsedBy.name, () => {
  it.each([
    [AuthType.AUTH_NONE, null, []],
    [AuthType.AUTH_BASIC, null, ['basicToken']],
    [AuthType.AUTH_BEARER, GrantType.PASSWORD, ['bearerToken']],
    [AuthType.AUTH_OAUTH2, GrantType.CLIENT_CREDENTIALS, ['clientSecret']],
    [AuthType.AUTH_OAUTH2, GrantType.PASSWORD, ['authPassword']],
    [AuthType.AUTH_OAUTH2, null, []],
  ])('%s with grant %s uses %j', (authType, grantType, secrets) => {
    expect(secretsUsedBy(authType, grantType)).toEqual(secrets);
  });

  it('says when a secret is required in the words of the 400', () => {
    expect(whenSecretIsUsed('basicToken')).toBe('authType is AUTH_BASIC');
    expect(whenSecretIsUsed('authPassword')).toBe('authType is AUTH_OAUTH2 and grantType is PASSWORD');
  });
});

describe(secretSentTo.name, () => {
  it.each([
    ['url', AuthType.AUTH_NONE, null, null],
    ['oauthUrl', AuthType.AUTH_NONE, null, null],
    ['url', AuthType.AUTH_BASIC, null, 'the basic token'],
    ['oauthUrl', AuthType.AUTH_BASIC, null, null],
    ['url', AuthType.AUTH_BEARER, null, 'the bearer token'],
    ['url', AuthType.AUTH_OAUTH2, GrantType.CLIENT_CREDENTIALS, 'the access token'],
    ['oauthUrl', AuthType.AUTH_OAUTH2, GrantType.CLIENT_CREDENTIALS, 'the client secret'],
    ['oauthUrl', AuthType.AUTH_OAUTH2, GrantType.PASSWORD, 'the password'],
  ] as const)('%s with %s and grant %s carries %s', (field, authType, grantType, carried) => {
    expect(secretSentTo(field, authType, grantType)).toBe(carried);
  });

  it('binds OAuth secrets to oauthUrl, where they go, and to url, where the access token got with them goes', () => {
    expect(SECRETS.clientSecret.destinations).toEqual(['oauthUrl', 'url']);
    expect(SECRETS.authPassword.destinations).toEqual(['oauthUrl', 'url']);
    expect(SECRETS.bearerToken.destinations).toEqual(['url']);
  });
});

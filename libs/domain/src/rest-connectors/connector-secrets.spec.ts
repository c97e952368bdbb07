import { secretsUsedBy, whenSecretIsUsed } from './connector-secrets';
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

import { AuthType, GrantType } from '@app/domain';
import { BindingSource, destinationIn, movedSecrets, placeholdersInDestination, plainValuesOf, secretBindings } from './env-destinations';

const connector = (overrides: Partial<BindingSource>): BindingSource => ({
  url: 'https://api.example.com/v1',
  oauthUrl: null,
  authType: AuthType.AUTH_NONE,
  grantType: null,
  headers: [],
  body: '',
  basicToken: null,
  bearerToken: null,
  clientSecret: null,
  authPassword: null,
  apiKey: null,
  ...overrides,
});

const env = (values: Record<string, string>) => (name: string) => values[name];

describe('env destinations', () => {
  it('fills plain variables as written, so a base URL may carry the scheme, host, port and path', () => {
    expect(destinationIn('{{env.BASE_URL}}/v1/charges', env({ BASE_URL: 'https://API.stripe.com:443/x' }))).toBe('https://api.stripe.com');
    expect(destinationIn('https://{{env.HOST}}:{{env.PORT}}/x', env({ HOST: 'h.example.com', PORT: '8443' }))).toBe('https://h.example.com:8443');
  });

  it('cannot tell a destination from an undefined variable, a secret one, or a caller variable', () => {
    const values = plainValuesOf([
      { name: 'HOST', secret: false, value: 'h.example.com' },
      { name: 'KEY', secret: true, value: null },
    ]);
    expect(destinationIn('https://{{env.MISSING}}/x', values)).toBeNull();
    expect(destinationIn('https://{{env.KEY}}/x', values)).toBeNull();
    expect(destinationIn('https://{{host}}/x', values)).toBeNull();
    expect(destinationIn('https://{{env.HOST}}/{{id}}', values)).toBe('https://h.example.com');
  });

  it('binds stored secret fields to each URL they or their token go to, secret headers and secret variables to url', () => {
    const oauth = connector({
      url: '{{env.API}}/v1?key={{env.KEY}}',
      oauthUrl: 'https://{{env.LOGIN}}/token?tenant={{env.TENANT_SECRET}}',
      authType: AuthType.AUTH_OAUTH2,
      grantType: GrantType.CLIENT_CREDENTIALS,
      clientSecret: 'sealed',
      headers: [
        { header: 'X-Api-Key', value: 'sealed', secret: true },
        { header: 'X-Plain', value: 'Bearer {{env.OTHER}}' },
      ],
    });
    const values = env({ API: 'https://api.example.com', LOGIN: 'login.example.com' });
    expect(secretBindings(oauth, values, new Set(['KEY', 'TENANT_SECRET', 'UNUSED']))).toEqual([
      { secret: 'clientSecret', url: 'oauthUrl', destination: 'https://login.example.com' },
      { secret: 'clientSecret', url: 'url', destination: 'https://api.example.com' },
      { secret: 'headers.X-Api-Key', url: 'url', destination: 'https://api.example.com' },
      { secret: 'env.TENANT_SECRET', url: 'oauthUrl', destination: 'https://login.example.com' },
      { secret: 'env.KEY', url: 'url', destination: 'https://api.example.com' },
    ]);
  });

  it('names the stored secrets a change of values moves, and only those', () => {
    const bearer = connector({ url: '{{env.BASE_URL}}/v1/{{env.PATH}}', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed' });
    const before = env({ BASE_URL: 'https://a.example.com', PATH: 'x' });
    expect(movedSecrets(bearer, before, env({ BASE_URL: 'https://a.example.com/', PATH: 'y' }))).toEqual([]);
    expect(movedSecrets(bearer, before, env({ BASE_URL: 'http://a.example.com' }))).toEqual([
      { secret: 'bearerToken', url: 'url', destination: 'http://a.example.com', from: 'https://a.example.com' },
    ]);
    expect(movedSecrets(bearer, before, env({}))).toEqual([{ secret: 'bearerToken', url: 'url', destination: null, from: 'https://a.example.com' }]);
    expect(movedSecrets(connector({ url: '{{env.BASE_URL}}/v1' }), before, env({}))).toEqual([]);
  });

  it('reads lexically which placeholders stand where a destination is told', () => {
    expect(placeholdersInDestination('{{env.BASE_URL}}/v1/{{id}}')).toEqual(['env.BASE_URL']);
    expect(placeholdersInDestination('{{env.SCHEME}}://{{user}}@{{env.HOST}}:{{env.PORT}}/{{env.PATH}}?q={{q}}')).toEqual([
      'env.SCHEME',
      'user',
      'env.HOST',
      'env.PORT',
    ]);
    expect(placeholdersInDestination('https://api.example.com{{rest}}')).toEqual(['rest']);
    expect(placeholdersInDestination('https://api.example.com?x={{q}}#{{f}}')).toEqual([]);
  });
});

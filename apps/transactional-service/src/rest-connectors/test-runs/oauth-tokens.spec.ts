import { GrantType } from '@app/domain';
import { AuthFailedError, OAuthSettings, OAuthTokens, TOKEN_MARGIN_MS } from './oauth-tokens';
import { OutboundGuard } from './outbound-guard';
import { CLIENT, tokenEndpoint, USER } from './testing/token-endpoint';

describe(OAuthTokens.name, () => {
  let endpoint: Awaited<ReturnType<typeof tokenEndpoint>>;
  let clock: number;
  let tokens: OAuthTokens;
  const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => []).dispatcher({ connectTimeoutMs: 2_000 });

  const clientCredentials = (): OAuthSettings => ({
    oauthUrl: endpoint.url,
    grantType: GrantType.CLIENT_CREDENTIALS,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    username: null,
    password: null,
  });

  beforeEach(async () => {
    endpoint = await tokenEndpoint(3600);
    clock = 1_000_000;
    tokens = new OAuthTokens(dispatcher, 2_000, () => clock);
  });
  afterEach(() => endpoint.close());
  afterAll(() => dispatcher.close());

  it('gets a token with the client credentials grant, the client authenticated with HTTP Basic, form-urlencoded (RFC 6749 2.3.1)', async () => {
    const { accessToken: token, kept } = await tokens.tokenFor(clientCredentials(), 'c1');
    expect(kept).toBe(false);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(endpoint.authorizations).toEqual([`Basic ${Buffer.from('bot+platform:se%3Acr%26et').toString('base64')}`]);
  });

  it('gets a token with the password grant, client_id in the form when there is no client secret', async () => {
    const settings = { ...clientCredentials(), grantType: GrantType.PASSWORD, clientSecret: null, username: USER.username, password: USER.password };
    await expect(tokens.tokenFor(settings, 'c1')).resolves.toEqual({ accessToken: expect.stringMatching(/^[0-9a-f]{64}$/), kept: false });
    expect(endpoint.authorizations).toEqual([undefined]);
  });

  it('keeps a token per connector until expires_in minus 30 s, then asks again', async () => {
    const first = (await tokens.tokenFor(clientCredentials(), 'c1')).accessToken;
    clock += 3600_000 - TOKEN_MARGIN_MS - 1;
    expect(await tokens.tokenFor(clientCredentials(), 'c1')).toEqual({ accessToken: first, kept: true });
    expect(endpoint.issued()).toBe(1);
    clock += 1;
    expect(await tokens.tokenFor(clientCredentials(), 'c1')).toEqual({ accessToken: expect.not.stringMatching(first), kept: false });
    expect(endpoint.issued()).toBe(2);
  });

  it('asks again when the settings change, for another connector, after drop, and for an unsaved connector', async () => {
    await tokens.tokenFor(clientCredentials(), 'c1');
    await tokens.tokenFor({ ...clientCredentials(), oauthUrl: `${endpoint.url}?v=2` }, 'c1');
    await tokens.tokenFor(clientCredentials(), 'c2');
    tokens.drop('c2');
    await tokens.tokenFor(clientCredentials(), 'c2');
    await tokens.tokenFor(clientCredentials());
    await tokens.tokenFor(clientCredentials());
    expect(endpoint.issued()).toBe(6);
  });

  it('keeps at most maxKept tokens, forgetting the one kept longest ago', async () => {
    tokens = new OAuthTokens(dispatcher, 2_000, () => clock, 2);
    await tokens.tokenFor(clientCredentials(), 'c1');
    await tokens.tokenFor(clientCredentials(), 'c2');
    await tokens.tokenFor(clientCredentials(), 'c3');
    expect((await tokens.tokenFor(clientCredentials(), 'c3')).kept).toBe(true);
    expect((await tokens.tokenFor(clientCredentials(), 'c2')).kept).toBe(true);
    expect((await tokens.tokenFor(clientCredentials(), 'c1')).kept).toBe(false);
    expect(endpoint.issued()).toBe(4);
  });

  it("is AUTH_FAILED with the endpoint's RFC 6749 error and description", async () => {
    const wrong = { ...clientCredentials(), clientSecret: 'wrong' };
    const failure = await tokens.tokenFor(wrong, 'c1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthFailedError);
    expect(failure).toMatchObject({ status: 401, error: 'invalid_client', errorDescription: expect.stringMatching(/client/i) });
  });

  it('goes through the outbound guard: a token endpoint on a refused address is never reached', async () => {
    const refused = { ...clientCredentials(), oauthUrl: endpoint.url.replace('127.0.0.2', '127.0.0.1') };
    await expect(tokens.tokenFor(refused, 'c1')).rejects.toMatchObject({ code: 'BLOCKED_DESTINATION' });
    expect(endpoint.issued()).toBe(0);
  });
});

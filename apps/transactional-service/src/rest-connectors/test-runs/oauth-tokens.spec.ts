import { GrantType } from '@app/domain';
import { MAX_ACCESS_TOKEN_LENGTH, OAuthSettings, OAuthTokens, TOKEN_MARGIN_MS, tokenRequest } from './oauth-tokens';
import { OutboundGuard } from './outbound-guard';
import { RunDeadline } from './run-deadline';
import { farSide } from './testing/far-side';
import { CLIENT, tokenEndpoint, USER } from './testing/token-endpoint';

describe(OAuthTokens.name, () => {
  let endpoint: Awaited<ReturnType<typeof tokenEndpoint>>;
  let clock: number;
  let tokens: OAuthTokens;
  const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => []).dispatcher({ connectTimeoutMs: 2_000 });
  const deadline = () => new RunDeadline(2_000);

  const clientCredentials = (): OAuthSettings => ({
    oauthUrl: endpoint.url,
    grantType: GrantType.CLIENT_CREDENTIALS,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    username: null,
    password: null,
    callDestination: 'https://api.example.com',
  });
  const accessToken = async (settings: OAuthSettings, keepAs?: string) => {
    const result = await tokens.tokenFor(settings, deadline(), keepAs);
    if ('failed' in result) throw new Error(`no token: ${result.failed.message}`);
    return result;
  };

  beforeEach(async () => {
    endpoint = await tokenEndpoint(3600);
    clock = 1_000_000;
    tokens = new OAuthTokens(dispatcher, () => clock);
  });
  afterEach(() => endpoint.close());
  afterAll(() => dispatcher.close());

  it('gets a token with the client credentials grant, the client authenticated with HTTP Basic, form-urlencoded (RFC 6749 2.3.1)', async () => {
    const { accessToken: token, kept } = await accessToken(clientCredentials(), 'c1');
    expect(kept).toBe(false);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(endpoint.authorizations).toEqual([`Basic ${Buffer.from('bot+platform:se%3Acr%26et').toString('base64')}`]);
  });

  it('gets a token with the password grant, client_id in the form when there is no client secret', async () => {
    const settings = { ...clientCredentials(), grantType: GrantType.PASSWORD, clientSecret: null, username: USER.username, password: USER.password };
    await expect(accessToken(settings, 'c1')).resolves.toEqual({ accessToken: expect.stringMatching(/^[0-9a-f]{64}$/), kept: false });
    expect(endpoint.authorizations).toEqual([undefined]);
    expect(tokenRequest(settings).body).toBe('grant_type=password&username=ada&password=lovelace&client_id=bot+platform');
    // As an answer shows it: the password as its placeholder, written to be read.
    expect(tokenRequest(settings, true).body).toBe('grant_type=password&username=ada&password=<PASSWORD>&client_id=bot+platform');
    expect(tokenRequest(clientCredentials(), true).headers).toContainEqual({ header: 'Authorization', value: 'Basic <CLIENT_CREDENTIALS>' });
  });

  it('keeps a token per connector until expires_in minus 30 s, then asks again', async () => {
    const first = (await accessToken(clientCredentials(), 'c1')).accessToken;
    // The endpoint's own clock answers 3600 or, a millisecond later, 3599: what it said is what the token is kept by.
    const expiresInS = endpoint.lastExpiresInS()!;
    expect([3599, 3600]).toContain(expiresInS);
    clock += expiresInS * 1000 - TOKEN_MARGIN_MS - 1;
    expect(await accessToken(clientCredentials(), 'c1')).toEqual({ accessToken: first, kept: true });
    expect(endpoint.issued()).toBe(1);
    clock += 1;
    expect(await accessToken(clientCredentials(), 'c1')).toEqual({ accessToken: expect.not.stringMatching(first), kept: false });
    expect(endpoint.issued()).toBe(2);
  });

  it('asks again when the settings change, the destination the token goes to included, for another connector, after drop, and for an unsaved connector', async () => {
    await accessToken(clientCredentials(), 'c1');
    await accessToken({ ...clientCredentials(), oauthUrl: `${endpoint.url}?v=2` }, 'c1');
    await accessToken({ ...clientCredentials(), oauthUrl: `${endpoint.url}?v=2`, callDestination: 'https://elsewhere.example.com' }, 'c1');
    await accessToken(clientCredentials(), 'c2');
    tokens.drop('c2');
    await accessToken(clientCredentials(), 'c2');
    await accessToken(clientCredentials());
    await accessToken(clientCredentials());
    expect(endpoint.issued()).toBe(7);
  });

  it('keeps at most maxKept tokens, forgetting the one kept longest ago', async () => {
    tokens = new OAuthTokens(dispatcher, () => clock, 2);
    await accessToken(clientCredentials(), 'c1');
    await accessToken(clientCredentials(), 'c2');
    await accessToken(clientCredentials(), 'c3');
    expect((await accessToken(clientCredentials(), 'c3')).kept).toBe(true);
    expect((await accessToken(clientCredentials(), 'c2')).kept).toBe(true);
    expect((await accessToken(clientCredentials(), 'c1')).kept).toBe(false);
    expect(endpoint.issued()).toBe(4);
  });

  it("is AUTH_FAILED with the endpoint's RFC 6749 error and description, its answer and the request that was sent", async () => {
    const wrong = { ...clientCredentials(), clientSecret: 'wrong' };
    const result = await tokens.tokenFor(wrong, deadline(), 'c1');
    expect(result).toEqual({
      failed: {
        outcome: 'AUTH_FAILED',
        message: expect.stringMatching(/^The token endpoint answered 401: invalid_client \(.*client.*\)$/i),
        answer: expect.objectContaining({ status: 401, truncated: false }),
      },
      request: tokenRequest(wrong),
    });
  });

  it('refuses an access token longer than a stored secret may be: AUTH_FAILED, the token never used', async () => {
    const generous = await farSide((_received, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ access_token: 'x'.repeat(MAX_ACCESS_TOKEN_LENGTH + 1), token_type: 'Bearer' })),
    );
    const result = await tokens.tokenFor({ ...clientCredentials(), oauthUrl: `${generous.url}/token` }, deadline(), 'c1');
    expect(result).toMatchObject({
      failed: {
        outcome: 'AUTH_FAILED',
        message: `The token endpoint answered an access_token of ${MAX_ACCESS_TOKEN_LENGTH + 1} characters: a test run takes at most ${MAX_ACCESS_TOKEN_LENGTH}`,
      },
    });
    await generous.close();
  });

  it('goes through the outbound guard: a token endpoint on a refused address is never reached', async () => {
    const refused = { ...clientCredentials(), oauthUrl: endpoint.url.replace('127.0.0.2', '127.0.0.1') };
    await expect(tokens.tokenFor(refused, deadline(), 'c1')).resolves.toMatchObject({ failed: { outcome: 'BLOCKED_DESTINATION', answer: null } });
    expect(endpoint.issued()).toBe(0);
  });

  it("ends with the run's one deadline: a token endpoint that trickles a byte at a time cannot hold the run past it", async () => {
    const trickling = await farSide((_received, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 50);
    });
    const result = await tokens.tokenFor({ ...clientCredentials(), oauthUrl: `${trickling.url}/token` }, new RunDeadline(400), 'c1');
    expect(result).toMatchObject({
      failed: { outcome: 'TIMEOUT', message: `127.0.0.2 port ${trickling.port} gave no whole answer within 400 ms, the run's limit`, answer: null },
    });
    await trickling.close();
  });
});

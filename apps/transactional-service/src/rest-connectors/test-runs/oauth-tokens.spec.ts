import { GrantType } from '@app/domain';
import OAuth2Server, { Request as OAuthRequest, Response as OAuthResponse } from '@node-oauth/oauth2-server';
import express from 'express';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AuthFailedError, OAuthSettings, OAuthTokens, TOKEN_MARGIN_MS } from './oauth-tokens';
import { OutboundGuard } from './outbound-guard';

const CLIENT = { id: 'bot platform', secret: 'se:cr&et', grants: ['client_credentials', 'password'] };
const USER = { username: 'ada', password: 'lovelace' };

const formDecoded = (value: string) => new URLSearchParams(`v=${value}`).get('v')!;

/** A real OAuth 2.0 token endpoint (@node-oauth/oauth2-server) on 127.0.0.2, counting its token requests. */
async function tokenEndpoint(lifetimeS: number) {
  let issued = 0;
  const oauth = new OAuth2Server({
    accessTokenLifetime: lifetimeS,
    allowEmptyState: true,
    requireClientAuthentication: { password: false },
    model: {
      // The library hands over HTTP Basic credentials as sent; RFC 6749 2.3.1 has them form-urlencoded, so the
      // model decodes them as a conforming server does. Without a secret (the password grant), none is checked.
      getClient: async (clientId: string, clientSecret?: string | null) =>
        formDecoded(clientId) === CLIENT.id && (clientSecret == null || formDecoded(clientSecret) === CLIENT.secret)
          ? { id: CLIENT.id, grants: CLIENT.grants }
          : null,
      getUser: async (username: string, password: string) => (username === USER.username && password === USER.password ? { id: 'u1' } : null),
      getUserFromClient: async () => ({ id: 'service' }),
      saveToken: async (token: Record<string, unknown>, client: object, user: object) => ({ ...token, client, user }),
      validateScope: async () => [],
    } as never,
  });
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  const authorizations: Array<string | undefined> = [];
  app.post('/token', async (req, res) => {
    issued += 1;
    authorizations.push(req.headers.authorization);
    const response = new OAuthResponse();
    try {
      await oauth.token(new OAuthRequest(req), response);
    } catch {
      // The library has written the RFC 6749 error into the response.
    }
    res.status(response.status ?? 500).set(response.headers).json(response.body);
  });
  const server: Server = await new Promise((done) => {
    const listening = app.listen(0, '127.0.0.2', () => done(listening));
  });
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}/token`,
    issued: () => issued,
    authorizations,
    close: () => new Promise((done) => server.close(done)),
  };
}

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
    const token = await tokens.tokenFor(clientCredentials(), 'c1');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(endpoint.authorizations).toEqual([`Basic ${Buffer.from('bot+platform:se%3Acr%26et').toString('base64')}`]);
  });

  it('gets a token with the password grant, client_id in the form when there is no client secret', async () => {
    const settings = { ...clientCredentials(), grantType: GrantType.PASSWORD, clientSecret: null, username: USER.username, password: USER.password };
    await expect(tokens.tokenFor(settings, 'c1')).resolves.toMatch(/^[0-9a-f]{64}$/);
    expect(endpoint.authorizations).toEqual([undefined]);
  });

  it('keeps a token per connector until expires_in minus 30 s, then asks again', async () => {
    const first = await tokens.tokenFor(clientCredentials(), 'c1');
    clock += 3600_000 - TOKEN_MARGIN_MS - 1;
    expect(await tokens.tokenFor(clientCredentials(), 'c1')).toBe(first);
    expect(endpoint.issued()).toBe(1);
    clock += 1;
    expect(await tokens.tokenFor(clientCredentials(), 'c1')).not.toBe(first);
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

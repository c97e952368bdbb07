import OAuth2Server, { Request as OAuthRequest, Response as OAuthResponse } from '@node-oauth/oauth2-server';
import express from 'express';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

export const CLIENT = { id: 'bot platform', secret: 'se:cr&et', grants: ['client_credentials', 'password'] };
export const USER = { username: 'ada', password: 'lovelace' };

const formDecoded = (value: string) => new URLSearchParams(`v=${value}`).get('v')!;

/** A real OAuth 2.0 token endpoint (@node-oauth/oauth2-server) on 127.0.0.2, counting its token requests; `delayMs` before each answer. */
export async function tokenEndpoint(lifetimeS: number, delayMs = 0) {
  let issued = 0;
  // What the last answer said: the library floors (expiry − now) to seconds on the real clock, so 3600 s may read 3599.
  let lastExpiresInS: number | undefined;
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
    if (delayMs > 0) await new Promise((wait) => setTimeout(wait, delayMs));
    authorizations.push(req.headers.authorization);
    const response = new OAuthResponse();
    try {
      await oauth.token(new OAuthRequest(req), response);
    } catch {
      // The library has written the RFC 6749 error into the response.
    }
    lastExpiresInS = (response.body as { expires_in?: number } | undefined)?.expires_in;
    res
      .status(response.status ?? 500)
      .set(response.headers)
      .json(response.body);
  });
  const server: Server = await new Promise((done) => {
    const listening = app.listen(0, '127.0.0.2', () => done(listening));
  });
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}/token`,
    issued: () => issued,
    /** The `expires_in` of the last answer. */
    lastExpiresInS: () => lastExpiresInS,
    authorizations,
    close: () => new Promise((done) => server.close(done)),
  };
}

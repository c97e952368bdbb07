import { AuthType, ContentType, GrantType, RequestType } from '@app/domain';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { OAuthTokens } from './oauth-tokens';
import { OutboundGuard } from './outbound-guard';
import { ACCESS_TOKEN_PLACEHOLDER, RunnableConnector, TestRunner } from './test-run';
import { CLIENT, tokenEndpoint } from './testing/token-endpoint';

const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => []).dispatcher({ connectTimeoutMs: 2_000 });
afterAll(() => dispatcher.close());

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A far side on 127.0.0.2 that echoes the Authorization it got back, in a header and in its JSON body. */
async function echoingFarSide(answer: (seen: Seen, res: ServerResponse) => void = () => undefined) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const one = { method: req.method, url: req.url, headers: req.headers, body };
      seen.push(one);
      answer(one, res);
      if (res.writableEnded) return;
      res.setHeader('x-echo', String(req.headers.authorization ?? ''));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: { level: 7 }, authorization: req.headers.authorization ?? null }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.2', done));
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function aConnector(overrides: Partial<RunnableConnector>): RunnableConnector {
  return {
    requestType: RequestType.GET,
    url: 'http://127.0.0.2/',
    headers: [],
    contentType: ContentType.NONE,
    authType: AuthType.AUTH_NONE,
    grantType: null,
    clientId: null,
    oauthUrl: null,
    authUsername: null,
    secrets: {},
    body: '',
    output: '$.data.level',
    ...overrides,
  };
}

describe(TestRunner.name, () => {
  let side: Awaited<ReturnType<typeof echoingFarSide>>;
  afterEach(() => side?.close());

  it('sends the bearer token, echoes the request with its placeholder, and scrubs the token the far side sends back', async () => {
    side = await echoingFarSide();
    const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
    const answer = await runner.run(aConnector({ url: `${side.url}/items/{{id}}`, authType: AuthType.AUTH_BEARER, secrets: { bearerToken: 'tok-123' } }), { id: '42' });

    expect(side.seen[0]).toMatchObject({ method: 'GET', url: '/items/42', headers: { authorization: 'Bearer tok-123' } });
    expect(answer).toMatchObject({
      outcome: 'SUCCESS',
      request: { method: 'GET', url: `${side.url}/items/42`, headers: [{ header: 'Authorization', value: 'Bearer <BEARER_TOKEN>' }], body: '' },
      response: { status: 200 },
      output: { expression: '$.data.level', values: [7], error: null },
    });
    expect(JSON.stringify(answer)).not.toContain('tok-123');
    expect(answer.response!.headers).toContainEqual({ header: 'x-echo', value: 'Bearer <BEARER_TOKEN>' });
  });

  it('scrubs a Basic token and its Base64 form wherever the far side puts it', async () => {
    side = await echoingFarSide((seen, res) => res.end(`${seen.headers.authorization} ${Buffer.from('YWRhOnB3').toString('base64')}`));
    const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
    const answer = await runner.run(aConnector({ url: side.url, authType: AuthType.AUTH_BASIC, secrets: { basicToken: 'YWRhOnB3' }, output: 'x' }), {});
    expect(side.seen[0].headers.authorization).toBe('Basic YWRhOnB3');
    expect(answer.response!.body).toBe('Basic <BASIC_TOKEN> <BASIC_TOKEN>');
  });

  it('sends the body with its Content-Type except for GET, HEAD and NONE', async () => {
    side = await echoingFarSide();
    const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
    await runner.run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: ContentType.APPLICATION_JSON, body: '{"n": "{{n}}"}', headers: [{ header: 'content-type', value: 'text/html' }] }), { n: 'x' });
    await runner.run(aConnector({ url: side.url, requestType: RequestType.GET, contentType: ContentType.APPLICATION_JSON, body: '{"n": 1}' }), {});
    await runner.run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: ContentType.NONE, body: 'ignored' }), {});
    expect(side.seen.map(({ method, headers, body }) => ({ method, type: headers['content-type'] ?? null, body }))).toEqual([
      { method: 'POST', type: 'application/json', body: '{"n": "x"}' },
      { method: 'GET', type: null, body: '' },
      { method: 'POST', type: null, body: '' },
    ]);
  });

  describe('AUTH_OAUTH2', () => {
    let endpoint: Awaited<ReturnType<typeof tokenEndpoint>>;
    beforeEach(async () => (endpoint = await tokenEndpoint(3600)));
    afterEach(() => endpoint.close());

    const oauth = (url: string, overrides: Partial<RunnableConnector> = {}) =>
      aConnector({
        uuid: 'c1',
        url,
        authType: AuthType.AUTH_OAUTH2,
        grantType: GrantType.CLIENT_CREDENTIALS,
        clientId: CLIENT.id,
        oauthUrl: endpoint.url,
        secrets: { clientSecret: CLIENT.secret },
        ...overrides,
      });

    it('sends the access token it got, keeps it for the next run, and never shows it', async () => {
      side = await echoingFarSide();
      const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
      const first = await runner.run(oauth(side.url), {});
      await runner.run(oauth(side.url), {});
      expect(endpoint.issued()).toBe(1);
      const token = String(side.seen[0].headers.authorization).replace('Bearer ', '');
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(first.request.headers).toContainEqual({ header: 'Authorization', value: `Bearer ${ACCESS_TOKEN_PLACEHOLDER}` });
      expect(JSON.stringify(first)).not.toContain(token);
      expect(first.response!.headers).toContainEqual({ header: 'x-echo', value: `Bearer ${ACCESS_TOKEN_PLACEHOLDER}` });
    });

    it('on a 401 to a kept token, drops it and tries once more with a fresh one', async () => {
      let refuse = false;
      side = await echoingFarSide((_seen, res) => {
        if (refuse) {
          refuse = false;
          res.writeHead(401).end();
        }
      });
      const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
      await runner.run(oauth(side.url), {});
      refuse = true;
      const answer = await runner.run(oauth(side.url), {});
      expect(answer).toMatchObject({ outcome: 'SUCCESS', response: { status: 200 } });
      expect(endpoint.issued()).toBe(2);
      expect(side.seen).toHaveLength(3);
    });

    it("is AUTH_FAILED with the token endpoint's error, and nothing is sent to the connector's URL", async () => {
      side = await echoingFarSide();
      const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
      const answer = await runner.run(oauth(side.url, { secrets: { clientSecret: 'wrong' } }), {});
      expect(answer).toMatchObject({ outcome: 'AUTH_FAILED', response: null, output: null, message: expect.stringContaining('invalid_client') });
      expect(side.seen).toHaveLength(0);
      expect(JSON.stringify(answer)).not.toContain('wrong');
    });
  });
});

import { AuthType, ContentType, GrantType, RequestType } from '@app/domain';
import { OAuthTokens } from './oauth-tokens';
import { OutboundGuard } from './outbound-guard';
import { ACCESS_TOKEN_PLACEHOLDER, RunnableConnector, TestRunner } from './test-run';
import { farSide, FarSide, FarSideHandler } from './testing/far-side';
import { CLIENT, tokenEndpoint } from './testing/token-endpoint';

const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => []).dispatcher({ connectTimeoutMs: 2_000 });
afterAll(() => dispatcher.close());

/** The far side's usual answer: the Authorization it got, echoed back in a header and in its JSON body. */
const echoAuthorization: FarSideHandler = ({ headers }, res) => {
  res.setHeader('x-echo', String(headers.authorization ?? ''));
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ data: { level: 7 }, authorization: headers.authorization ?? null }));
};

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
  let side: FarSide;
  afterEach(() => side?.close());

  it('sends the bearer token, echoes the request with its placeholder, and scrubs the token the far side sends back', async () => {
    side = await farSide(echoAuthorization);
    const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
    const answer = await runner.run(aConnector({ url: `${side.url}/items/{{id}}`, authType: AuthType.AUTH_BEARER, secrets: { bearerToken: 'tok-123' } }), { id: '42' });

    expect(side.received[0]).toMatchObject({ method: 'GET', url: '/items/42', headers: { authorization: 'Bearer tok-123' } });
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
    side = await farSide((received, res) => res.end(`${received.headers.authorization} ${Buffer.from('YWRhOnB3').toString('base64')}`));
    const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
    const answer = await runner.run(aConnector({ url: side.url, authType: AuthType.AUTH_BASIC, secrets: { basicToken: 'YWRhOnB3' }, output: 'x' }), {});
    expect(side.received[0].headers.authorization).toBe('Basic YWRhOnB3');
    expect(answer.response!.body).toBe('Basic <BASIC_TOKEN> <BASIC_TOKEN>');
  });

  it('sends the body with its Content-Type except for GET, HEAD and NONE', async () => {
    side = await farSide(echoAuthorization);
    const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
    await runner.run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: ContentType.APPLICATION_JSON, body: '{"n": "{{n}}"}', headers: [{ header: 'content-type', value: 'text/html' }] }), { n: 'x' });
    await runner.run(aConnector({ url: side.url, requestType: RequestType.GET, contentType: ContentType.APPLICATION_JSON, body: '{"n": 1}' }), {});
    await runner.run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: ContentType.NONE, body: 'ignored' }), {});
    expect(side.received.map(({ method, headers, body }) => ({ method, type: headers['content-type'] ?? null, body }))).toEqual([
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
      side = await farSide(echoAuthorization);
      const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
      const first = await runner.run(oauth(side.url), {});
      await runner.run(oauth(side.url), {});
      expect(endpoint.issued()).toBe(1);
      const token = String(side.received[0].headers.authorization).replace('Bearer ', '');
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(first.request.headers).toContainEqual({ header: 'Authorization', value: `Bearer ${ACCESS_TOKEN_PLACEHOLDER}` });
      expect(JSON.stringify(first)).not.toContain(token);
      expect(first.response!.headers).toContainEqual({ header: 'x-echo', value: `Bearer ${ACCESS_TOKEN_PLACEHOLDER}` });
    });

    it('on a 401 to a kept token, drops it and tries once more with a fresh one', async () => {
      let refuse = false;
      side = await farSide((received, res) => {
        if (!refuse) return echoAuthorization(received, res);
        refuse = false;
        res.writeHead(401).end();
      });
      const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
      await runner.run(oauth(side.url), {});
      refuse = true;
      const answer = await runner.run(oauth(side.url), {});
      expect(answer).toMatchObject({ outcome: 'SUCCESS', response: { status: 200 } });
      expect(endpoint.issued()).toBe(2);
      expect(side.received).toHaveLength(3);
    });

    it("is AUTH_FAILED with the token endpoint's error, and nothing is sent to the connector's URL", async () => {
      side = await farSide(echoAuthorization);
      const runner = new TestRunner(dispatcher, new OAuthTokens(dispatcher, 2_000), 2_000);
      const answer = await runner.run(oauth(side.url, { secrets: { clientSecret: 'wrong' } }), {});
      expect(answer).toMatchObject({ outcome: 'AUTH_FAILED', response: null, output: null, message: expect.stringContaining('invalid_client') });
      expect(side.received).toHaveLength(0);
      expect(JSON.stringify(answer)).not.toContain('wrong');
    });
  });
});

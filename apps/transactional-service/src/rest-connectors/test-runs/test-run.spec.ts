import { ApiKeyIn, AuthType, ContentType, GrantType, RequestType } from '@app/domain';
import { gzipSync } from 'node:zlib';
import { MAX_ACCESS_TOKEN_LENGTH, OAuthTokens } from './oauth-tokens';
import { OutboundGuard } from './outbound-guard';
import { AnswerReader } from './answer/answer-reader';
import { ACCESS_TOKEN_PLACEHOLDER, DEFAULT_USER_AGENT, MAX_RETURNED_BYTES, RunnableConnector, TestRunner } from './test-run';
import { RunEnvironment } from './variables';
import { farSide, FarSide, FarSideHandler } from './testing/far-side';
import { CLIENT, tokenEndpoint } from './testing/token-endpoint';
import { problemsOf } from '../testing/problems-of';

const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => []).dispatcher({ connectTimeoutMs: 2_000 });
const reader = new AnswerReader();
afterAll(() => Promise.all([dispatcher.close(), reader.close()]));

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
    apiKeyName: null,
    apiKeyIn: null,
    secrets: {},
    body: '',
    output: '$.data.level',
    ...overrides,
  };
}

describe(TestRunner.name, () => {
  let side: FarSide;
  const runner = (timeoutMs = 2_000) => new TestRunner(dispatcher, new OAuthTokens(dispatcher), reader, timeoutMs);
  const run = async (connector: RunnableConnector, variables: Record<string, string> = {}, sut = runner()) =>
    (await sut.execute(sut.prepare(connector, variables))).answer;
  afterEach(() => side?.close());

  it('sends the bearer token, echoes the request with its placeholder, and scrubs the token the far side sends back', async () => {
    side = await farSide(echoAuthorization);
    const answer = await run(aConnector({ url: `${side.url}/items/{{id}}`, authType: AuthType.AUTH_BEARER, secrets: { bearerToken: 'tok-123' } }), {
      id: '42',
    });

    expect(side.received[0]).toMatchObject({ method: 'GET', url: '/items/42', headers: { authorization: 'Bearer tok-123' } });
    expect(answer).toMatchObject({
      outcome: 'SUCCESS',
      request: {
        method: 'GET',
        url: `${side.url}/items/42`,
        headers: [
          { header: 'User-Agent', value: DEFAULT_USER_AGENT },
          { header: 'Authorization', value: 'Bearer <BEARER_TOKEN>' },
        ],
        body: '',
        bodyTruncated: false,
      },
      response: { status: 200, json: { data: { level: 7 }, authorization: 'Bearer <BEARER_TOKEN>' } },
      output: { expression: '$.data.level', values: [7], valuesTruncated: false, error: null, hint: null },
      warnings: [],
    });
    expect(JSON.stringify(answer)).not.toContain('tok-123');
    expect(answer.response!.headers).toContainEqual({ header: 'x-echo', value: 'Bearer <BEARER_TOKEN>' });
  });

  it('scrubs a Basic token, its Base64 form and the user-id:password it stands for, wherever the far side puts them', async () => {
    const token = Buffer.from('ada:pw-of-ada').toString('base64');
    side = await farSide((received, res) => res.end(`${received.headers.authorization} ${Buffer.from(token).toString('base64')} ada:pw-of-ada`));
    const answer = await run(aConnector({ url: side.url, authType: AuthType.AUTH_BASIC, secrets: { basicToken: token }, output: 'x' }));
    expect(side.received[0].headers.authorization).toBe(`Basic ${token}`);
    expect(answer.response!.body).toBe('Basic <BASIC_TOKEN> <BASIC_TOKEN> <BASIC_TOKEN>');
  });

  it('scrubs the whole answer before cutting it: a secret across the 64 KiB cut leaves no part of itself', async () => {
    const secret = 'abcdefghijklmnopqrstuvwxyz';
    side = await farSide((_received, res) => res.end(`${'.'.repeat(MAX_RETURNED_BYTES - 1)}${secret}`));
    const answer = await run(aConnector({ url: side.url, authType: AuthType.AUTH_BEARER, secrets: { bearerToken: secret } }));
    expect(answer.response).toMatchObject({ bodyTruncated: true, sizeBytes: MAX_RETURNED_BYTES - 1 + secret.length });
    // Cut after scrubbing: the cut may halve the placeholder, never the secret.
    expect(answer.response!.body).toBe(`${'.'.repeat(MAX_RETURNED_BYTES - 1)}<`);
  });

  it('scrubs what a JSON escape hides once decoded: in the parsed body and in what output selects', async () => {
    const secret = 's3cr3t/t0ken';
    side = await farSide((_received, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(`{"echo": "${secret.replace('/', '\\/').replace('s', '\\u0073')}"}`);
    });
    const answer = await run(aConnector({ url: side.url, authType: AuthType.AUTH_BEARER, secrets: { bearerToken: secret }, output: '$.echo' }));
    expect(answer.output?.values).toEqual(['<BEARER_TOKEN>']);
    expect(answer.response!.json).toEqual({ echo: '<BEARER_TOKEN>' });
    expect(JSON.stringify(answer)).not.toContain('t0ken');
  });

  it('scrubs header names the far side puts a secret in', async () => {
    side = await farSide((received, res) => res.setHeader(`x-${String(received.headers.authorization).slice(7)}`, '1').end());
    const answer = await run(aConnector({ url: side.url, authType: AuthType.AUTH_BEARER, secrets: { bearerToken: 'tok-in-a-name' }, output: 'x' }));
    expect(answer.response!.headers.map(({ header }) => header)).toContain('x-<BEARER_TOKEN>');
  });

  it('sends the body with its Content-Type except for GET, HEAD and NONE, and warns of the connector header it replaced', async () => {
    side = await farSide(echoAuthorization);
    const sut = runner();
    const post = await run(
      aConnector({
        url: side.url,
        requestType: RequestType.POST,
        contentType: ContentType.APPLICATION_JSON,
        body: '{"n": "{{n}}"}',
        headers: [{ header: 'content-type', value: 'text/html' }],
      }),
      { n: 'x"y' },
      sut,
    );
    await run(aConnector({ url: side.url, requestType: RequestType.GET, contentType: ContentType.APPLICATION_JSON, body: '{"n": 1}' }), {}, sut);
    await run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: ContentType.NONE, body: 'ignored' }), {}, sut);
    expect(side.received.map(({ method, headers, body }) => ({ method, type: headers['content-type'] ?? null, body }))).toEqual([
      { method: 'POST', type: 'application/json', body: '{"n": "x\\"y"}' },
      { method: 'GET', type: null, body: '' },
      { method: 'POST', type: null, body: '' },
    ]);
    expect(post.warnings).toEqual(['headers.0 content-type is not sent: contentType APPLICATION_JSON sends Content-Type: application/json']);
  });

  it("sends the connector's own Content-Type as written when it fits the contentType: a vendor's media type", async () => {
    side = await farSide(echoAuthorization);
    const sut = runner();
    const sent = [
      [ContentType.APPLICATION_JSON, 'application/merge-patch+json'],
      [ContentType.APPLICATION_JSON, 'application/vnd.api+json; charset=utf-8'],
      [ContentType.APPLICATION_FORM_URLENCODED, 'application/x-www-form-urlencoded; charset=UTF-8'],
      [ContentType.TEXT_PLAIN, 'text/csv'],
      [ContentType.APPLICATION_XML, 'application/soap+xml; charset=utf-8'],
    ] as const;
    for (const [contentType, type] of sent) {
      const result = await run(
        aConnector({ url: side.url, requestType: RequestType.PATCH, contentType, body: '{}', headers: [{ header: 'Content-Type', value: type }] }),
        {},
        sut,
      );
      expect(result.warnings).toEqual([]);
    }

    expect(side.received.map(({ headers }) => headers['content-type'])).toEqual(sent.map(([, type]) => type));
  });

  it("sends no Content-Type of its own with an empty form, and the platform's own for multipart whatever the connector declares", async () => {
    side = await farSide(echoAuthorization);
    const sut = runner();
    const form = ContentType.APPLICATION_FORM_URLENCODED;
    await run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: form, body: '' }), {}, sut);
    await run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: form, body: '{{fields}}' }), { fields: '' }, sut);
    await run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: form, body: 'a=1' }), {}, sut);
    const multipart = await run(
      aConnector({
        url: side.url,
        requestType: RequestType.POST,
        contentType: ContentType.MULTIPART_FORM_DATA,
        body: '',
        headers: [{ header: 'Content-Type', value: 'multipart/form-data' }],
      }),
      {},
      sut,
    );
    expect(side.received.map(({ headers }) => headers['content-type'] ?? null)).toEqual([
      null,
      null,
      'application/x-www-form-urlencoded',
      expect.stringMatching(/^multipart\/form-data/),
    ]);
    expect(multipart.warnings).toEqual([]);
  });

  it("sends a multipart body with the boundary it writes in place of the connector's Content-Type, and shows the parts it sent", async () => {
    side = await farSide();
    const body = JSON.stringify([
      { name: 'to', value: '{{to}}' },
      { name: 'literal', value: '\\{{to}} a\nb' },
      { name: 'note', value: 'é', filename: 'note.txt', contentType: 'text/plain' },
      { name: 'bin', base64: 'AP8=' },
    ]);
    const connector = aConnector({
      url: side.url,
      requestType: RequestType.POST,
      contentType: ContentType.MULTIPART_FORM_DATA,
      headers: [{ header: 'Content-Type', value: 'multipart/form-data' }],
      body,
      output: '',
    });

    const answer = await run(connector, { to: 'ana@example.com' });

    const sent = side.received[0];
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(String(sent.headers['content-type']))![1];
    expect(sent.body).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="to"\r\n\r\nana@example.com\r\n`);
    expect(sent.body).toContain('name="literal"\r\n\r\n{{to}} a\r\nb\r\n');
    expect(sent.body).toContain(`name="note"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\né\r\n`);
    expect(sent.body).toContain(`name="bin"; filename="blob"\r\nContent-Type: application/octet-stream\r\n`);
    expect(answer.warnings).toEqual([]);
    expect(answer.request).toEqual({
      method: 'POST',
      url: side.url,
      headers: [
        { header: 'User-Agent', value: DEFAULT_USER_AGENT },
        { header: 'Content-Type', value: `multipart/form-data; boundary=${boundary}` },
      ],
      body: '',
      bodyTruncated: false,
      parts: [
        { name: 'to', filename: null, contentType: null, sizeBytes: 15, value: 'ana@example.com' },
        { name: 'literal', filename: null, contentType: null, sizeBytes: 11, value: '{{to}} a\nb' },
        { name: 'note', filename: 'note.txt', contentType: 'text/plain', sizeBytes: 2, value: 'é' },
        { name: 'bin', filename: 'blob', contentType: 'application/octet-stream', sizeBytes: 2 },
      ],
    });
  });

  it('fills only the values of a multipart body: a name holding braces is no variable', async () => {
    const sut = runner();
    const connector = aConnector({
      requestType: RequestType.POST,
      contentType: ContentType.MULTIPART_FORM_DATA,
      body: JSON.stringify([{ name: '{{n}}', value: '{{v}}' }]),
    });
    expect(problemsOf(() => sut.prepare(connector, {}))).toEqual(['variables.v is missing: {{v}} appears in the connector']);
    expect(sut.prepare(connector, { v: 'x"y' }).call.form).toEqual([{ name: '{{n}}', value: 'x"y' }]);
  });

  it('shows at most 64 KiB of the body it sent, and says it was longer', async () => {
    side = await farSide(echoAuthorization);
    const answer = await run(aConnector({ url: side.url, requestType: RequestType.POST, contentType: ContentType.TEXT_PLAIN, body: '{{a}}'.repeat(10) }), {
      a: '\u0001'.repeat(8000),
    });
    expect(side.received[0].body).toHaveLength(80_000);
    expect(answer.request).toMatchObject({ body: '\u0001'.repeat(MAX_RETURNED_BYTES), bodyTruncated: true });
  });

  it('warns that an encoded answer is shown as it came', async () => {
    side = await farSide((_received, res) => res.setHeader('content-encoding', 'gzip').end('\x1f\x8b not really'));
    const answer = await run(aConnector({ url: side.url }));
    expect(answer.warnings).toEqual(["The answer's body is encoded (Content-Encoding: gzip): it is shown and read as it came, not decoded"]);
  });

  it('sends a User-Agent of its own unless the connector sets one', async () => {
    side = await farSide(echoAuthorization);
    await run(aConnector({ url: side.url }));
    await run(aConnector({ url: side.url, headers: [{ header: 'user-agent', value: 'shop-bot/2' }] }));
    expect(side.received.map(({ headers }) => headers['user-agent'])).toEqual([DEFAULT_USER_AGENT, 'shop-bot/2']);
  });

  it('warns of variables that stand nowhere, and hints where output stopped selecting', async () => {
    side = await farSide(echoAuthorization);
    const answer = await run(aConnector({ url: side.url, output: '$.data.levl' }), { unused: 'x' });
    expect(answer.warnings).toEqual(['variables.unused is not used: the connector has no {{unused}}']);
    expect(answer.output).toEqual({
      expression: '$.data.levl',
      values: [],
      valuesTruncated: false,
      error: null,
      hint: 'output selects nothing: $.data selects an object with the member "level", and .levl selects nothing from it',
    });
  });

  describe('AUTH_API_KEY', () => {
    // Printable ASCII, as a header's key must be (the write refuses others); a query parameter's may be any text.
    const key = 'k3y/with space&amp=!';
    const apiKey = (apiKeyIn: ApiKeyIn, overrides: Partial<RunnableConnector> = {}) =>
      aConnector({
        authType: AuthType.AUTH_API_KEY,
        apiKeyName: 'X-Api-Key',
        apiKeyIn,
        secrets: { apiKey: apiKeyIn === ApiKeyIn.HEADER ? key : `${key}é` },
        ...overrides,
      });

    it('sends the key as its header, in place of a connector header of that name, shows <API_KEY> and scrubs the echo', async () => {
      side = await farSide((received, res) => {
        res.setHeader('x-echo', String(received.headers['x-api-key']));
        res.end(`key=${received.headers['x-api-key']}`);
      });
      const answer = await run(apiKey(ApiKeyIn.HEADER, { url: side.url, headers: [{ header: 'x-api-key', value: 'the connector own' }], output: 'x' }));

      expect(side.received[0].headers['x-api-key']).toBe(key);
      expect(answer.request.headers).toEqual([
        { header: 'User-Agent', value: DEFAULT_USER_AGENT },
        { header: 'X-Api-Key', value: '<API_KEY>' },
      ]);
      expect(answer.warnings).toEqual(['headers.0 x-api-key is not sent: authType AUTH_API_KEY sets the X-Api-Key header']);
      expect(answer.response!.body).toBe('key=<API_KEY>');
      expect(answer.response!.headers).toContainEqual({ header: 'x-echo', value: '<API_KEY>' });
      expect(JSON.stringify(answer)).not.toContain('k3y');
    });

    it('sends the key as the last query parameter, percent-encoded, in place of one of that name, and scrubs the URL the far side echoes', async () => {
      side = await farSide((received, res) => res.end(`you asked for ${received.url}`));
      const answer = await run(apiKey(ApiKeyIn.QUERY, { url: `${side.url}/items?X-Api-Key=old&q={{q}}#top`, output: 'x' }), { q: 'a b' });

      expect(side.received[0].url).toBe(`/items?q=a%20b&X-Api-Key=${encodeURIComponent(`${key}é`)}`);
      expect(answer.request.url).toBe(`${side.url}/items?q=a%20b&X-Api-Key=<API_KEY>#top`);
      expect(answer.request.headers).toEqual([{ header: 'User-Agent', value: DEFAULT_USER_AGENT }]);
      expect(answer.warnings).toEqual(['The query parameter X-Api-Key of url is not sent: authType AUTH_API_KEY sends the API key as X-Api-Key']);
      expect(answer.response!.body).toBe('you asked for /items?q=a%20b&X-Api-Key=<API_KEY>');
      expect(JSON.stringify(answer)).not.toContain('k3y');
    });

    it('starts the query when the URL has none, and leaves an Authorization header of the connector alone', async () => {
      side = await farSide((_received, res) => res.end());
      const answer = await run(
        apiKey(ApiKeyIn.QUERY, { url: side.url, apiKeyName: 'api key', headers: [{ header: 'Authorization', value: 'Custom x' }], output: 'x' }),
      );
      expect(side.received[0].url).toBe(`/?api%20key=${encodeURIComponent(`${key}é`)}`);
      expect(side.received[0].headers.authorization).toBe('Custom x');
      expect(answer.warnings).toEqual([]);
    });

    it('may not carry a stored key anywhere else: a guess of it in the URL is refused', async () => {
      const sut = runner();
      const prepared = sut.prepare(apiKey(ApiKeyIn.HEADER, { uuid: 'c1', kept: ['apiKey'], url: 'http://127.0.0.2/echo/{{p}}' }), { p: key });
      await expect(sut.screen(prepared)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('is bound to the destination of url', () => {
      const connector = apiKey(ApiKeyIn.QUERY, { url: 'http://{{host}}/me' });
      expect(problemsOf(() => runner().prepare(connector, { host: '127.0.0.2' }))).toEqual([
        "url must keep its scheme, host, port and user info once its variables are filled in: the connector's apiKey is bound to them",
      ]);
    });
  });

  describe('a stored secret the caller did not send', () => {
    const saved = (overrides: Partial<RunnableConnector>) =>
      aConnector({
        uuid: 'c1',
        authType: AuthType.AUTH_BASIC,
        secrets: { basicToken: Buffer.from('api:Hunter2024!').toString('base64') },
        kept: ['basicToken'],
        ...overrides,
      });

    it('may not be sent anywhere but in the Authorization: a guess of it in the URL, a header or the body is refused, without saying where', async () => {
      side = await farSide(echoAuthorization);
      const sut = runner();
      const cases: Array<[Partial<RunnableConnector>, Record<string, string>]> = [
        [{ url: `${side.url}/echo/{{p}}` }, { p: 'password|hunter2|Hunter2024!|letmein' }],
        [{ url: side.url, headers: [{ header: 'X-Guess', value: '{{p}}' }] }, { p: 'HUNTER2024!' }],
        [{ url: side.url, requestType: RequestType.POST, contentType: ContentType.TEXT_PLAIN, body: 'guess=Hunter2024%21' }, {}],
      ];
      for (const [overrides, variables] of cases) {
        const prepared = sut.prepare(saved(overrides), variables);
        await expect(sut.screen(prepared)).rejects.toMatchObject({
          problems: [
            "The request would carry a secret stored for this connector outside the Authorization or API key its authType sends: a test run sends a stored secret only where the connector's authType puts it",
          ],
        });
      }
      expect(side.connections()).toBe(0);
    });

    it('may not stand in a multipart part: its value, name or filename, whatever escaping the body text gives it', async () => {
      const sut = runner();
      const secret = 'tok"en\\1';
      const kept = (parts: object[]) =>
        sut.prepare(
          aConnector({
            uuid: 'c1',
            authType: AuthType.AUTH_BEARER,
            secrets: { bearerToken: secret },
            kept: ['bearerToken'],
            requestType: RequestType.POST,
            contentType: ContentType.MULTIPART_FORM_DATA,
            body: JSON.stringify(parts),
          }),
          { p: secret },
        );
      for (const parts of [[{ name: 'a', value: '{{p}}' }], [{ name: secret, value: '' }], [{ name: 'f', value: '', filename: `x${secret}` }]]) {
        await expect(sut.screen(kept(parts))).rejects.toMatchObject({ problems: [expect.stringMatching(/^The request would carry a secret stored/)] });
      }
      await expect(sut.screen(kept([{ name: 'a', value: 'nothing secret' }]))).resolves.toBeUndefined();
    });

    it('may not stand in a header name, nor in the OAuth client id or username a token endpoint may echo: refused as in a value', async () => {
      const sut = runner();
      const password = 'Hunter2024!';
      const oauth = (overrides: Partial<RunnableConnector>) =>
        saved({
          authType: AuthType.AUTH_OAUTH2,
          grantType: GrantType.PASSWORD,
          oauthUrl: 'http://127.0.0.2/token',
          clientId: 'bot',
          authUsername: 'ada',
          secrets: { authPassword: password },
          kept: ['authPassword'],
          ...overrides,
        });
      const cases = [saved({ headers: [{ header: password, value: '1' }] }), oauth({ authUsername: password }), oauth({ clientId: password.toLowerCase() })];
      for (const connector of cases) {
        await expect(sut.screen(sut.prepare(connector, {}))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      }
      await expect(sut.screen(sut.prepare(oauth({}), {}))).resolves.toBeUndefined();
    });

    it('does not show an encoded answer, nor its size: a compressed echo of the secret and a guess is smaller when the guess is right', async () => {
      side = await farSide((received, res) => {
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync(JSON.stringify({ authorization: received.headers.authorization, url: received.url })));
      });
      const sut = runner();
      const probe = async (guess: string) => (await sut.execute(sut.prepare(saved({ url: `${side.url}/echo?q={{q}}`, output: '$' }), { q: guess }))).answer;

      const [right, wrong] = [await probe('Basic YXBpOkh1bnRlcjIwMjQh'), await probe('Basic Wm9vOkhlbGxvV29ybGQh')];

      expect(side.received[0].headers.authorization).toBe('Basic YXBpOkh1bnRlcjIwMjQh');
      expect(right.response).toEqual({ status: 200, headers: [], body: '', bodyTruncated: true, sizeBytes: null });
      expect(wrong.response).toEqual(right.response);
      expect(right.output).toEqual(wrong.output);
      expect(right.warnings).toEqual([
        "The answer's headers and body are not shown: it is encoded (Content-Encoding: gzip), and its size would tell how much of what the call sent compresses with a stored secret the far side echoes; remove an Accept-Encoding header from the connector to see it",
      ]);
    });

    it('lets a request through that holds none of it, and a secret the caller sent themselves', async () => {
      const sut = runner();
      await expect(sut.screen(sut.prepare(saved({ url: 'http://127.0.0.2/echo/{{p}}' }), { p: 'hunter2' }))).resolves.toBeUndefined();
      await expect(sut.screen(sut.prepare(saved({ url: 'http://127.0.0.2/echo/{{p}}', kept: [] }), { p: 'Hunter2024!' }))).resolves.toBeUndefined();
    });
  });

  describe('a stored secret goes only where it is bound', () => {
    it("refuses before sending a URL whose filled destination is not the connector's", () => {
      const connector = aConnector({ url: 'http://{{host}}/me', authType: AuthType.AUTH_BEARER, secrets: { bearerToken: 'tok' } });
      expect(problemsOf(() => runner().prepare(connector, { host: '127.0.0.2' }))).toEqual([
        "url must keep its scheme, host, port and user info once its variables are filled in: the connector's bearerToken is bound to them",
      ]);
    });

    it('refuses a Host header that names another authority than the URL', () => {
      const connector = aConnector({
        url: 'http://127.0.0.2/me',
        headers: [{ header: 'Host', value: '{{host}}' }],
        authType: AuthType.AUTH_BEARER,
        secrets: { bearerToken: 'tok' },
      });
      expect(problemsOf(() => runner().prepare(connector, { host: 'elsewhere.example' })).length).toBeGreaterThan(0);
    });
  });

  it('has one deadline for the token request and the call together: each within it alone, both past it', async () => {
    const slowEndpoint = await tokenEndpoint(3600, 400);
    side = await farSide((received, res) => setTimeout(() => echoAuthorization(received, res), 400));
    try {
      const connector = aConnector({
        url: side.url,
        authType: AuthType.AUTH_OAUTH2,
        grantType: GrantType.CLIENT_CREDENTIALS,
        clientId: CLIENT.id,
        oauthUrl: slowEndpoint.url,
        secrets: { clientSecret: CLIENT.secret },
      });
      const answer = await run(connector, {}, runner(600));
      expect(answer).toMatchObject({
        outcome: 'TIMEOUT',
        message: `127.0.0.2 port ${side.port} gave no whole answer within 600 ms, the run's limit`,
        response: null,
      });
      expect(slowEndpoint.issued()).toBe(1);
    } finally {
      await slowEndpoint.close();
    }
  });

  it('counts the reading of the answer in durationMs', async () => {
    side = await farSide(echoAuthorization);
    let clock = 0;
    const reading: AnswerReader = Object.assign(Object.create(AnswerReader.prototype) as AnswerReader, {
      read: async (...args: Parameters<AnswerReader['read']>) => {
        const outcome = await reader.read(...args);
        clock += 250;
        return outcome;
      },
    });
    const sut = new TestRunner(dispatcher, new OAuthTokens(dispatcher), reading, 2_000, () => clock);
    expect((await sut.execute(sut.prepare(aConnector({ url: side.url }), {}))).answer.durationMs).toBe(250);
  });

  it('is cancelled when its caller leaves: the call is abandoned at once', async () => {
    side = await farSide(() => undefined);
    const gone = new AbortController();
    const sut = runner(10_000);
    const running = sut.execute(sut.prepare(aConnector({ url: side.url }), {}), gone.signal);
    while (side.connections() === 0) await new Promise((wait) => setTimeout(wait, 10));
    gone.abort();
    await expect(running).resolves.toMatchObject({
      cancelled: true,
      answer: { outcome: 'TIMEOUT', message: 'The caller left before the run ended: it was cancelled' },
    });
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
      const sut = runner();
      const first = await run(oauth(side.url), {}, sut);
      await run(oauth(side.url), {}, sut);
      expect(endpoint.issued()).toBe(1);
      const token = String(side.received[0].headers.authorization).replace('Bearer ', '');
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(first.request.headers).toContainEqual({ header: 'Authorization', value: `Bearer ${ACCESS_TOKEN_PLACEHOLDER}` });
      expect(JSON.stringify(first)).not.toContain(token);
      expect(first.response!.headers).toContainEqual({ header: 'x-echo', value: `Bearer ${ACCESS_TOKEN_PLACEHOLDER}` });
    });

    it('fills the variables of oauthUrl as those of url: a missing one is a 400, a used one no warning', async () => {
      side = await farSide(echoAuthorization);
      const connector = oauth(side.url, { oauthUrl: `${endpoint.url}?tenant={{tenant}}` });
      expect(problemsOf(() => runner().prepare(connector, {}))).toEqual(['variables.tenant is missing: {{tenant}} appears in the connector']);
      const answer = await run(connector, { tenant: 'acme corp' });
      expect(answer).toMatchObject({ outcome: 'SUCCESS', warnings: [] });
      expect(endpoint.issued()).toBe(1);
    });

    it('on a 401 to a kept token, drops it and tries once more with a fresh one', async () => {
      let refuse = false;
      side = await farSide((received, res) => {
        if (!refuse) return echoAuthorization(received, res);
        refuse = false;
        res.writeHead(401).end();
      });
      const sut = runner();
      await run(oauth(side.url), {}, sut);
      refuse = true;
      const answer = await run(oauth(side.url), {}, sut);
      expect(answer).toMatchObject({ outcome: 'SUCCESS', response: { status: 200 } });
      expect(endpoint.issued()).toBe(2);
      expect(side.received).toHaveLength(3);
    });

    it("scrubs the client's Basic credentials a token endpoint echoes in its error, in the message and the answer", async () => {
      const echoing = await farSide((received, res) => {
        const credentials = String(received.headers.authorization).slice('Basic '.length);
        res.statusCode = 401;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ error: 'invalid_client', error_description: `bad credentials ${credentials} (${Buffer.from(credentials, 'base64').toString()})` }),
        );
      });
      side = await farSide(echoAuthorization);
      try {
        const answer = await run(oauth(side.url, { oauthUrl: `${echoing.url}/token`, secrets: { clientSecret: 'a-client-secret' } }));
        expect(answer).toMatchObject({
          outcome: 'AUTH_FAILED',
          message: 'Token endpoint: The token endpoint answered 401: invalid_client (bad credentials <CLIENT_CREDENTIALS> (<CLIENT_CREDENTIALS>))',
        });
        expect(JSON.stringify(answer)).not.toContain('a-client-secret');
        expect(JSON.stringify(answer)).not.toContain(Buffer.from('bot+platform:a-client-secret').toString('base64'));
      } finally {
        await echoing.close();
      }
    });

    it('never shows an access token too long to take: its answer is left out', async () => {
      const token = `tok-${'x'.repeat(MAX_ACCESS_TOKEN_LENGTH)}`;
      const generous = await farSide((_received, res) =>
        res
          .setHeader('content-type', 'application/json')
          .setHeader('x-token', token)
          .end(JSON.stringify({ access_token: token })),
      );
      side = await farSide(echoAuthorization);
      try {
        const answer = await run(oauth(side.url, { oauthUrl: `${generous.url}/token` }));
        expect(answer).toMatchObject({ outcome: 'AUTH_FAILED', response: null, output: null });
        expect(JSON.stringify(answer)).not.toContain('tok-x');
        expect(side.received).toHaveLength(0);
      } finally {
        await generous.close();
      }
    });

    it("is AUTH_FAILED showing the token request sent (secrets as placeholders) and the endpoint's answer; nothing goes to the connector's URL", async () => {
      side = await farSide(echoAuthorization);
      const answer = await run(oauth(side.url, { secrets: { clientSecret: 'wrong' } }));
      expect(answer).toMatchObject({
        outcome: 'AUTH_FAILED',
        message: expect.stringMatching(/^Token endpoint: The token endpoint answered 401: invalid_client/),
        request: {
          method: 'POST',
          url: endpoint.url,
          headers: [
            { header: 'Content-Type', value: 'application/x-www-form-urlencoded' },
            { header: 'Accept', value: 'application/json' },
            { header: 'Authorization', value: 'Basic <CLIENT_CREDENTIALS>' },
          ],
          body: 'grant_type=client_credentials',
        },
        response: { status: 401, json: { error: 'invalid_client', error_description: expect.any(String) } },
        output: null,
      });
      expect(side.received).toHaveLength(0);
      expect(JSON.stringify(answer)).not.toContain('wrong');
    });
  });

  describe("the connector's environment", () => {
    const KEY = 'sk_live_5d1f0b9a77c3';
    /** An environment of plain `values`, secret variables (name → [value or null, destinations]) unsealed. */
    const environment = (values: Record<string, string>, secrets: Record<string, [string | null, string[]]> = {}): RunEnvironment => ({
      version: 1,
      values: (name) => values[name],
      secrets: new Map(Object.entries(secrets).map(([name, [, destinations]]) => [name, destinations])),
      withoutValue: new Set(Object.entries(secrets).flatMap(([name, [value]]) => (value === null ? [name] : []))),
      filled: new Map([...Object.entries(values), ...Object.entries(secrets).flatMap(([name, [value]]) => (value === null ? [] : [[name, value] as const]))]),
    });

    it('fills a base URL as written and sends a secret variable where the connector puts it, shown and echoed as its placeholder', async () => {
      side = await farSide((received, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ key: received.headers['x-api-key'], url: received.url }));
      });
      const env = environment({ BASE_URL: `${side.url}/v2` }, { KEY: [KEY, [side.url]] });
      const connector = aConnector({
        url: '{{env.BASE_URL}}/items/{{id}}?k={{env.KEY}}',
        headers: [{ header: 'X-Api-Key', value: 'k={{env.KEY}}' }],
        output: '$',
        env,
      });

      const answer = await run(connector, { id: 'a b' });

      expect(side.received[0]).toMatchObject({ url: `/v2/items/a%20b?k=${KEY}`, headers: { 'x-api-key': `k=${KEY}` } });
      expect(answer.request.url).toBe(`${side.url}/v2/items/a%20b?k=<SECRET:env.KEY>`);
      expect(answer.request.headers).toContainEqual({ header: 'X-Api-Key', value: 'k=<SECRET:env.KEY>' });
      expect(answer.response!.json).toEqual({ key: 'k=<SECRET:env.KEY>', url: '/v2/items/a%20b?k=<SECRET:env.KEY>' });
      expect(JSON.stringify(answer)).not.toContain(KEY);
    });

    it('refuses before sending a secret variable bound elsewhere, or standing where the destination is told', () => {
      const env = environment({ HOST: '127.0.0.2' }, { KEY: [KEY, ['https://api.example.com']] });
      expect(
        problemsOf(() => runner().prepare(aConnector({ url: 'http://{{env.HOST}}/x', headers: [{ header: 'X-Key', value: '{{env.KEY}}' }], env }), {})),
      ).toEqual([
        expect.stringMatching(
          /^\{\{env\.KEY\}\} is a secret connector variable bound to https:\/\/api\.example\.com, and url goes to http:\/\/127\.0\.0\.2: .*PUT \/org\/\{orgUUID\}\/env\/\{envUUID\}\/connector-variables/,
        ),
      ]);
      expect(problemsOf(() => runner().prepare(aConnector({ url: 'http://{{env.KEY}}/x', env }), {}))).toContainEqual(
        expect.stringMatching(/^url must not have \{\{env\.KEY\}\} in its scheme, user info, host or port: KEY is a secret connector variable/),
      );
    });

    it("binds a stored secret to its URL's destination resolved with the environment", () => {
      const bearer = (url: string, env: RunEnvironment) => aConnector({ url, authType: AuthType.AUTH_BEARER, secrets: { bearerToken: 'tok' }, env });
      const env = environment({ BASE_URL: 'http://127.0.0.2:8080/v1' });
      expect(runner().prepare(bearer('{{env.BASE_URL}}/me', env), {}).call.url).toBe('http://127.0.0.2:8080/v1/me');
      // A caller's variable may not move it, even right after the environment's value.
      const host = environment({ BASE_URL: 'http://127.0.0.2' });
      expect(problemsOf(() => runner().prepare(bearer('{{env.BASE_URL}}{{rest}}/me', host), { rest: '.evil.example' }))).toEqual([
        "url must keep its scheme, host, port and user info once its variables are filled in: the connector's bearerToken is bound to them",
      ]);
    });

    it('may not carry a guess of a secret variable the caller put in what is sent', async () => {
      const sut = runner();
      const connector = aConnector({
        url: 'http://127.0.0.2/echo/{{p}}',
        headers: [{ header: 'X-Key', value: '{{env.KEY}}' }],
        env: environment({}, { KEY: [KEY, ['http://127.0.0.2']] }),
      });
      await expect(sut.screen(sut.prepare(connector, { p: KEY }))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(sut.screen(sut.prepare(connector, { p: 'nothing' }))).resolves.toBeUndefined();
    });
  });
});

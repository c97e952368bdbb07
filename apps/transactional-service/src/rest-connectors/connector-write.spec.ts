import { ApiKeyIn, AuthType, ContentType, GrantType, RestConnector, RestConnectorWriteDto } from '@app/domain';
import { ConnectorEnvironment, environmentOf } from './env-destinations';
import { toConnectorWrite } from './connector-write';
import { aStoredConnector, aWriteDto, WRITER } from './testing/connector-factories';
import { problemsOf } from './testing/problems-of';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const seal = (field: string, plaintext: string) => `sealed(${field}:${plaintext})`;

describe(toConnectorWrite.name, () => {
  it('writes every field of the body, the writer and the time; name keys lower-cased', () => {
    const { values } = toConnectorWrite(aWriteDto({ name: 'Weather Forecast' }), WRITER, NOW, seal);

    expect(values).toMatchObject({
      name: 'Weather Forecast',
      nameKey: 'weather forecast',
      activeNameKey: 'weather forecast',
      description: null,
      headers: [{ header: 'Accept', value: 'application/json' }],
      updatedAt: NOW,
      updatedBy: 'alice',
      updatedByImage: WRITER.picture,
    });
  });

  it('seals a new secret and discards the secrets the auth type does not use', () => {
    const dto = aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 'b-token', basicToken: 'unused', clientSecret: 'unused' });

    const { values } = toConnectorWrite(dto, WRITER, NOW, seal);

    expect(values).toMatchObject({ bearerToken: 'sealed(bearerToken:b-token)', basicToken: null, clientSecret: null, authPassword: null });
  });

  it('keeps the stored secret for its placeholder while the URL keeps its scheme and authority', () => {
    const stored = aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer' });
    const dto = aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>', url: 'HTTPS://API.example.com/other/path' });

    const { values } = toConnectorWrite(dto, WRITER, NOW, seal, stored);

    expect(values.bearerToken).toBe('sealed:bearer');
  });

  it.each([
    ['http (a downgrade)', 'http://api.example.com/forecast'],
    ['another host', 'https://evil.example.net/forecast'],
    ['another port', 'https://api.example.com:8443/forecast'],
    ['user info', 'https://user@api.example.com/forecast'],
  ])('asks for the secret again when the URL moves to %s', (_what, url) => {
    const stored = aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer' });

    const problems = problemsOf(() =>
      toConnectorWrite(aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>', url }), WRITER, NOW, seal, stored),
    );

    expect(problems).toEqual([expect.stringMatching(/^bearerToken must be sent again: url now points elsewhere/)]);
  });

  it.each([
    ['a URL without slashes', 'https:api.example.com', 'http:/evil.example.net'],
    ['a URL with backslashes', 'https:\\\\api.example.com', 'https:\\evil.example.net'],
    ['a URL with a variable host', 'https://api.example.com', 'https://{{host}}/'],
  ])('asks for the secret again when %s moves: an unreadable destination is never the same', (_what, storedUrl, url) => {
    const stored = aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer', url: storedUrl });

    const problems = problemsOf(() =>
      toConnectorWrite(aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>', url }), WRITER, NOW, seal, stored),
    );

    expect(problems).toContain('bearerToken must be sent again: url now points elsewhere (another scheme, host, port or user info) than when it was stored');
  });

  describe('an API key, bound to where in the call it goes as well as to url', () => {
    const stored = aStoredConnector({ authType: AuthType.AUTH_API_KEY, apiKeyIn: ApiKeyIn.HEADER, apiKeyName: 'X-API-Key', apiKey: 'sealed:key' });
    const write = (overrides: Partial<RestConnectorWriteDto>) =>
      toConnectorWrite(
        aWriteDto({ authType: AuthType.AUTH_API_KEY, apiKeyIn: ApiKeyIn.HEADER, apiKeyName: 'X-API-Key', apiKey: '<API_KEY>', ...overrides }),
        WRITER,
        NOW,
        seal,
        stored,
      );

    it('keeps the stored key while its header and url stay', () => {
      expect(write({ url: 'https://API.example.com/other' }).values.apiKey).toBe('sealed:key');
    });

    it.each([
      ['into the query string', { apiKeyIn: ApiKeyIn.QUERY }, 'apiKeyIn now points'],
      ['into another header', { apiKeyName: 'X-Debug-Echo' }, 'apiKeyName now points'],
      ['into a header of another spelling', { apiKeyName: 'x-api-key' }, 'apiKeyName now points'],
      ['into a query parameter of another name', { apiKeyIn: ApiKeyIn.QUERY, apiKeyName: 'debug' }, 'apiKeyIn and apiKeyName now point'],
    ])('asks for the key again when it would go %s', (_where, placement, moved) => {
      expect(problemsOf(() => write(placement))).toEqual([
        `apiKey must be sent again: ${moved} elsewhere (another header or query parameter) than when it was stored`,
      ]);
    });

    it('names every move at once, url and placement', () => {
      expect(problemsOf(() => write({ url: 'https://evil.example.net/x', apiKeyIn: ApiKeyIn.QUERY }))).toEqual([
        'apiKey must be sent again: url and apiKeyIn now point elsewhere (another scheme, host, port or user info; another header or query parameter) than when it was stored',
      ]);
    });

    it('takes a key sent again wherever it goes', () => {
      expect(write({ apiKeyIn: ApiKeyIn.QUERY, apiKeyName: 'debug', apiKey: 'new-key' }).values).toMatchObject({
        apiKeyIn: ApiKeyIn.QUERY,
        apiKeyName: 'debug',
        apiKey: 'sealed(apiKey:new-key)',
      });
    });
  });

  it('keeps a secret across spellings of one destination', () => {
    const stored = aStoredConnector({ authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer', url: 'HTTPS:\\\\API.example.com:443/a' });

    const { values } = toConnectorWrite(
      aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: '<BEARER_TOKEN>', url: 'https://api.example.com/b' }),
      WRITER,
      NOW,
      seal,
      stored,
    );

    expect(values.bearerToken).toBe('sealed:bearer');
  });

  describe('OAuth 2.0 secrets, bound to oauthUrl and to url, where the access token got with them goes', () => {
    const stored = aStoredConnector({
      authType: AuthType.AUTH_OAUTH2,
      grantType: GrantType.CLIENT_CREDENTIALS,
      clientId: 'c',
      oauthUrl: 'https://id.example.com/token',
      clientSecret: 'sealed:client',
      url: 'https://api.example.com/forecast',
    });
    const oauth = { authType: AuthType.AUTH_OAUTH2, grantType: GrantType.CLIENT_CREDENTIALS, clientId: 'c', clientSecret: '<CLIENT_SECRET>' };
    const write = (urls: { url?: string; oauthUrl?: string }) =>
      toConnectorWrite(
        aWriteDto({ ...oauth, url: 'https://api.example.com/other', oauthUrl: 'https://id.example.com/other', ...urls }),
        WRITER,
        NOW,
        seal,
        stored,
      );

    it('keeps the stored secret while both keep their destinations', () => {
      expect(write({}).values.clientSecret).toBe('sealed:client');
    });

    it.each([
      ['oauthUrl', { oauthUrl: 'https://id.example.net/token' }, 'oauthUrl now points'],
      ['url', { url: 'https://elsewhere.example.org/' }, 'url now points'],
      ['both', { oauthUrl: 'http://id.example.com/token', url: 'https://api.example.com:8443/' }, 'oauthUrl and url now point'],
    ])('names %s when it moved', (_what, urls, moved) => {
      expect(problemsOf(() => write(urls))).toEqual([
        `clientSecret must be sent again: ${moved} elsewhere (another scheme, host, port or user info) than when it was stored`,
      ]);
    });

    it('binds the password of the PASSWORD grant the same way', () => {
      const password = aStoredConnector({ ...stored, grantType: GrantType.PASSWORD, clientSecret: null, authUsername: 'u', authPassword: 'sealed:password' });
      const dto = aWriteDto({
        ...oauth,
        grantType: GrantType.PASSWORD,
        clientSecret: undefined,
        authUsername: 'u',
        authPassword: '<PASSWORD>',
        oauthUrl: stored.oauthUrl,
        url: 'https://elsewhere.example.org/',
      });

      expect(problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal, password))).toEqual([
        expect.stringMatching(/^authPassword must be sent again: url now points elsewhere/),
      ]);
    });
  });

  describe('URLs', () => {
    it.each([
      ['HTTP:/api.example.com/x', 'http://api.example.com/x'],
      ['https:api.example.com', 'https://api.example.com'],
      ['https:\\\\api.example.com\\x', 'https://api.example.com\\x'],
      ['https:///api.example.com/{{path}}?q={{q}}', 'https://api.example.com/{{path}}?q={{q}}'],
      ['HTTPS://{{host}}/A/{{B}}', 'https://{{host}}/A/{{B}}'],
    ])('stores %s as %s: a lower-case scheme and exactly two slashes, the rest as written', (url, canonical) => {
      const { values } = toConnectorWrite(aWriteDto({ url, oauthUrl: url }), WRITER, NOW, seal);

      expect(values).toMatchObject({ url: canonical, oauthUrl: canonical });
    });

    it.each([
      [AuthType.AUTH_BASIC, { basicToken: 'dXNlcjpwYXNzd29yZA==' }, 'the basic token'],
      [AuthType.AUTH_BEARER, { bearerToken: 'b' }, 'the bearer token'],
      [
        AuthType.AUTH_OAUTH2,
        { grantType: GrantType.CLIENT_CREDENTIALS, clientId: 'c', clientSecret: 's', oauthUrl: 'https://id.example.com/token' },
        'the access token',
      ],
    ])('refuses a variable in the destination of url while authType is %s', (authType, auth, carried) => {
      for (const url of ['https://{{host}}/x', 'https://{{user}}@api.example.com/x', 'https:{{host}}', 'https://api.{{env}}.example.com/']) {
        expect(problemsOf(() => toConnectorWrite(aWriteDto({ authType, ...auth, url }), WRITER, NOW, seal))).toEqual([
          `url must not have a {{variable}} in its scheme, user info, host or port while authType is ${authType}: ${carried} would go wherever the variable points. ` +
            'Write them out in full; variables may stand in the path, query and fragment',
        ]);
      }
    });

    it('refuses a variable in the destination of oauthUrl, naming the credential sent there', () => {
      const dto = aWriteDto({
        authType: AuthType.AUTH_OAUTH2,
        grantType: GrantType.PASSWORD,
        clientId: 'c',
        authUsername: 'u',
        authPassword: 'p',
        oauthUrl: 'https://{{idp}}/token',
      });

      expect(problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal))).toEqual([
        'oauthUrl must not have a {{variable}} in its scheme, user info, host or port while authType is AUTH_OAUTH2 and grantType is PASSWORD: the password would go ' +
          'wherever the variable points. Write them out in full; variables may stand in the path, query and fragment',
      ]);
    });

    it('lets variables stand anywhere in a URL that carries no secret, and in the path, query and fragment of one that does', () => {
      expect(toConnectorWrite(aWriteDto({ url: 'https://{{host}}:8080/x' }), WRITER, NOW, seal).values.url).toBe('https://{{host}}:8080/x');
      expect(
        toConnectorWrite(aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 'b', url: 'https://api.example.com/{{p}}?q={{q}}#{{f}}' }), WRITER, NOW, seal)
          .values.url,
      ).toBe('https://api.example.com/{{p}}?q={{q}}#{{f}}');
    });
  });

  it('refuses a routing header that names another host than url while a secret goes with the call, and only then', () => {
    const dto = aWriteDto({
      authType: AuthType.AUTH_BEARER,
      bearerToken: 'b',
      headers: [
        { header: 'Accept', value: '*/*' },
        { header: 'X-Forwarded-Host', value: 'evil.example.net' },
      ],
    });

    expect(problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal))).toEqual([
      expect.stringMatching(/^headers\.1\.value must name the host \(and port\) of url in X-Forwarded-Host/),
    ]);
    expect(toConnectorWrite({ ...dto, authType: AuthType.AUTH_NONE }, WRITER, NOW, seal).values.headers).toEqual(dto.headers);
  });

  it('refuses a Content-Type header that does not fit contentType, saying which fit, and keeps one that does as written', () => {
    const patch = (contentType: ContentType, value: string) => aWriteDto({ contentType, headers: [{ header: 'Content-Type', value }] });

    expect(problemsOf(() => toConnectorWrite(patch(ContentType.APPLICATION_JSON, 'text/csv'), WRITER, NOW, seal))).toEqual([
      expect.stringMatching(
        /^headers\.0 Content-Type "text\/csv" does not fit contentType APPLICATION_JSON; the Content-Type that fits it: application\/json and every \+json type/,
      ),
    ]);
    expect(problemsOf(() => toConnectorWrite(patch(ContentType.NONE, 'application/json'), WRITER, NOW, seal))).toEqual([
      expect.stringContaining('does not fit contentType NONE'),
    ]);
    expect(toConnectorWrite(patch(ContentType.APPLICATION_JSON, 'application/merge-patch+json'), WRITER, NOW, seal).values.headers).toEqual([
      { header: 'Content-Type', value: 'application/merge-patch+json' },
    ]);
  });

  it('lists every problem at once', () => {
    const stored = aStoredConnector({
      authType: AuthType.AUTH_OAUTH2,
      grantType: GrantType.CLIENT_CREDENTIALS,
      clientId: 'c',
      oauthUrl: 'https://id.example.com/token',
      clientSecret: 'sealed:client',
    });
    const dto = aWriteDto({
      authType: AuthType.AUTH_OAUTH2,
      grantType: GrantType.CLIENT_CREDENTIALS,
      clientId: 'c',
      clientSecret: '<CLIENT_SECRET>',
      url: 'https://{{host}}/x',
      oauthUrl: 'https://{{idp}}/token',
      headers: [{ header: 'Host', value: 'evil.example.net' }],
    });

    const problems = problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal, stored));

    expect(problems).toEqual([
      expect.stringMatching(/^url must not have a \{\{variable\}\}/),
      expect.stringMatching(/^oauthUrl must not have a \{\{variable\}\}/),
      expect.stringMatching(/^clientSecret must be sent again: oauthUrl and url now point elsewhere/),
    ]);
  });

  it('refuses a placeholder where no secret is stored, on a create or a PUT', () => {
    const dto = aWriteDto({ authType: AuthType.AUTH_BASIC, basicToken: '<BASIC_TOKEN>' });

    expect(problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal))).toEqual([expect.stringMatching(/^basicToken must be the secret itself/)]);
    expect(problemsOf(() => toConnectorWrite(dto, WRITER, NOW, seal, aStoredConnector()))).toHaveLength(1);
  });

  it('de-duplicates tags case-insensitively, keeping the first spelling, in the order written', () => {
    const dto = aWriteDto({ tags: [{ name: 'Shop' }, { name: 'stock' }, { name: 'SHOP' }, { name: 'Stock' }, { name: 'eu' }] });

    const { tags } = toConnectorWrite(dto, WRITER, NOW, seal);

    expect(tags).toEqual([
      { name: 'Shop', nameKey: 'shop', position: 0 },
      { name: 'stock', nameKey: 'stock', position: 1 },
      { name: 'eu', nameKey: 'eu', position: 2 },
    ]);
  });

  it('refuses a MULTIPART_FORM_DATA body that is not a JSON array of parts, naming the part and field', () => {
    const write =
      (body: string, contentType = ContentType.MULTIPART_FORM_DATA) =>
      () =>
        toConnectorWrite(aWriteDto({ contentType, body }), WRITER, NOW, seal);

    expect(problemsOf(write('a=b&c=d'))).toEqual([expect.stringMatching(/^body is not JSON .*: a MULTIPART_FORM_DATA body is a JSON array of parts/)]);
    expect(problemsOf(write('[{"name":"a","value":"1"},{"name":""}]'))).toEqual([
      'body[1].name is missing: every part has a non-empty name',
      "body[1] must have exactly one of value (text, {{variable}} placeholders allowed) and base64 (a file's bytes)",
    ]);
    expect(
      toConnectorWrite(aWriteDto({ contentType: ContentType.MULTIPART_FORM_DATA, body: '[{"name":"a","value":"{{x}}"}]' }), WRITER, NOW, seal).values.body,
    ).toBe('[{"name":"a","value":"{{x}}"}]');
    expect(write('a=b&c=d', ContentType.APPLICATION_FORM_URLENCODED)).not.toThrow();
  });
});

describe('secret headers', () => {
  const secretHeader = (value: string, header = 'x-api-key') => ({ header, value, secret: true });
  const stored = aStoredConnector({ url: 'https://api.example.com/forecast', headers: [{ header: 'X-Api-Key', value: 'sealed:key', secret: true }] });

  it('seals a secret header bound to its lower-cased name, and stores a plain one as sent', () => {
    const dto = aWriteDto({ headers: [{ header: 'Accept', value: 'text/plain' }, secretHeader('k-1', 'X-Api-Key')] });

    const { values } = toConnectorWrite(dto, WRITER, NOW, seal);

    expect(values.headers).toEqual([
      { header: 'Accept', value: 'text/plain' },
      { header: 'X-Api-Key', value: 'sealed(header:x-api-key:k-1)', secret: true },
    ]);
  });

  it('keeps the stored value for <SECRET>, matched by name case-insensitively, while url keeps its destination', () => {
    const dto = aWriteDto({ url: 'HTTPS://api.example.com/other', headers: [secretHeader('<SECRET>')] });

    const { values } = toConnectorWrite(dto, WRITER, NOW, seal, stored);

    expect(values.headers).toEqual([{ header: 'x-api-key', value: 'sealed:key', secret: true }]);
  });

  it('asks for a kept secret header again when url moves to another scheme, host, port or user info', () => {
    const problems = problemsOf(() =>
      toConnectorWrite(aWriteDto({ url: 'http://api.example.com/forecast', headers: [secretHeader('<SECRET>')] }), WRITER, NOW, seal, stored),
    );

    expect(problems).toEqual([expect.stringMatching(/^headers\.0\.value of the secret header x-api-key must be sent again: url now points elsewhere/)]);
  });

  it('refuses <SECRET> with nothing stored under that name, a plain header carrying it, and two secret headers of one name', () => {
    const problems = problemsOf(() =>
      toConnectorWrite(
        aWriteDto({
          headers: [secretHeader('<SECRET>', 'X-Other'), { header: 'x-api-key', value: '<SECRET>' }, secretHeader('a', 'K'), secretHeader('b', 'k')],
        }),
        WRITER,
        NOW,
        seal,
        stored,
      ),
    );

    expect(problems).toEqual([
      expect.stringMatching(/^headers\.0\.value must be the secret itself: <SECRET> only stands for a stored one, and no secret header X-Other is stored/),
      expect.stringMatching(/^headers\.1\.value <SECRET> stands for the stored value of the secret header x-api-key: send secret: true/),
      expect.stringMatching(/^headers\.3\.header k is a second secret header of that name/),
    ]);
  });

  it('binds url as a secret does: no variable in its destination, no routing header naming another host', () => {
    const headers = [secretHeader('k'), { header: 'X-Forwarded-Host', value: 'evil.example.net' }];
    const variableHost = problemsOf(() => toConnectorWrite(aWriteDto({ url: 'https://{{host}}/x', headers: [secretHeader('k')] }), WRITER, NOW, seal));
    const routed = problemsOf(() => toConnectorWrite(aWriteDto({ url: 'https://api.example.com/x', headers }), WRITER, NOW, seal));

    expect(variableHost).toEqual([
      expect.stringMatching(
        /^url must not have a \{\{variable\}\} in its scheme, user info, host or port while a header is secret: the secret headers would go/,
      ),
    ]);
    expect(routed).toEqual([expect.stringMatching(/^headers\.1\./)]);
  });
});

describe(`${toConnectorWrite.name} in the connector's environment`, () => {
  const ENV: ConnectorEnvironment = environmentOf([
    { name: 'BASE_URL', secret: false, value: 'https://api.example.com/v1', sealedValue: null, destinations: [] },
    { name: 'HOST', secret: false, value: 'api.example.com', sealedValue: null, destinations: [] },
    { name: 'KEY', secret: true, value: null, sealedValue: 'sealed', destinations: ['https://api.example.com'] },
  ]);
  const bearer = (overrides: Partial<RestConnectorWriteDto>) => aWriteDto({ authType: AuthType.AUTH_BEARER, bearerToken: 'tok', ...overrides });
  const write = (dto: RestConnectorWriteDto, stored?: RestConnector) => toConnectorWrite(dto, WRITER, NOW, seal, stored, ENV);

  it('lets a defined plain variable stand in the destination of a URL that carries a secret, and checks routing headers on the resolved URL', () => {
    expect(write(bearer({ url: '{{env.BASE_URL}}/forecast/{{city}}', headers: [{ header: 'Host', value: 'api.example.com' }] })).values.url).toBe(
      '{{env.BASE_URL}}/forecast/{{city}}',
    );
    expect(write(bearer({ url: 'https://{{env.HOST}}:8443/x', headers: [{ header: 'Host', value: 'api.example.com:8443' }] })).values.headers).toHaveLength(1);
    expect(problemsOf(() => write(bearer({ url: '{{env.BASE_URL}}/x', headers: [{ header: 'Host', value: 'evil.example.net' }] })))).toEqual([
      expect.stringMatching(/^headers\.0\.value must name the host \(and port\) of url in Host/),
    ]);
  });

  it('is a 400 naming an undefined variable to define first, or a secret one, in such a destination; a caller variable stays refused', () => {
    expect(problemsOf(() => write(bearer({ url: '{{env.API}}/x' })))).toEqual([
      'url has {{env.API}} in its scheme, user info, host or port, and the environment defines no API: the bearer token would go wherever it points. ' +
        'Define API first (PUT /org/{orgUUID}/env/{envUUID}/connector-variables), then write the connector',
    ]);
    expect(problemsOf(() => write(aWriteDto({ url: 'https://{{env.KEY}}/x' })))).toContainEqual(
      expect.stringMatching(/^url must not have \{\{env\.KEY\}\} in its scheme, user info, host or port: KEY is a secret connector variable/),
    );
    expect(problemsOf(() => write(bearer({ url: 'https://{{env.HOST}}{{rest}}/x' })))).toEqual([
      expect.stringMatching(/^url must not have a \{\{variable\}\} in its scheme, user info, host or port while authType is AUTH_BEARER/),
    ]);
    // Without a secret, an undefined variable may stand there, as a caller's may.
    expect(write(aWriteDto({ url: '{{env.API}}/x' })).values.url).toBe('{{env.API}}/x');
  });

  it("keeps a secret for its placeholder while the resolved destination is unchanged, whatever the URL's text", () => {
    const stored = aStoredConnector({ url: '{{env.BASE_URL}}/forecast', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer' });
    expect(write(bearer({ url: 'https://{{env.HOST}}/v2/forecast', bearerToken: '<BEARER_TOKEN>' }), stored).values.bearerToken).toBe('sealed:bearer');
    expect(problemsOf(() => write(bearer({ url: 'https://{{env.HOST}}:8443/forecast', bearerToken: '<BEARER_TOKEN>' }), stored))).toEqual([
      expect.stringMatching(/^bearerToken must be sent again: url now points elsewhere/),
    ]);
    // Without the environment, the stored destination cannot be told: the placeholder keeps nothing.
    expect(problemsOf(() => toConnectorWrite(bearer({ url: 'https://api.example.com/x', bearerToken: '<BEARER_TOKEN>' }), WRITER, NOW, seal, stored))).toEqual([
      expect.stringMatching(/^bearerToken must be sent again/),
    ]);
  });

  it('checks the routing headers of a call that sends a secret variable, as of one that carries a stored secret', () => {
    const headers = [
      { header: 'X-Key', value: '{{env.KEY}}' },
      { header: 'X-Forwarded-Host', value: 'evil.example.net' },
    ];
    expect(problemsOf(() => write(aWriteDto({ url: '{{env.BASE_URL}}/x', headers })))).toEqual([
      expect.stringMatching(/^headers\.1\.value must name the host \(and port\) of url in X-Forwarded-Host/),
    ]);
  });

  it('is a 400 naming a secret variable the connector would send outside its destinations, where it is bound and how to rebind it', () => {
    expect(write(aWriteDto({ url: '{{env.BASE_URL}}/x', headers: [{ header: 'X-Key', value: '{{env.KEY}}' }] })).values.headers).toEqual([
      { header: 'X-Key', value: '{{env.KEY}}' },
    ]);
    expect(problemsOf(() => write(aWriteDto({ url: 'https://other.example.com/x', body: '{"key":"{{env.KEY}}"}' })))).toEqual([
      '{{env.KEY}} is a secret connector variable bound to https://api.example.com, and url goes to https://other.example.com: to send it there, ' +
        'send its value again with the new destinations (PUT /org/{orgUUID}/env/{envUUID}/connector-variables), or point url to where it is bound',
    ]);
  });
});

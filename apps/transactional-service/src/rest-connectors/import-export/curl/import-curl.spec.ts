import { ApiKeyIn, AuthType, ContentType, GrantType, RequestType } from '@app/domain';
import { ConnectorDraft, ImportDraft, ImportSourceError } from '../connector-draft';
import { importCurl } from './import-curl';

async function imported(source: string): Promise<ImportDraft> {
  return importCurl(source, {});
}

async function only(source: string): Promise<ConnectorDraft> {
  const { connectors } = await imported(source);
  expect(connectors).toHaveLength(1);
  return connectors[0];
}

async function codes(source: string): Promise<string[]> {
  return (await imported(source)).warnings.map(({ code, where }) => `${code} ${where}`);
}

async function refusal(source: string): Promise<string> {
  const error = await importCurl(source, {}).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportSourceError);
  return (error as ImportSourceError).message;
}

describe('importCurl', () => {
  describe('method', () => {
    it.each([
      ['curl https://x.test/a', RequestType.GET],
      ['curl -d a=1 https://x.test/a', RequestType.POST],
      ['curl -G -d a=1 https://x.test/a', RequestType.GET],
      ['curl -I https://x.test/a', RequestType.HEAD],
      ['curl --head -G -d a=1 https://x.test/a', RequestType.HEAD],
      ['curl -F a=1 https://x.test/a', RequestType.POST],
      ["curl --json '{}' https://x.test/a", RequestType.POST],
      ['curl -T f.txt https://x.test/a', RequestType.PUT],
      ['curl -XPATCH -d a=1 https://x.test/a', RequestType.PATCH],
      ['curl -X DELETE -X OPTIONS https://x.test/a', RequestType.OPTIONS],
    ])('%s sends %s', async (source, method) => {
      expect((await only(source)).requestType).toBe(method);
    });

    it('upper-cases a lower-case -X with a warning, and refuses a method a connector does not send', async () => {
      expect(await codes('curl -X post https://x.test')).toEqual(['METHOD_CASE line 1, -X']);
      expect(await refusal('curl -X PROPFIND https://x.test')).toBe(
        'source line 1, -X: PROPFIND is not a method a connector sends: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
      );
    });

    it('keeps data sent with -X GET, and says the connector will not send it', async () => {
      const draft = await only('curl -X GET -d a=1 https://x.test');
      expect(draft.body).toBe('a=1');
      expect((await imported('curl -X GET -d a=1 https://x.test')).warnings.map(({ code }) => code)).toEqual(['BODY_NOT_SENT']);
    });
  });

  describe('body and content type', () => {
    it('joins several -d with & as curl does, and sends them form-urlencoded without a Content-Type', async () => {
      const draft = await only("curl https://x.test -d a=1 --data 'b=2 3' --data-raw @c --data-ascii d --data-binary e");
      expect(draft).toMatchObject({ body: 'a=1&b=2 3&@c&d&e', contentType: ContentType.APPLICATION_FORM_URLENCODED });
    });

    it('encodes --data-urlencode as curl does, in each of its forms', async () => {
      const draft = await only(
        "curl https://x.test --data-urlencode 'name=a b&c' --data-urlencode '=é/ü' --data-urlencode 'plain~*!' --data-urlencode 'a@b=c'",
      );
      expect(draft.body).toBe('name=a%20b%26c&%C3%A9%2F%C3%BC&plain~%2A%21&a@b=c');
    });

    it('never reads a file: @file, @-, name@file and -F x=@file are left out with FILE_NOT_READ', async () => {
      const { connectors, warnings } = await imported('curl https://x.test -d @body.json --data-binary @- --data-urlencode name@f.txt -d kept=1');
      expect(connectors[0].body).toBe('kept=1');
      expect(warnings.map(({ code, where }) => `${code} ${where}`)).toEqual([
        'FILE_NOT_READ line 1, -d',
        'FILE_NOT_READ line 1, --data-binary',
        'FILE_NOT_READ line 1, --data-urlencode',
      ]);
    });

    it('sends --json as JSON with Accept: application/json, pieces concatenated', async () => {
      const draft = await only(`curl --json '{ "drink":' --json ' "coffe" }' https://x.test`);
      expect(draft).toMatchObject({
        body: '{ "drink": "coffe" }',
        contentType: ContentType.APPLICATION_JSON,
        headers: [{ header: 'Accept', value: 'application/json' }],
      });
      expect((await only(`curl --json '{}' -H 'Accept: text/plain' https://x.test`)).headers).toEqual([{ header: 'Accept', value: 'text/plain' }]);
    });

    it.each([
      ['application/json; charset=utf-8', ContentType.APPLICATION_JSON, 'application/json; charset=utf-8', []],
      ['application/json', ContentType.APPLICATION_JSON, undefined, []],
      ['application/vnd.api+json', ContentType.APPLICATION_JSON, 'application/vnd.api+json', []],
      ['application/merge-patch+json', ContentType.APPLICATION_JSON, 'application/merge-patch+json', []],
      ['application/json-patch+json', ContentType.APPLICATION_JSON, 'application/json-patch+json', []],
      ['Application/JSON;charset:utf-8;', ContentType.APPLICATION_JSON, undefined, ['CONTENT_TYPE_CHANGED']],
      ['text/xml', ContentType.APPLICATION_XML, 'text/xml', []],
      ['application/atom+xml', ContentType.APPLICATION_XML, 'application/atom+xml', []],
      ['application/x-www-form-urlencoded; charset=UTF-8', ContentType.APPLICATION_FORM_URLENCODED, 'application/x-www-form-urlencoded; charset=UTF-8', []],
      ['multipart/form-data; boundary=abc', ContentType.MULTIPART_FORM_DATA, undefined, []],
      ['multipart/mixed; boundary=abc', ContentType.TEXT_PLAIN, undefined, ['CONTENT_TYPE_CHANGED']],
      ['text/plain', ContentType.TEXT_PLAIN, undefined, []],
      ['text/csv', ContentType.TEXT_PLAIN, 'text/csv', []],
      ['application/octet-stream', ContentType.TEXT_PLAIN, 'application/octet-stream', []],
    ])('reads Content-Type %s by its media type and keeps the declared type', async (mediaType, contentType, kept, warned) => {
      const { connectors, warnings } = await imported(`curl https://x.test -H 'Content-Type: ${mediaType}' -d '{"n": 1, "ok": true}'`);
      const headers = kept === undefined ? [] : [{ header: 'Content-Type', value: kept }];
      expect(connectors[0]).toMatchObject({ contentType, headers, body: '{"n": 1, "ok": true}' });
      expect(warnings.map(({ code }) => code)).toEqual(warned);
    });

    it('lets the last Content-Type decide and says so of the earlier one', async () => {
      expect(await codes("curl https://x.test -H 'Content-Type: text/plain' -H 'content-type: application/json' -d 1")).toEqual([
        'HEADER_SKIPPED line 1, -H Content-Type',
      ]);
    });

    it('moves -G data to the query, after the query the URL has', async () => {
      const draft = await only("curl -G https://x.test/a?b=1#top -d c=2 --data-urlencode 'd=e f'");
      expect(draft).toMatchObject({ url: 'https://x.test/a?b=1&c=2&d=e%20f#top', body: '', contentType: ContentType.NONE });
    });

    it('adds --url-query to the query, encoded unless it starts with +', async () => {
      expect((await only("curl https://x.test/a --url-query 'q=a b' --url-query '+raw=%41'")).url).toBe('https://x.test/a?q=a%20b&raw=%41');
    });

    it('adds many --url-query parts in one pass, a part ending with & joined as curl joins it', async () => {
      expect((await only("curl 'https://x.test/a?' --url-query '+b=1&' --url-query c=2 --url-query '' --url-query d")).url).toBe('https://x.test/a?b=1&c=2&d');
    });

    it('refuses --url-query parts that make the URL too long before building it, not counting API keys, which leave the URL', async () => {
      expect(await refusal(`curl https://x.test/x${' --url-query a'.repeat(1100)}`)).toBe(
        'source line 1: the URL with the query its --url-query options (or -G data) add is longer than 2048 characters: send fewer or shorter ones',
      );
      const draft = await only(`curl https://x.test/x --url-query 'api_key=${'k'.repeat(2100)}'`);
      expect(draft).toMatchObject({ url: 'https://x.test/x', authType: AuthType.AUTH_API_KEY, apiKeyName: 'api_key' });
    });

    it('reads -F and --form-string as parts: text, files with an empty value and their filename, ;type= and ;filename= as fields', async () => {
      const { connectors, warnings } = await imported(
        "curl https://x.test -F 'a=1 2' --form-string 'b=@not-a-file;type=x' -F 'c=@dir/photo.jpg;type=image/jpeg' -F 'd=<notes.txt' " +
          `-F 'meta={"k":1};type=application/json; charset=utf-8' -F 'q="x;y";filename=q.txt' -F 'e=v;headers="X-A: 1"' -F 'f=@a.bin;filename=b.bin'`,
      );
      expect(connectors[0]).toMatchObject({ contentType: ContentType.MULTIPART_FORM_DATA, requestType: RequestType.POST });
      expect(JSON.parse(connectors[0].body)).toEqual([
        { name: 'a', value: '1 2' },
        { name: 'b', value: '@not-a-file;type=x' },
        { name: 'c', value: '', filename: 'photo.jpg', contentType: 'image/jpeg' },
        { name: 'd', value: '' },
        { name: 'meta', value: '{"k":1}', contentType: 'application/json; charset=utf-8' },
        { name: 'q', value: 'x;y', filename: 'q.txt' },
        { name: 'e', value: 'v' },
        { name: 'f', value: '', filename: 'b.bin' },
      ]);
      expect(warnings.map(({ code, message }) => `${code}: ${message}`)).toEqual([
        'FILE_NOT_READ: -F c=@dir/photo.jpg;type=image/jpeg uploads a file: an import never reads a file; the part c is kept with an empty value: write its content (value, or base64 for bytes).',
        'FILE_NOT_READ: -F d=<notes.txt reads its text from a file: an import never reads a file; the part d is kept with an empty value: write its content (value, or base64 for bytes).',
        "FORM_PARAMETER_SKIPPED: The part's headers are not kept: a part has a name, a filename and a content type.",
        'FILE_NOT_READ: -F f=@a.bin;filename=b.bin uploads a file: an import never reads a file; the part f is kept with an empty value: write its content (value, or base64 for bytes).',
      ]);
    });

    it('refuses a form part without a name, and a form of more parts than a connector holds', async () => {
      expect(await refusal('curl https://x.test -F =v')).toBe('source line 1: -F needs name=value (a part has a non-empty name)');
      expect(await refusal(`curl https://x.test ${'-F a=1 '.repeat(101)}`)).toBe(
        "source line 1: the form's parts cannot be kept: body has 101 parts: a multipart body holds at most 100",
      );
    });

    it('refuses what curl refuses: data with a form or an upload', async () => {
      expect(await refusal('curl https://x.test -d a=1 -F b=2')).toBe(
        'source line 1: data (-d, --json) and a form (-F) together: curl refuses to send them in one request; keep one',
      );
    });

    it('adds the uploaded file name to a URL without a file part, as curl does', async () => {
      expect((await only('curl -T dir/report.pdf https://x.test')).url).toBe('https://x.test/report.pdf');
      expect((await only('curl -T report.pdf https://x.test/up/')).url).toBe('https://x.test/up/report.pdf');
      expect((await only('curl -T report.pdf https://x.test/up/name')).url).toBe('https://x.test/up/name');
    });

    it('keeps a JSON body exactly as written: numbers stay numbers, variables stand where they were', async () => {
      const draft = await only(`curl https://x.test -H 'Content-Type: application/json' -d "{\\"qty\\": $QTY, \\"name\\": \\"$NAME\\", \\"n\\": 1.50}"`);
      expect(draft.body).toBe('{"qty": {{QTY}}, "name": "{{NAME}}", "n": 1.50}');
    });
  });

  describe('headers', () => {
    it('reads -H, -A, -e, -b, and the attached form -Hvalue', async () => {
      const draft = await only("curl https://x.test -H'X-A: 1' -H 'X-B;' -A agent -e 'https://from.test;auto' -b 'a=1; b=2'");
      expect(draft.headers).toEqual([
        { header: 'X-A', value: '1' },
        { header: 'X-B', value: '' },
        { header: 'User-Agent', value: 'agent' },
        { header: 'Referer', value: 'https://from.test' },
        { header: 'Cookie', value: 'a=1; b=2' },
      ]);
    });

    it('keeps Cookie and Proxy-Authorization as plain headers with a warning that does not show their value', async () => {
      const { connectors, warnings } = await imported("curl https://x.test -b 'sid=s3cr3t' -H 'Proxy-Authorization: Basic cHg6cHk='");
      expect(connectors[0].headers.map(({ header }) => header)).toEqual(['Cookie', 'Proxy-Authorization']);
      expect(warnings.map(({ code, where }) => `${code} ${where}`)).toEqual([
        'HEADER_MAY_HOLD_CREDENTIAL line 1, -H Cookie',
        'HEADER_MAY_HOLD_CREDENTIAL line 1, -H Proxy-Authorization',
      ]);
      expect(JSON.stringify(warnings)).not.toMatch(/s3cr3t|cHg6cHk=/);
    });

    it("skips -H 'X:' (it only stops curl sending its own) and a header without colon, with a warning", async () => {
      expect(await codes("curl https://x.test -H 'Expect:' -H 'nonsense'")).toEqual(['HEADER_SKIPPED line 1, -H', 'HEADER_SKIPPED line 1, -H']);
    });

    it('refuses a header name that is no HTTP token, and a value with a line break', async () => {
      expect(await refusal("curl https://x.test -H 'Bad Name: 1'")).toBe(
        'source line 1, -H Bad…: "Bad…" is not an HTTP header name (RFC 9110 token, at most 256 characters)',
      );
      expect(await refusal("curl https://x.test -H $'X: a\\r\\nInjected: 1'")).toBe(
        'source line 1, -H: the header value must not contain CR, LF or NUL characters: HTTP cannot carry it',
      );
    });
  });

  describe('auth', () => {
    it('makes -u user:password the Base64 basicToken of its UTF-8 bytes', async () => {
      const draft = await only("curl -u 'josé:pa:ss' https://x.test");
      expect(draft).toMatchObject({ authType: AuthType.AUTH_BASIC, headers: [] });
      expect(draft.credentials).toEqual([{ field: 'basicToken', value: Buffer.from('josé:pa:ss').toString('base64'), where: 'line 1, -u' }]);
    });

    it('asks for the user and the password apart when -u has no password or a variable, only for what the source does not hold', async () => {
      const prompt = await imported('curl -u alice https://x.test');
      expect(prompt.connectors[0].credentials).toEqual([
        { field: 'basicUsername', value: 'alice', where: 'line 1, -u' },
        { field: 'basicPassword', where: 'line 1, -u' },
      ]);
      const variables = await imported('curl -u $SID:$TOKEN https://x.test');
      expect(variables.connectors[0].credentials).toEqual([
        { field: 'basicUsername', variable: 'SID', where: 'line 1, -u' },
        { field: 'basicPassword', variable: 'TOKEN', where: 'line 1, -u' },
      ]);
      const literalUser = await imported('curl -u "AC123:$TOKEN" https://x.test');
      expect(literalUser.connectors[0].credentials).toEqual([
        { field: 'basicUsername', value: 'AC123', where: 'line 1, -u' },
        { field: 'basicPassword', variable: 'TOKEN', where: 'line 1, -u' },
      ]);
      expect([...prompt.warnings, ...variables.warnings, ...literalUser.warnings]).toEqual([]);
    });

    it('moves user info out of the URL into the Basic credentials', async () => {
      const draft = await only('curl https://al%40ice:s%3Aecret@x.test/a');
      expect(draft).toMatchObject({ url: 'https://x.test/a', authType: AuthType.AUTH_BASIC });
      expect(draft.credentials[0].value).toBe(Buffer.from('al@ice:s:ecret').toString('base64'));
    });

    it('makes Authorization: Basic and Bearer the auth settings, the header gone, a variable kept as the variable', async () => {
      expect(await only("curl https://x.test -H 'authorization: basic dXNlcjpwYXNz'")).toMatchObject({
        authType: AuthType.AUTH_BASIC,
        headers: [],
        credentials: [{ field: 'basicToken', value: 'dXNlcjpwYXNz', where: 'line 1, -H authorization' }],
      });
      expect(await only('curl https://x.test -H "Authorization: Bearer $TOKEN"')).toMatchObject({
        authType: AuthType.AUTH_BEARER,
        headers: [],
        credentials: [{ field: 'bearerToken', variable: 'TOKEN', where: 'line 1, -H Authorization' }],
      });
      expect((await only('curl https://x.test --oauth2-bearer abc')).credentials).toEqual([
        { field: 'bearerToken', value: 'abc', where: 'line 1, --oauth2-bearer' },
      ]);
    });

    it('refuses a Basic token that is not Base64 of user:password, without showing it', async () => {
      const message = await refusal("curl https://x.test -H 'Authorization: Basic not-base64!'");
      expect(message).toBe('source line 1, -H Authorization: the Basic credentials are not the Base64 of user-id:password (RFC 7617)');
    });

    it('keeps another Authorization scheme whole as an API key named Authorization', async () => {
      const { connectors, warnings } = await imported("curl https://x.test -H 'Authorization: Token abc'");
      expect(connectors[0]).toMatchObject({ authType: AuthType.AUTH_API_KEY, apiKeyName: 'Authorization', apiKeyIn: ApiKeyIn.HEADER, headers: [] });
      expect(connectors[0].credentials).toEqual([{ field: 'apiKey', value: 'Token abc', where: 'line 1, -H Authorization' }]);
      expect(warnings.map(({ code }) => code)).toEqual(['AUTHORIZATION_AS_API_KEY']);
    });

    it.each(['X-API-Key', 'Api-Key', 'apikey', 'X-RapidAPI-Key', 'x-goog-api-key', 'Ocp-Apim-Subscription-Key', 'X-Custom-Secret'])(
      'takes the header %s as an API key',
      async (name) => {
        const value = name === 'X-Custom-Secret' ? '"$API_KEY"' : 'k1';
        const draft = await only(`curl https://x.test -H '${name}: '${value} -H 'X-Other: 1'`);
        expect(draft).toMatchObject({
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: name,
          apiKeyIn: ApiKeyIn.HEADER,
          headers: [{ header: 'X-Other', value: '1' }],
        });
      },
    );

    it.each(['api_key', 'apikey', 'api-key', 'apiKey', 'key', 'access_token'])(
      'takes the query parameter %s as an API key, and takes it out of the URL',
      async (name) => {
        const draft = await only(`curl 'https://x.test/a?x=1&${name}=k%201&y=2#f'`);
        expect(draft).toMatchObject({ url: 'https://x.test/a?x=1&y=2#f', authType: AuthType.AUTH_API_KEY, apiKeyName: name, apiKeyIn: ApiKeyIn.QUERY });
        expect(draft.credentials).toEqual([{ field: 'apiKey', value: 'k 1', where: `line 1, URL query parameter ${name}` }]);
      },
    );

    it("follows curl's precedence between sources, keeps a credential header as a secret header and leaves the others out, their secrets with them", async () => {
      const { connectors, warnings } = await imported("curl -u a:b https://c:d@x.test/?api_key=k -H 'X-API-Key: k2' -H 'Authorization: Bearer t'");
      expect(connectors[0]).toMatchObject({
        url: 'https://x.test/',
        authType: AuthType.AUTH_BEARER,
        headers: [{ header: 'X-API-Key', value: 'k2', secret: true, where: 'line 1, -H X-API-Key' }],
      });
      expect(warnings.map(({ code, where }) => `${code} ${where}`)).toEqual([
        'AUTH_CONFLICT line 1, -u',
        'AUTH_CONFLICT line 1, URL user info',
        'SECRET_HEADER line 1, -H X-API-Key',
        'AUTH_CONFLICT line 1, URL query parameter api_key',
      ]);
      expect(JSON.stringify(warnings)).not.toMatch(/k2|"t"|YTpi/);
    });

    it('makes a bearer token and an API-key header two credentials: the auth setting and a secret header, a variable asked for', async () => {
      const draft = await only(`curl https://x.test/a -H "Authorization: Bearer $TOKEN" -H "x-api-key: $KEY" -H 'X-Other: 1'`);
      expect(draft).toMatchObject({ authType: AuthType.AUTH_BEARER, credentials: [{ field: 'bearerToken', variable: 'TOKEN' }] });
      expect(draft.headers).toEqual([
        { header: 'x-api-key', value: '', secret: true, variable: 'KEY', where: 'line 1, -H x-api-key' },
        { header: 'X-Other', value: '1' },
      ]);
    });

    it('says the connector sends its own scheme where curl was asked for another', async () => {
      expect(await codes('curl --digest -u a:b https://x.test')).toEqual(['UNSUPPORTED_AUTH_SCHEME line 1, --digest']);
    });

    it.each(['PRIVATE-TOKEN', 'X-Auth-Token', 'Access-Token', 'Api-Token', 'X-RapidAPI-Key', 'Ocp-Apim-Subscription-Key'])(
      'makes a %s header the API-key auth, as the Postman importer does (one list of names for both)',
      async (name) => {
        const draft = await only(`curl https://x.test -H '${name}: k-1'`);
        expect(draft).toMatchObject({ authType: AuthType.AUTH_API_KEY, apiKeyName: name, apiKeyIn: ApiKeyIn.HEADER, headers: [] });
        expect(draft.credentials).toEqual([{ field: 'apiKey', value: 'k-1', where: `line 1, -H ${name}` }]);
      },
    );

    it('refuses a variable in the host of a URL that credentials go to', async () => {
      expect(await refusal('curl -H "Authorization: Bearer t" "https://$HOST/a"')).toMatch(
        /^source line 1: the URL has a variable in its host while the credentials go to it/,
      );
      expect((await only('curl "https://$HOST/a"')).url).toBe('https://{{HOST}}/a');
    });

    it('reads the OAuth 2.0 settings of the comment the exporter writes', async () => {
      const source = [
        "# connector-oauth2: --grant-type PASSWORD --token-url 'https://auth.test/token' --client-id 'app' --username 'ana' --password \"$AUTH_PASSWORD\"",
        'curl -X GET \'https://x.test/a\' -H "Authorization: Bearer $ACCESS_TOKEN"',
      ].join('\n');
      const draft = await only(source);
      expect(draft).toMatchObject({ authType: AuthType.AUTH_OAUTH2, grantType: GrantType.PASSWORD, oauthUrl: 'https://auth.test/token', headers: [] });
      expect(draft.credentials).toEqual([
        { field: 'clientId', value: 'app', where: 'line 1, --client-id' },
        { field: 'authUsername', value: 'ana', where: 'line 1, --username' },
        { field: 'authPassword', variable: 'AUTH_PASSWORD', where: 'line 1, --password' },
      ]);
    });
  });

  describe('URL', () => {
    it('assumes http:// for a URL without scheme, as curl does, and names it', async () => {
      const { connectors, warnings } = await imported('curl example.com/x');
      expect(connectors[0].url).toBe('http://example.com/x');
      expect(warnings.map(({ code }) => code)).toEqual(['SCHEME_ASSUMED']);
      expect((await only('curl --proto-default https example.com/x')).url).toBe('https://example.com/x');
    });

    it('refuses other schemes, a URL that is a variable, and one that is no URL', async () => {
      expect(await refusal('curl ftp://x.test/f')).toBe('source line 1: ftp: URLs make no connector: only http and https');
      expect(await refusal('curl $BASE_URL/v1/x')).toMatch(/^source line 1: the URL starts with a variable/);
      expect(await refusal("curl 'https://a b.test/'")).toBe(
        'source line 1: the URL is not an absolute http or https URL of at most 2048 characters with a host',
      );
    });

    it('refuses a curl glob unless -g, takes other brackets literally, and keeps {{variables}} whatever -g says', async () => {
      expect(await refusal("curl 'https://x.test/{a,b}'")).toMatch(/^source line 1: the URL holds a curl glob/);
      expect(await refusal("curl 'https://x.test/page[1-3]'")).toMatch(/^source line 1: the URL holds a curl glob/);
      expect((await only("curl -g 'https://x.test/{a,b}'")).url).toBe('https://x.test/{a,b}');
      expect((await only("curl 'https://x.test/{{id}}/\\[x\\]'")).url).toBe('https://x.test/{{id}}/[x]');
      expect((await only("curl 'http://[::1]:8080/a'")).url).toBe('http://[::1]:8080/a');
      const literal = await imported("curl 'https://x.test/?filter[name]=a'");
      expect(literal.connectors[0].url).toBe('https://x.test/?filter[name]=a');
      expect(literal.warnings.map(({ code }) => code)).toEqual(['URL_GLOB_LITERAL']);
    });

    it('sends a space in the path as %20, as curl does', async () => {
      expect((await only("curl 'https://x.test/a b?c d'")).url).toBe('https://x.test/a%20b?c%20d');
    });
  });

  describe('options', () => {
    it('warns of each option it does not carry, and of unknown ones, without taking their argument for the URL', async () => {
      expect(await codes('curl -sSL -o out.json --max-time 5 --compressed -k --frobnicate https://x.test')).toEqual([
        'UNKNOWN_OPTION line 1, --frobnicate',
        'IGNORED_OPTION line 1, -s',
        'IGNORED_OPTION line 1, -S',
        'IGNORED_OPTION line 1, -L',
        'IGNORED_OPTION line 1, -o',
        'IGNORED_OPTION line 1, --max-time',
        'IGNORED_OPTION line 1, --compressed',
        'IGNORED_OPTION line 1, -k',
      ]);
      expect((await only('curl -o out.json --max-time 5 https://x.test')).url).toBe('https://x.test');
    });

    it('reads unambiguous abbreviations and --no- switches as curl does', async () => {
      expect((await only('curl --data-ra a=1 https://x.test')).body).toBe('a=1');
      // --requ could be --request or --request-target: curl refuses it as ambiguous; here it is an unknown switch.
      expect(await codes('curl --requ https://x.test')).toEqual(['UNKNOWN_OPTION line 1, --requ']);
      expect((await only('curl -g --no-globoff https://x.test/p')).url).toBe('https://x.test/p');
    });

    it('reads -- as the end of the options', async () => {
      expect((await only('curl -d a=1 -- https://x.test/-d')).url).toBe('https://x.test/-d');
    });

    it('refuses an option missing its value', async () => {
      expect(await refusal('curl https://x.test -H')).toBe('source line 1: -H needs a value after it');
    });

    it('says each warning once, and lists at most 500, counting the rest', async () => {
      expect(await codes('curl https://x.test -s -s -s')).toEqual(['IGNORED_OPTION line 1, -s']);
      const { warnings } = await imported(`curl https://x.test${Array.from({ length: 600 }, (_, index) => ` --x${index}`).join('')}`);
      expect(warnings).toHaveLength(501);
      expect(warnings[500]).toEqual({ code: 'WARNINGS_CUT', where: 'as a whole', message: '100 more warnings are not listed.' });
    });
  });

  describe('commands', () => {
    it('imports one connector per command and per URL, where = the line curl stands on', async () => {
      const { connectors } = await imported(
        '# list\ncurl https://x.test/a\n\n$ curl https://x.test/b \\\n  https://x.test/c --next -X POST https://x.test/d\n',
      );
      expect(connectors.map(({ where, url, requestType }) => `${where} ${requestType} ${url}`)).toEqual([
        'line 2 GET https://x.test/a',
        'line 4, URL 1 GET https://x.test/b',
        'line 4, URL 2 GET https://x.test/c',
        'line 4, URL 3 POST https://x.test/d',
      ]);
    });

    it('selects commands by where, and refuses a selection that matches none', async () => {
      const { connectors } = await importCurl('curl https://x.test/a\ncurl https://x.test/b', { select: ['line 2'] });
      expect(connectors.map(({ url }) => url)).toEqual(['https://x.test/b']);
      const several = 'curl https://x.test/a https://x.test/b\ncurl https://x.test/c https://x.test/d';
      expect((await importCurl(several, { select: ['line 1'] })).connectors.map(({ where }) => where)).toEqual(['line 1, URL 1', 'line 1, URL 2']);
      expect((await importCurl(several, { select: ['line 2, URL 2'] })).connectors.map(({ url }) => url)).toEqual(['https://x.test/d']);
      await expect(importCurl('curl https://x.test/a', { select: ['line 9'] })).rejects.toThrow(
        'source select "line 9": matches no command: a cURL import selects commands by the line they start on, as `line N` (`line N, URL 2` for one URL of a command); the commands are at line 1',
      );
    });

    it('names each selector that matches nothing, quoting at most 10 of them cut at 100 characters', async () => {
      const select = ['line 1', ...Array.from({ length: 12 }, (_, index) => `${'x'.repeat(150)}${index}`)];
      const message = (await importCurl('curl https://x.test/a', { select }).catch((error: Error) => error.message)) as string;
      expect(message).toBe(
        `source select ${Array(10)
          .fill(`"${'x'.repeat(100)}…"`)
          .join(', ')} and 2 more: matches no command: a cURL import selects commands by the line ` +
          'they start on, as `line N` (`line N, URL 2` for one URL of a command); the commands are at line 1',
      );
    });

    it('counts the URLs of a command against the limit of 1000 before drafting any of them', async () => {
      // The last URL would be refused by its draft: the count comes first.
      expect(await refusal(`curl${' https://x.test/a'.repeat(1001)} ftp://x.test/`)).toBe(
        'source as a whole: holds 1002 requests (one per URL of each command): an import creates at most 1000 connectors; split the source into ' +
          'several imports, or pick at most 1000 with select (`line N`, or `line N, URL 2` for one URL of a command)',
      );
      const chosen = await importCurl(`curl${' https://x.test/a'.repeat(1001)} ftp://x.test/`, { select: ['line 1, URL 7'] });
      expect(chosen.connectors.map(({ where }) => where)).toEqual(['line 1, URL 7']);
    });

    it('names a connector by method, host and path, cut at 100 characters with the URL as description', async () => {
      expect(await only('curl -d a=1 https://api.example.com/v1/users?page=2')).toMatchObject({ name: 'POST api.example.com/v1/users', description: null });
      const long = `https://x.test/${'a'.repeat(120)}`;
      const draft = await only(`curl ${long}`);
      expect(draft.name).toHaveLength(100);
      expect(draft.name.endsWith('…')).toBe(true);
      expect(draft.description).toBe(long);
    });

    it('skips a pipe and redirections with a warning, and refuses what joins commands', async () => {
      expect(await codes('curl https://x.test > out.json 2>&1 | jq .')).toEqual([
        'REDIRECT_IGNORED line 1, >',
        'REDIRECT_IGNORED line 1, 2>&',
        'PIPE_IGNORED line 1, |',
      ]);
      expect(await refusal('curl https://x.test && echo done')).toBe(
        'source line 1: && joins commands or starts a subshell: an import reads one curl command per line, and runs nothing',
      );
      expect(await refusal('curl https://x.test; rm -rf /')).toMatch(/^source line 1: ; joins commands/);
      expect(await refusal('TOKEN=abc curl https://x.test')).toMatch(/^source line 1: a variable assignment is not read/);
      expect(await refusal('echo hi')).toBe('source line 1: "echo" is not curl: each line holds one curl command or a # comment');
      expect(await refusal('# only a comment')).toBe('source line 1: no curl command: paste a command that starts with curl');
    });

    it('refuses Windows quoting and curl.exe with the way out', async () => {
      expect(await refusal('curl.exe https://x.test')).toBe(
        'source line 1: curl.exe is a Windows command line (cmd or PowerShell quoting): copy the command as "cURL (bash)" (POSIX quoting) instead',
      );
    });
  });
});

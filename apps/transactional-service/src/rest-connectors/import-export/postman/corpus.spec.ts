import { ApiKeyIn, AuthType, ContentType, multipartBody, RequestType } from '@app/domain';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorDraft, ImportDraft, ImportSourceError } from '../connector-draft';
import { importPostman } from '.';
import { aDraft, codesOf } from './testing/collections';

/** test/fixtures/import/postman: collections nobody here wrote (README.md there gives each one's origin and licence). */
const CORPUS = join(__dirname, '../../../../../../test/fixtures/import/postman');

const fixture = (file: string) => readFileSync(join(CORPUS, file), 'utf8');
const importFixture = (file: string): Promise<ImportDraft> => importPostman(fixture(file), {});
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** A connector in a short form: where, method, URL, content type, headers and body. */
const summary = (connector: ConnectorDraft) => [
  connector.where,
  connector.requestType,
  connector.url,
  connector.contentType,
  connector.headers.map(({ header, value }) => `${header}: ${value}`),
  connector.body,
];
/** The warnings in a short form: code and where. */
const warningsOf = (draft: ImportDraft) => draft.warnings.map(({ code, where }) => [code, where]);

/** The text of the request named `name` in a collection fixture (at any depth), at `path` below its request. */
function sourceText(file: string, name: string, ...path: string[]): string {
  const find = (items: Array<Record<string, unknown>>): Record<string, unknown> | undefined =>
    items.map((item) => (item.name === name ? item : Array.isArray(item.item) ? find(item.item) : undefined)).find((item) => item !== undefined);
  const item = find(JSON.parse(fixture(file)).item)!;
  return path.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], item.request) as string;
}

describe('importPostman on collections nobody here wrote', () => {
  describe('insomnia-importers 3.6.0 (the Postman importer fixtures of a peer)', () => {
    const insomnia = (name: string) => `insomnia-importers-3.6.0/${name}-input.json`;
    const plain = aDraft({ url: 'https://insomnia.rest' });

    it('basic auth, v2.1: the token made of username and password', async () => {
      expect(await importFixture(insomnia('basic-auth-v2_1'))).toEqual({
        connectors: [
          {
            ...plain,
            name: 'Basic Auth',
            where: 'item "Basic Auth"',
            authType: AuthType.AUTH_BASIC,
            credentials: [{ field: 'basicToken', value: base64('basic-username:basic-password'), where: 'item "Basic Auth", auth basic' }],
          },
        ],
        warnings: [],
      });
    });

    it('basic auth, v2.0 (attributes as an object): the same connector as v2.1', async () => {
      expect(await importFixture(insomnia('basic-auth-v2_0'))).toEqual(await importFixture(insomnia('basic-auth-v2_1')));
    });

    it('bearer token', async () => {
      expect(await importFixture(insomnia('bearer-token-v2_1'))).toEqual({
        connectors: [
          {
            ...plain,
            name: 'Bearer Token',
            where: 'item "Bearer Token"',
            authType: AuthType.AUTH_BEARER,
            credentials: [{ field: 'bearerToken', value: 'bearer-token-value', where: 'item "Bearer Token", auth bearer' }],
          },
        ],
        warnings: [],
      });
    });

    it('a URL with a query parameter', async () => {
      expect(await importFixture(insomnia('complex-url-v2_1'))).toEqual({
        connectors: [{ ...plain, name: 'Test Request', where: 'item "Test Request"', url: 'https://insomnia.rest?foo=bar' }],
        warnings: [],
      });
    });

    it.each([
      ['aws-signature-auth-v2_1', 'AWS Signature', 'awsv4', 'https://insomnia.rest'],
      ['digest-auth-v2_1', 'Digest Auth', 'digest', 'https://jigsaw.w3.org/HTTP/Digest/'],
    ])('%s: imported without auth, with a warning', async (file, name, type, url) => {
      const draft = await importFixture(insomnia(file));
      expect(draft.connectors).toEqual([{ ...plain, name, url, where: `item "${name}"` }]);
      expect(draft.warnings).toEqual([
        {
          code: 'AUTH_UNSUPPORTED',
          where: `item "${name}"`,
          message: `"${type}" auth (item "${name}"): imported without auth (AUTH_NONE). A connector has basic, bearer, API key and OAuth 2.0 (client credentials, password) auth: set one after importing.`,
        },
      ]);
    });

    it('OAuth 1.0: five requests without auth, each warned about', async () => {
      const draft = await importFixture(insomnia('oauth1_0-auth-v2_1'));
      const names = [
        'Added to Request Body/URL',
        'Added to Request Headers',
        'Signature Method PLAINTEXT',
        'Signature Method HMAC-SHA256',
        'Signature Method HMAC-SHA1',
      ];
      expect(draft.connectors).toEqual(names.map((name) => ({ ...plain, name, where: `item "${name}"` })));
      expect(warningsOf(draft)).toEqual(names.map((name) => ['AUTH_UNSUPPORTED', `item "${name}"`]));
    });

    it('OAuth 2.0 without a grant type (authorization code, Postman’s default): without auth, warned about', async () => {
      const draft = await importFixture(insomnia('oauth2_0-auth-v2_1'));
      expect(draft.connectors.map(({ name, authType }) => [name, authType])).toEqual([
        ['Added to Request URL', AuthType.AUTH_NONE],
        ['Added to Request Headers', AuthType.AUTH_NONE],
      ]);
      expect(codesOf(draft)).toEqual(['OAUTH2_GRANT_UNSUPPORTED', 'OAUTH2_GRANT_UNSUPPORTED']);
    });

    it.each([
      ['postman-export-oauth2-v2_1', 'Example request with OAuth2'],
      ['minimal-v2_1', '#1'],
    ])('%s: refused, its only request has no URL', async (file, name) => {
      await expect(importFixture(insomnia(file))).rejects.toEqual(
        new ImportSourceError('collection', `has no request a connector can be made of: item "${name}": Left out: it has no URL.`),
      );
    });

    describe('complex-v2_1: folders, form bodies, an Authorization header, GraphQL', () => {
      const file = insomnia('complex-v2_1');

      it("imports as it is: base_url, which it does not define, is the environment's {{env.base_url}}", async () => {
        const draft = await importFixture(file);
        expect(draft.connectors.map(({ url }) => url)).toEqual([
          '{{env.base_url}}/api/users',
          '{{env.base_url}}/api/users',
          '{{env.base_url}}/api/users',
          '{{env.base_url}}/api/users',
          '{{env.base_url}}/api/users',
          '{{env.base_url}}/api',
        ]);
        expect(warningsOf(draft).filter(([code]) => code === 'ENVIRONMENT_VARIABLE')).toHaveLength(6);
      });

      it('imports every request once base_url is given a value', async () => {
        const collection = { ...JSON.parse(fixture(file)), variable: [{ key: 'base_url', value: 'https://insomnia.rest' }] };
        const draft = await importPostman(JSON.stringify(collection), {});
        const basic = (where: string) => ({
          authType: AuthType.AUTH_BASIC,
          credentials: [{ field: 'basicToken', value: base64('username:password'), where: `${where}, header Authorization` }],
        });
        const graphql = sourceText(file, 'Test Request GraphQL Body', 'body', 'graphql', 'query');
        const graphqlVariables = sourceText(file, 'Test Request GraphQL Body', 'body', 'graphql', 'variables');
        expect(
          draft.connectors.map(({ name, description, url, contentType, body, authType, credentials }) => ({
            name,
            description,
            url,
            contentType,
            body,
            authType,
            credentials,
          })),
        ).toEqual([
          {
            name: '{{base_url}}/api/users',
            description: 'First Request',
            url: 'https://insomnia.rest/api/users',
            contentType: ContentType.MULTIPART_FORM_DATA,
            body: multipartBody([
              { name: 'file', value: '', filename: 'test.txt' },
              { name: 'foo', value: 'bar' },
            ]),
            ...basic('item "First Folder / {{base_url}}/api/users"'),
          },
          {
            name: 'Urlencoded Form Test',
            description: 'First Request',
            url: 'https://insomnia.rest/api/users',
            contentType: ContentType.APPLICATION_FORM_URLENCODED,
            body: 'foo=bar',
            ...basic('item "First Folder / Urlencoded Form Test"'),
          },
          {
            name: 'Test Request',
            description: 'Request with raw body',
            url: 'https://insomnia.rest/api/users',
            contentType: ContentType.TEXT_PLAIN,
            body: 'hello world!',
            authType: AuthType.AUTH_NONE,
            credentials: [],
          },
          {
            name: 'Test Request Unknown Body',
            description: 'Request with unknown body',
            url: 'https://insomnia.rest/api/users',
            contentType: ContentType.NONE,
            body: '',
            authType: AuthType.AUTH_NONE,
            credentials: [],
          },
          {
            name: 'Test Request Empty Body',
            description: 'Request with empty raw body',
            url: 'https://insomnia.rest/api/users',
            contentType: ContentType.NONE,
            body: '',
            authType: AuthType.AUTH_NONE,
            credentials: [],
          },
          {
            name: 'Test Request GraphQL Body',
            description: 'Request with graphql body',
            // Its raw URL says /graphql/, its parts /api: Postman sends the parts.
            url: 'https://insomnia.rest/api',
            contentType: ContentType.APPLICATION_JSON,
            body: `{"query":${JSON.stringify(graphql)},"variables":${graphqlVariables}}`,
            authType: AuthType.AUTH_NONE,
            credentials: [],
          },
        ]);
        expect(warningsOf(draft)).toEqual([
          ['HEADER_AS_AUTH', 'item "First Folder / {{base_url}}/api/users"'],
          ['VARIABLE_INLINED', 'item "First Folder / {{base_url}}/api/users"'],
          ['DISABLED_SKIPPED', 'item "First Folder / {{base_url}}/api/users"'],
          ['FILE_NOT_IMPORTED', 'item "First Folder / {{base_url}}/api/users"'],
          ['HEADER_AS_AUTH', 'item "First Folder / Urlencoded Form Test"'],
          ['VARIABLE_INLINED', 'item "First Folder / Urlencoded Form Test"'],
          ['VARIABLE_INLINED', 'item "Test Request"'],
          ['VARIABLE_INLINED', 'item "Test Request Unknown Body"'],
          ['BODY_NOT_IMPORTED', 'item "Test Request Unknown Body"'],
          ['VARIABLE_INLINED', 'item "Test Request Empty Body"'],
          ['URL_RAW_DIFFERS', 'item "Test Request GraphQL Body"'],
          ['VARIABLE_INLINED', 'item "Test Request GraphQL Body"'],
        ]);
      });
    });
  });

  describe("postman-code-generators 2.1.1 (Postman's own test collections)", () => {
    const axios = 'postman-code-generators-2.1.1/nodejs-axios-collection.json';
    const http = 'postman-code-generators-2.1.1/http-test-collection.json';
    const echo = 'https://postman-echo.com';
    const unsupported = ['LINK', 'UNLINK', 'LOCK', 'UNLOCK', 'PROPFIND', 'VIEW', 'PURGE', 'COPY'];

    it('nodejs-axios collection (v2.1): 15 connectors, the 8 requests of other methods left out', async () => {
      const draft = await importFixture(axios);
      const raw = (name: string) => sourceText(axios, name, 'body', 'raw');
      expect(draft.connectors.map(summary)).toEqual([
        [
          'item "Request Headers with disabled headers"',
          'GET',
          `${echo}/headers`,
          'NONE',
          ['my-sample-header: Lorem ipsum dolor sit amet', 'not-disabled-header: ENABLED'],
          '',
        ],
        ['item "GET Request with disabled query"', 'GET', `${echo}/get?test=123&anotherone=232`, 'NONE', [], ''],
        ['item "POST Raw Text"', 'POST', `${echo}/post`, 'TEXT_PLAIN', [], raw('POST Raw Text')],
        [
          'item "POST form data with file"',
          'POST',
          `${echo}/post`,
          'MULTIPART_FORM_DATA',
          [],
          multipartBody([
            { name: 'fdjks', value: 'dsf' },
            { name: 'sdf', value: 'helo' },
            { name: '12', value: '"23"' },
            { name: "'123'", value: `'"23\\"4\\""'` },
          ]),
        ],
        [
          'item "POST urlencoded data with disabled entries"',
          'POST',
          // As Postman sends it: its runtime percent-encodes the quotes (postman-url-encoder).
          `${echo}/post/?hardik=%22me%22`,
          'APPLICATION_FORM_URLENCODED',
          [],
          "1=a&2=b&%22%2212%22%22=%2223%22&'1%222%5C%22%223'='1%2223%224'",
        ],
        ['item "POST json with raw"', 'POST', `${echo}/post`, 'APPLICATION_JSON', [], '{\n  "json": "Test-Test"\n}'],
        ['item "POST javascript with raw"', 'POST', `${echo}/post`, 'TEXT_PLAIN', ['Content-Type: application/javascript'], 'var val = 6;\nconsole.log(val);'],
        ['item "POST text/xml with raw"', 'POST', `${echo}/post`, 'APPLICATION_XML', ['Content-Type: text/xml'], '<xml>\n  Test Test\n</xml>'],
        ['item "POST text/html with raw"', 'POST', `${echo}/post`, 'TEXT_PLAIN', ['Content-Type: text/html'], '<html>\n  Test Test\n</html>'],
        ['item "Resolve URL"', 'POST', `${echo}/{{action}}`, 'APPLICATION_FORM_URLENCODED', [], raw('Resolve URL')],
        ['item "PUT Request"', 'PUT', `${echo}/put`, 'TEXT_PLAIN', [], raw('PUT Request')],
        ['item "PATCH Request"', 'PATCH', `${echo}/patch`, 'TEXT_PLAIN', [], raw('PATCH Request')],
        ['item "DELETE Request"', 'DELETE', `${echo}/delete`, 'APPLICATION_FORM_URLENCODED', [], 'dsfs=sfdds&sfdsdf=sdf'],
        ['item "OPTIONS to postman echo"', 'OPTIONS', `${echo}/post`, 'APPLICATION_FORM_URLENCODED', [], ''],
        ['item "HEAD request"', 'HEAD', `${echo}/head`, 'NONE', [], ''],
      ]);
      expect(draft.connectors.every(({ authType, credentials }) => authType === AuthType.AUTH_NONE && credentials.length === 0)).toBe(true);
      expect(draft.warnings.filter(({ code }) => code === 'ITEM_SKIPPED').map(({ message }) => message)).toEqual(
        unsupported.map((method) => `Left out: its method "${method}" is none a connector has (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS).`),
      );
      expect(warningsOf(draft).filter(([code]) => code !== 'ITEM_SKIPPED' && code !== 'SCRIPTS_NOT_IMPORTED')).toEqual([
        ['DISABLED_SKIPPED', 'item "Request Headers with disabled headers"'],
        ['DISABLED_SKIPPED', 'item "GET Request with disabled query"'],
        ['DISABLED_SKIPPED', 'item "POST form data with file"'],
        ['DISABLED_SKIPPED', 'item "POST form data with file"'],
        ['DISABLED_SKIPPED', 'item "POST form data with file"'],
        ['VARIABLE_VALUES_NOT_IMPORTED', 'item "Resolve URL"'],
        ['DISABLED_SKIPPED', 'item "DELETE Request"'],
        ['DISABLED_SKIPPED', 'item "HEAD request"'],
      ]);
      expect(codesOf(draft).filter((code) => code === 'SCRIPTS_NOT_IMPORTED')).toHaveLength(13);
    });

    it('http test collection (v2.0): special characters kept, files left out, URLs without a scheme given http://', async () => {
      const draft = await importFixture(http);
      const byName = new Map(draft.connectors.map((connector) => [connector.name, connector]));
      expect(draft.connectors).toHaveLength(21);
      expect(summary(byName.get('Request Headers (With special Characters)')!)).toEqual([
        'item "Request Headers (With special Characters)"',
        'GET',
        `${echo}/headers`,
        'NONE',
        ['my-sample-header: Lorem ipsum dolor sit amet', 'TEST: @#$%^&*()', 'more: ,./\';[]}{":?><|\\\\'],
        '',
      ]);
      // Postman's runtime sends the quotes and angle brackets percent-encoded (postman-url-encoder's query set).
      expect(byName.get('Resolve URL (Quotes + Special Characters) Copy')!.url).toBe(`${echo}/{{action}}?a=!@$^*()_-\`%26&b=,./%27;[]}{%22:/?%3E%3C||`);
      expect(byName.get('POST form data with special characters')).toMatchObject({
        contentType: ContentType.MULTIPART_FORM_DATA,
        body: multipartBody([
          { name: 'pl', value: "'a'" },
          { name: 'qu', value: '"b"' },
          { name: 'hdjkljh', value: 'c' },
          { name: 'sa', value: 'd' },
          { name: 'Special', value: '!@#$%&*()^_+=`~    ' },
          { name: 'more', value: ',./\';[]}{":?><|\\\\' },
        ]),
      });
      expect(byName.get('POST json with raw')).toMatchObject({
        contentType: ContentType.APPLICATION_JSON,
        body: sourceText(http, 'POST json with raw', 'body', 'raw'),
      });
      expect([byName.get('POST File'), byName.get('Post file in file mode')].map((connector) => [connector!.contentType, connector!.body])).toEqual([
        [ContentType.MULTIPART_FORM_DATA, multipartBody([{ name: 'file', value: '', filename: 'file.txt' }])],
        [ContentType.NONE, ''],
      ]);
      expect(['Request with Port and without path', 'GET request with port and path param'].map((name) => byName.get(name)!.url)).toEqual([
        'http://localhost:5050',
        'http://localhost:5050/knockknock',
      ]);
      expect(draft.connectors.map(({ requestType }) => requestType).filter((method) => !Object.values(RequestType).includes(method))).toEqual([]);
      expect(warningsOf(draft).filter(([code]) => ['FILE_NOT_IMPORTED', 'SCHEME_ADDED', 'SETTINGS_NOT_IMPORTED'].includes(code))).toEqual([
        ['SETTINGS_NOT_IMPORTED', 'item "GET Request with disabled query"'],
        ['FILE_NOT_IMPORTED', 'item "POST File"'],
        ['FILE_NOT_IMPORTED', 'item "Post file in file mode"'],
        ['SCHEME_ADDED', 'item "Request with Port and without path"'],
        ['SCHEME_ADDED', 'item "GET request with port and path param"'],
      ]);
      expect(draft.connectors.every(({ apiKeyIn }) => apiKeyIn !== ApiKeyIn.QUERY)).toBe(true);
    });
  });
});

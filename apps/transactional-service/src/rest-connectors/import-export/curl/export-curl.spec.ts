import { ApiKeyIn, AuthType, ContentType, GrantType, multipartBody, RequestType } from '@app/domain';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ExportedConnector } from '../connector-draft';
import { anExportedConnector } from '../testing/exported-connector';
import { multipartFarSide } from '../../test-runs/testing/multipart-far-side';
import { exportCurl } from './export-curl';
import { readFileComments } from './form-options';
import { importCurl } from './import-curl';

const aConnector = (overrides: Partial<ExportedConnector> = {}): ExportedConnector =>
  anExportedConnector({
    name: 'Create user',
    requestType: RequestType.POST,
    url: 'https://api.example.com/v1/users',
    headers: [{ header: 'Accept', value: 'application/json' }],
    contentType: ContentType.APPLICATION_JSON,
    body: '{"name": "Ana"}',
    ...overrides,
  });

/** The secrets' shell variables, set for the shell that runs an exported command. */
const SECRETS = {
  BASIC_USER: 'ana',
  BASIC_PASSWORD: 'pa ss',
  BEARER_TOKEN: 'bearer-1',
  API_KEY: 'key 1',
  ACCESS_TOKEN: 'access-1',
  CLIENT_SECRET: 'cs',
  AUTH_PASSWORD: 'pw',
};

/**
 * The arguments a real POSIX shell hands curl for an exported command: `curl` is a shell function that prints them
 * (NUL-separated), so nothing is sent anywhere; the secrets' variables are set as a user would set them.
 */
function argvOf(command: string, variables: Record<string, string> = {}): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'curl-export-'));
  try {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', ...SECRETS, ...variables };
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], { cwd: directory, env, encoding: 'utf8' });
    return out.split('\0').slice(0, -1);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('exportCurl', () => {
  it('writes a multipart body that curl sends as the same parts: a busboy far side on 127.0.0.2 finds each', async () => {
    const side = await multipartFarSide();
    const directory = mkdtempSync(join(tmpdir(), 'curl-export-'));
    try {
      const bytes = Buffer.from([0, 1, 0xff, 0x0d, 0x0a, 0x22]);
      const command = exportCurl(
        aConnector({
          url: `${side.url}/upload`,
          contentType: ContentType.MULTIPART_FORM_DATA,
          headers: [],
          body: multipartBody([
            { name: 'to', value: '@ana;type=x "quoted"' },
            { name: 'meta', value: '{"a": "b;c"}', contentType: 'application/json; charset=utf-8' },
            { name: 'notes', value: 'one\ntwo', filename: 'notes.txt' },
            { name: 'photo', base64: bytes.toString('base64'), filename: 'p 1.png', contentType: 'image/png' },
          ]),
        }),
      );
      // What the comment lines ask of the user: each file written from its Base64.
      for (const [path, base64] of readFileComments(command.split('\n').map((text, index) => ({ text: text.replace(/^#/, ''), line: index + 1 }))))
        writeFileSync(join(directory, path), Buffer.from(base64, 'base64'));

      // Not execFileSync: the far side answers on this thread.
      await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', `${command.trimEnd()} -s -o /dev/null --max-time 10`], {
        cwd: directory,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });

      expect(side.received[0].parts).toEqual([
        { name: 'to', value: '@ana;type=x "quoted"' },
        // A text part with a type but no filename is a field to curl (and to busboy); undici's FormData names it `blob`.
        { name: 'meta', value: '{"a": "b;c"}' },
        { name: 'notes', filename: 'notes.txt', mimeType: 'text/plain', bytes: Buffer.from('one\ntwo') },
        { name: 'photo', filename: 'p 1.png', mimeType: 'image/png', bytes },
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
      await side.close();
    }
  });

  it('writes one option a line, every value in single quotes, the body in --data-raw, the variables to set and the connector line above', () => {
    expect(exportCurl(aConnector({ authType: AuthType.AUTH_BEARER }))).toBe(
      [
        '# Set these shell variables first: BEARER_TOKEN (the bearer token).',
        "# connector: --name 'Create user'",
        "curl -X POST 'https://api.example.com/v1/users' \\",
        "  -H 'Accept: application/json' \\",
        "  -H 'Content-Type: application/json' \\",
        '  -H "Authorization: Bearer $BEARER_TOKEN" \\',
        `  --data-raw '{"name": "Ana"}'`,
        '',
      ].join('\n'),
    );
  });

  it('writes an escaped placeholder as the text the connector sends, in a header and in the body', () => {
    const argv = argvOf(
      exportCurl(
        aConnector({
          contentType: ContentType.TEXT_PLAIN,
          headers: [{ header: 'X-Template', value: '\\{{name}}' }],
          body: 'Flight {{1}} departs at {{2}}, dear \\{{name}}: {{v}}',
        }),
      ),
      { v: 'value of v' },
    );
    expect(argv).toContain('X-Template: {{name}}');
    // `{{v}}` is a variable, the shell variable `${v}`; the others are text.
    expect(argv.at(-1)).toBe('Flight {{1}} departs at {{2}}, dear {{name}}: value of v');
  });

  it('gives a real shell exactly the intended arguments, quotes, newlines, dollars and unicode included', () => {
    const body = `{"say": "it's \\"$HOME\\" \`id\` $(id) ü 🙂",\n "n": 1}`;
    const connector = aConnector({
      authType: AuthType.AUTH_BASIC,
      headers: [
        { header: 'X-Note', value: "l'été $PATH" },
        { header: 'X-Empty', value: '' },
      ],
      body,
    });
    expect(argvOf(exportCurl(connector))).toEqual([
      '-X',
      'POST',
      'https://api.example.com/v1/users',
      '-H',
      "X-Note: l'été $PATH",
      '-H',
      'X-Empty;',
      '-H',
      'Content-Type: application/json',
      '-u',
      `${SECRETS.BASIC_USER}:${SECRETS.BASIC_PASSWORD}`,
      '--data-raw',
      body,
    ]);
  });

  it('sends a body that starts with @ in --data-raw, which never reads a file', () => {
    const command = exportCurl(aConnector({ body: '@/etc/passwd', contentType: ContentType.TEXT_PLAIN, headers: [] }));
    expect(command).not.toMatch(/--data-binary|--data |-d /);
    expect(argvOf(command).slice(-2)).toEqual(['--data-raw', '@/etc/passwd']);
  });

  it('writes --globoff for a URL with braces, --head for HEAD, and the API key in the query before the fragment', () => {
    const argv = argvOf(
      exportCurl(
        aConnector({
          requestType: RequestType.HEAD,
          url: 'https://x.test/{{id}}/%7B%7Bx%7D%7D?a=1#top',
          headers: [],
          body: '',
          contentType: ContentType.NONE,
          authType: AuthType.AUTH_API_KEY,
          apiKeyName: 'api key',
          apiKeyIn: ApiKeyIn.QUERY,
        }),
      ),
      { id: '42' },
    );
    expect(argv).toEqual(['--head', `https://x.test/42/%7B%7Bx%7D%7D?a=1&api%20key=${SECRETS.API_KEY}#top`, '--globoff']);
  });

  it('writes the OAuth 2.0 settings on a comment line above the command, which the shell ignores', () => {
    const command = exportCurl(
      aConnector({ authType: AuthType.AUTH_OAUTH2, grantType: GrantType.CLIENT_CREDENTIALS, oauthUrl: 'https://auth.test/token', clientId: "app'1" }),
    );
    expect(command.split('\n').slice(2, 4)).toEqual([
      '# OAuth 2.0 (client credentials): set ACCESS_TOKEN to a token from https://auth.test/token first; the line below holds the settings.',
      `# connector-oauth2: --grant-type CLIENT_CREDENTIALS --token-url 'https://auth.test/token' --client-id 'app'\\''1' --client-secret "$CLIENT_SECRET"`,
    ]);
    expect(argvOf(command)).toContain(`Authorization: Bearer ${SECRETS.ACCESS_TOKEN}`);
  });

  describe('variables', () => {
    const connector = aConnector({
      url: 'https://api.example.com/v1/{{user.id}}?path={{PATH}}&id={{id}}',
      headers: [{ header: 'X-Token', value: '{{BEARER_TOKEN}}-{{user_id}}' }],
      body: '{"say": "\\{{name}} is {{name}}", "n": {{n}}}',
    });

    it('names each a shell variable: its own name when the shell can, else mapped, never the shell’s own or a secret’s', () => {
      const [toSet, line] = exportCurl(connector).split('\n');
      expect(toSet).toBe(
        '# Set these shell variables first: user_id (the connector variable user.id), PATH_2 (the connector variable PATH), id, ' +
          'BEARER_TOKEN_2 (the connector variable BEARER_TOKEN), user_id_2 (the connector variable user_id), name, n.',
      );
      expect(line).toBe(
        "# connector: --name 'Create user' --variable 'user_id=user.id' --variable 'PATH_2=PATH' --variable 'BEARER_TOKEN_2=BEARER_TOKEN' --variable 'user_id_2=user_id'",
      );
    });

    it('gives curl each value the shell holds, and an escaped placeholder as the text it is sent as', () => {
      const values = { user_id: 'u-1', PATH_2: 'p', id: '7', BEARER_TOKEN_2: 'b', user_id_2: 'u-2', name: 'Ana', n: '3' };
      expect(argvOf(exportCurl(connector), values)).toEqual([
        '-X',
        'POST',
        'https://api.example.com/v1/u-1?path=p&id=7',
        '--globoff',
        '-H',
        'X-Token: b-u-2',
        '-H',
        'Content-Type: application/json',
        '--data-raw',
        '{"say": "{{name}} is Ana", "n": 3}',
      ]);
    });

    it('reads literal braces as text only below the connector line: a command from elsewhere keeps {{name}} a variable', async () => {
      const exported = exportCurl(aConnector({ body: '\\{{name}}' }));
      const withoutLine = exported
        .split('\n')
        .filter((text) => !text.startsWith('#'))
        .join('\n');
      expect((await importCurl(exported, {})).connectors[0].body).toBe('\\{{name}}');
      expect((await importCurl(withoutLine, {})).connectors[0].body).toBe('{{name}}');
    });
  });

  it("names an environment's variable as a shell variable and says which connector variable it is", () => {
    const [toSet, line, command] = exportCurl(aConnector({ url: '{{env.BASE_URL}}/orders' })).split('\n');
    expect(toSet).toBe('# Set these shell variables first: env_BASE_URL (the connector variable env.BASE_URL).');
    expect(line).toContain("--variable 'env_BASE_URL=env.BASE_URL'");
    expect(command).toContain(`"\${env_BASE_URL}"'/orders'`);
  });

  it("reads an export's URL that starts with the environment's variable without -g too, its globs refused as ever", async () => {
    const line = "# connector: --name Orders --variable 'env_B=env.B'";
    expect((await importCurl(`${line}\ncurl "\${env_B}/orders?q=1"`, {})).connectors[0].url).toBe('{{env.B}}/orders?q=1');
    await expect(importCurl(`${line}\ncurl "\${env_B}/x/{a,b}"`, {})).rejects.toThrow(/the URL holds a curl glob/);
    await expect(importCurl('curl "${B}/orders"', {})).rejects.toThrow(/the URL starts with a variable/);
  });

  describe('round trip: importCurl(exportCurl(c)) is c', () => {
    const connectors: Array<[string, ExportedConnector]> = [
      [
        "the environment's variables: one that starts the URL, one in the host, header and body",
        aConnector({
          url: '{{env.BASE_URL}}/v1/{{id}}?region={{env.region}}',
          headers: [{ header: 'X-Tenant', value: '{{env.tenant-id}}' }],
          body: '{"env": "{{env.region}}"}',
        }),
      ],
      ["an environment's variable in the host", aConnector({ url: 'https://{{env.region}}.api.example.com/v1' })],
      [
        'no auth, JSON with variables in URL, header and body',
        aConnector({ url: 'https://{{host}}/v1/{{id}}?q={{q}}', headers: [{ header: 'X-Trace', value: '{{trace}}' }], body: '{"qty": {{qty}}}' }),
      ],
      [
        'name, description, output and tags; variables a shell cannot name; an escaped placeholder',
        aConnector({
          name: "Créer l'usager 🙂",
          description: 'Two lines:\nit\'s "quoted" {{not.a.variable}}',
          output: "$.data[?@.name == 'x']",
          tags: [{ name: 'crm' }, { name: "it's" }],
          url: 'https://api.example.com/v1/{{user.id}}?path={{PATH}}&token={{BEARER_TOKEN}}',
          headers: [{ header: 'X-Template', value: '\\{{literal}} and {{user-id}} and {{user_id}}' }],
          body: '{"text": "\\{{1}} \\{{name}} {{name}}"}',
          authType: AuthType.AUTH_BEARER,
        }),
      ],
      ['Basic, form body', aConnector({ authType: AuthType.AUTH_BASIC, contentType: ContentType.APPLICATION_FORM_URLENCODED, body: 'a=1&b=%20x' })],
      [
        'Bearer, XML body with quotes and newlines',
        aConnector({ authType: AuthType.AUTH_BEARER, contentType: ContentType.APPLICATION_XML, body: `<a x='1'>\n  "two"\n</a>` }),
      ],
      ['API key in a header of any name', aConnector({ authType: AuthType.AUTH_API_KEY, apiKeyName: 'X-Custom-Secret', apiKeyIn: ApiKeyIn.HEADER })],
      ['API key in the query', aConnector({ url: 'https://x.test/a?b=1#c', authType: AuthType.AUTH_API_KEY, apiKeyName: 'token', apiKeyIn: ApiKeyIn.QUERY })],
      [
        'OAuth 2.0 client credentials',
        aConnector({ authType: AuthType.AUTH_OAUTH2, grantType: GrantType.CLIENT_CREDENTIALS, oauthUrl: 'https://auth.test/t', clientId: 'app' }),
      ],
      [
        'OAuth 2.0 password',
        aConnector({ authType: AuthType.AUTH_OAUTH2, grantType: GrantType.PASSWORD, oauthUrl: 'https://auth.test/t', clientId: 'app', authUsername: 'ana' }),
      ],
      [
        'multipart: text, @ and ; in values, a typed and a named text part, files as Base64, unicode',
        aConnector({
          contentType: ContentType.MULTIPART_FORM_DATA,
          requestType: RequestType.PUT,
          body: multipartBody([
            { name: 'name', value: 'Zoë 🙂 {{who}}' },
            { name: 'at', value: '@/etc/passwd;type=x' },
            { name: 'meta', value: '{"a": "b;c\\"d"}', contentType: 'application/json; charset=utf-8' },
            { name: 'notes', value: "it's\nmultiline", filename: 'my notes.txt' },
            { name: 'photo', base64: 'iVBORw0KGgo=', filename: "p'1.png", contentType: 'image/png' },
          ]),
        }),
      ],
      ['multipart without parts', aConnector({ contentType: ContentType.MULTIPART_FORM_DATA, body: '' })],
      ['text, a body starting with @', aConnector({ contentType: ContentType.TEXT_PLAIN, body: "@file it's", requestType: RequestType.PATCH })],
      [
        'GET without body, empty header value',
        aConnector({ requestType: RequestType.GET, contentType: ContentType.NONE, body: '', headers: [{ header: 'X-Empty', value: '' }] }),
      ],
      ['DELETE with a body', aConnector({ requestType: RequestType.DELETE, body: '{}' })],
      [
        'a declared vendor media type',
        aConnector({ requestType: RequestType.PATCH, headers: [{ header: 'Content-Type', value: 'application/json-patch+json' }], body: '[]' }),
      ],
      ['a declared text/csv', aConnector({ headers: [{ header: 'Content-Type', value: 'text/csv' }], contentType: ContentType.TEXT_PLAIN, body: 'a,b' })],
      ['HEAD', aConnector({ requestType: RequestType.HEAD, contentType: ContentType.NONE, body: '' })],
      ['OPTIONS', aConnector({ requestType: RequestType.OPTIONS, contentType: ContentType.NONE, body: '' })],
    ];

    it.each(connectors)('%s: every exported field', async (_, connector) => {
      const {
        connectors: [draft],
        warnings,
      } = await importCurl(exportCurl(connector), {});
      const { clientId: _clientId, authUsername: _authUsername, ...fields } = connector;
      const { credentials, where: _where, ...imported } = draft;
      expect(imported).toEqual(fields);
      expect(credentials.every((credential) => credential.value === undefined || ['clientId', 'authUsername'].includes(credential.field))).toBe(true);
      expect(warnings.filter(({ code }) => code !== 'BASIC_CREDENTIALS_VARIABLE' && code !== 'BODY_NOT_SENT')).toEqual([]);
    });

    it('gives each secret back as the variable the command names', async () => {
      const variables = async (connector: ExportedConnector) =>
        (await importCurl(exportCurl(connector), {})).connectors[0].credentials.map(({ field, variable, value }) => `${field}=${variable ?? value}`);
      expect(await variables(aConnector({ authType: AuthType.AUTH_BEARER }))).toEqual(['bearerToken=BEARER_TOKEN']);
      expect(await variables(aConnector({ authType: AuthType.AUTH_API_KEY, apiKeyName: 'k', apiKeyIn: ApiKeyIn.QUERY }))).toEqual(['apiKey=API_KEY']);
      expect(
        await variables(
          aConnector({ authType: AuthType.AUTH_OAUTH2, grantType: GrantType.PASSWORD, oauthUrl: 'https://a.test/t', clientId: null, authUsername: 'ana' }),
        ),
      ).toEqual(['clientId=CLIENT_ID', 'authUsername=ana', 'authPassword=AUTH_PASSWORD']);
    });
  });

  describe('secret headers', () => {
    const twoCredentials = aConnector({
      authType: AuthType.AUTH_BEARER,
      headers: [
        { header: 'Accept', value: 'application/json' },
        { header: 'x-api-key', value: '<SECRET>', secret: true },
        { header: 'X-Tenant', value: '<SECRET>', secret: true },
      ],
    });

    it('writes each as a shell variable named after it, never its placeholder, which a real shell fills in', () => {
      const command = exportCurl(twoCredentials);
      expect(command).toContain(`-H 'x-api-key: '"$SECRET_X_API_KEY"`);
      expect(command).not.toContain('<SECRET>');
      const argv = execFileSync('bash', ['--norc', '--noprofile', '-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SECRET_X_API_KEY: 'k-1', SECRET_X_TENANT: 't-1', BEARER_TOKEN: 'b-1' },
        encoding: 'utf8',
      }).split('\0');
      expect(argv).toEqual(expect.arrayContaining(['x-api-key: k-1', 'X-Tenant: t-1', 'Authorization: Bearer b-1']));
    });

    it('round trip: both credentials come back, the secret headers asked for by their variables', async () => {
      const {
        connectors: [draft],
      } = await importCurl(exportCurl(twoCredentials), {});
      expect(draft.authType).toBe(AuthType.AUTH_BEARER);
      expect(draft.credentials).toEqual([expect.objectContaining({ field: 'bearerToken', variable: 'BEARER_TOKEN' })]);
      expect(draft.headers).toEqual([
        { header: 'Accept', value: 'application/json' },
        expect.objectContaining({ header: 'x-api-key', value: '', secret: true, variable: 'SECRET_X_API_KEY' }),
        expect.objectContaining({ header: 'X-Tenant', value: '', secret: true, variable: 'SECRET_X_TENANT' }),
      ]);
    });
  });
});

import { AuthType, ContentType, GrantType, RequestType } from '@app/domain';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportedConnector } from '../connector-draft';
import { anExportedConnector } from '../testing/exported-connector';
import { exportCurl } from './export-curl';
import { importCurl } from './import-curl';

const SECRETS = { BEARER_TOKEN: 'bearer-1', ACCESS_TOKEN: 'access-1' };

/**
 * A bash in a real terminal: a tmux server of its own (own socket, no config), whose pane runs an interactive bash
 * (readline, history expansion, bracketed paste as bash 5.1+ asks the terminal for it). `curl` is a shell function
 * that writes the arguments it was given, NUL-separated, to `argv`: nothing is sent anywhere.
 */
class PastedShell {
  readonly dir = mkdtempSync(join(tmpdir(), 'curl-paste-'));
  private readonly socket = join(this.dir, 'tmux.sock');

  constructor() {
    writeFileSync(
      join(this.dir, 'rc'),
      [`PS1='READY$ '`, `PS2='> '`, 'HISTFILE=/dev/null', `curl() { printf '%s\\0' "$@" > '${this.dir}/argv'; }`, ''].join('\n'),
    );
    const env = Object.entries({ PATH: '/usr/bin:/bin', HOME: this.dir, TERM: 'xterm-256color', LC_ALL: 'C.UTF-8', ...SECRETS }).map(
      ([name, value]) => `${name}=${value}`,
    );
    this.tmux('new-session', '-d', '-x', '200', '-y', '50', '--', 'env', '-i', ...env, 'bash', '--noprofile', '--rcfile', join(this.dir, 'rc'), '-i');
  }

  /** Pastes `text` as a terminal does (LF sent as CR); bracketed, then Enter, as a user confirms a bracketed paste. */
  async paste(text: string, bracketed: boolean): Promise<void> {
    await this.until('the prompt', () => this.screen().includes('READY$'));
    writeFileSync(join(this.dir, 'paste'), text);
    this.tmux('load-buffer', '-b', 'export', join(this.dir, 'paste'));
    this.tmux('paste-buffer', ...(bracketed ? ['-p'] : []), '-d', '-b', 'export', '-t', '0');
    if (bracketed) this.tmux('send-keys', '-t', '0', 'Enter');
  }

  /** The arguments curl was given, once it was; then a command typed after the paste has run (nothing is pending). */
  async argv(): Promise<string[]> {
    await this.until('curl to be called', () => existsSync(join(this.dir, 'argv')));
    this.tmux('send-keys', '-t', '0', '-l', `touch '${this.dir}/settled'`);
    this.tmux('send-keys', '-t', '0', 'Enter');
    await this.until('the shell to run a command typed after the paste', () => existsSync(join(this.dir, 'settled')));
    return readFileSync(join(this.dir, 'argv'), 'utf8').split('\0').slice(0, -1);
  }

  /** Files some pasted text made, which only a command it ran could have. */
  made(): string[] {
    return readdirSync(this.dir).filter((name) => name.startsWith('pwned'));
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private screen(): string {
    return this.tmux('capture-pane', '-p', '-t', '0');
  }

  private async until(what: string, done: () => boolean): Promise<void> {
    for (let waited = 0; !done(); waited += 100) {
      if (waited > 20_000) throw new Error(`waited 20 s for ${what}; files made: ${this.made().join(', ')}; the terminal shows:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private tmux(...args: string[]): string {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.dir };
    return execFileSync('tmux', ['-f', '/dev/null', '-S', this.socket, ...args], { env, encoding: 'utf8' });
  }
}

const aConnector = (overrides: Partial<ExportedConnector> = {}): ExportedConnector =>
  anExportedConnector({
    name: 'Paste',
    requestType: RequestType.POST,
    url: 'https://api.example.com/v1/notes',
    contentType: ContentType.TEXT_PLAIN,
    authType: AuthType.AUTH_BEARER,
    ...overrides,
  });

/**
 * Connector text that runs commands when pasted raw: ^C (SIGINT: the line so far is dropped and the rest of the paste
 * is typed anew), the end of a bracketed paste (ESC [201~), ^Z and ^\ (job control and quit signals), DEL, a C1 CSI,
 * the line and paragraph separators, a bidi override, TAB (completion when typed), CR; each followed by a command
 * that leaves a file behind.
 */
function hostile(dir: string): { body: string; header: string; clientId: string } {
  const run = (name: string) => ` true; touch ${dir}/pwned-${name}\n`;
  return {
    body: [
      `{"note": "é 🙂 !! it's $HOME"}`,
      `\u0003${run('ctrl-c')}`,
      `\u001b[201~${run('paste-end')}`,
      `\u001a${run('ctrl-z')}`,
      `\u001c${run('ctrl-backslash')}`,
      `\u007f\u009b\u2028\u2029\u202e\t\r${run('others')}`,
    ].join(''),
    header: `X-Note: a\u0003${run('header').trimEnd()}`,
    clientId: `app\u0003${run('comment').trimEnd()}`,
  };
}

describe('exportCurl pasted into an interactive bash in a terminal', () => {
  jest.setTimeout(60_000);
  let shell: PastedShell;
  beforeEach(() => (shell = new PastedShell()));
  afterEach(() => shell.close());

  describe.each([
    ['a bracketed paste', true],
    ['a paste typed key by key (no bracketed paste)', false],
  ])('as %s', (_, bracketed) => {
    it('hands curl exactly the connector’s parts and runs nothing else, whatever control characters they hold', async () => {
      const { body, header } = hostile(shell.dir);
      const connector = aConnector({ body, headers: [{ header: 'X-Note', value: header.slice('X-Note: '.length) }] });

      await shell.paste(exportCurl(connector), bracketed);

      expect(await shell.argv()).toEqual([
        '-X',
        'POST',
        'https://api.example.com/v1/notes',
        '-H',
        header,
        '-H',
        'Content-Type: text/plain',
        '-H',
        `Authorization: Bearer ${SECRETS.BEARER_TOKEN}`,
        '--data-raw',
        body,
      ]);
      expect(shell.made()).toEqual([]);
    });

    it('runs nothing of a control character in the OAuth 2.0 comment lines either', async () => {
      const { clientId } = hostile(shell.dir);
      const connector = aConnector({
        authType: AuthType.AUTH_OAUTH2,
        grantType: GrantType.CLIENT_CREDENTIALS,
        oauthUrl: 'https://auth.example.com/token',
        clientId,
        contentType: ContentType.NONE,
        requestType: RequestType.GET,
      });

      await shell.paste(exportCurl(connector), bracketed);

      expect(await shell.argv()).toEqual(['-X', 'GET', 'https://api.example.com/v1/notes', '-H', `Authorization: Bearer ${SECRETS.ACCESS_TOKEN}`]);
      expect(shell.made()).toEqual([]);
    });
  });

  it('imports back as the same connector, control characters and all', async () => {
    const { body, header, clientId } = hostile('/nowhere');
    const connector = aConnector({
      body,
      headers: [{ header: 'X-Note', value: header.slice('X-Note: '.length) }],
      authType: AuthType.AUTH_OAUTH2,
      grantType: GrantType.PASSWORD,
      oauthUrl: 'https://auth.example.com/token',
      clientId,
      authUsername: `ana\u001b[201~`,
    });

    const {
      connectors: [draft],
    } = await importCurl(exportCurl(connector), {});

    expect(draft).toMatchObject({ body, headers: connector.headers, oauthUrl: connector.oauthUrl, grantType: GrantType.PASSWORD });
    expect(draft.credentials.filter(({ value }) => value !== undefined)).toEqual([
      expect.objectContaining({ field: 'clientId', value: clientId }),
      expect.objectContaining({ field: 'authUsername', value: `ana\u001b[201~` }),
    ]);
  });

  it('writes only printable characters, and a value without control characters in single quotes as before', () => {
    const { body } = hostile('/nowhere');
    const command = exportCurl(aConnector({ body, headers: [{ header: 'X-Plain', value: "it's é" }] }));
    expect(command.replace(/\n/g, '')).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    expect(command).toContain(`-H 'X-Plain: it'\\''s é'`);
    expect(command).toContain(`--data-raw $'{"note": "é 🙂 !! it\\'s $HOME"}\\003 true;`);
  });
});

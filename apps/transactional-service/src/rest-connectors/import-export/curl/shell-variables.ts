import { TEMPLATE } from '@app/domain';
import { shellQuoted } from './posix-quote';

/** The shell variables an export writes for the secrets, which it never knows: never a connector variable's name. */
export const SECRET_SHELL_VARIABLES = {
  basicUser: 'BASIC_USER',
  basicPassword: 'BASIC_PASSWORD',
  bearerToken: 'BEARER_TOKEN',
  apiKey: 'API_KEY',
  accessToken: 'ACCESS_TOKEN',
  clientId: 'CLIENT_ID',
  clientSecret: 'CLIENT_SECRET',
  authUsername: 'AUTH_USERNAME',
  authPassword: 'AUTH_PASSWORD',
} as const;

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Names the shell sets or reads itself, or curl reads from the environment: a user who sets one for a connector
 * variable would change the shell or curl (PATH, IFS, HOME, a proxy), or one left unset would send the shell's value
 * (USER, HOSTNAME, RANDOM). A connector variable never gets one of them.
 */
const SHELL_OWN = new Set(
  (
    'BASHOPTS CDPATH COLUMNS DIRSTACK ENV EPOCHREALTIME EPOCHSECONDS EUID FCEDIT FIGNORE FUNCNAME GLOBIGNORE GROUPS HISTCMD ' +
    'HISTCONTROL HISTFILE HISTFILESIZE HISTIGNORE HISTSIZE HISTTIMEFORMAT HOME HOSTFILE HOSTNAME HOSTTYPE IFS IGNOREEOF INPUTRC LANG ' +
    'LINENO LINES LOGNAME MACHTYPE MAIL MAILCHECK MAILPATH OLDPWD OPTARG OPTERR OPTIND OSTYPE PATH PIPESTATUS POSIXLY_CORRECT PPID ' +
    'PROMPT_COMMAND PS0 PS1 PS2 PS3 PS4 PWD RANDOM REPLY SECONDS SHELL SHELLOPTS SHLVL SRANDOM SSL_CERT_DIR SSL_CERT_FILE ' +
    'SSLKEYLOGFILE TERM TIMEFORMAT TMOUT TMPDIR TZ UID USER XDG_CONFIG_HOME'
  ).split(' '),
);
/** Families of such names: bash's own, locale, loader, curl's and the proxies curl reads (in any letter case). */
const SHELL_OWN_FAMILY = /^(?:BASH|COMP_|LC_|LD_|CURL_)|^(?:https?|ftps?|all|no|socks\w*)_proxy$/i;

export function isShellOwn(name: string): boolean {
  return SHELL_OWN.has(name) || SHELL_OWN_FAMILY.test(name);
}

/**
 * The shell variable of each connector variable, in the order given: the name itself when it is a shell name
 * (`[A-Za-z_][A-Za-z0-9_]*`) that is neither the shell's own (isShellOwn) nor a secret's (SECRET_SHELL_VARIABLES);
 * else every character that a shell name cannot hold (`.`, `-`) as `_`, and, while that is taken, `_2`, `_3`, …
 * appended. Deterministic: the same connector always gives the same names.
 */
export function shellVariablesOf(names: Iterable<string>): Map<string, string> {
  const taken = new Set<string>(Object.values(SECRET_SHELL_VARIABLES));
  const result = new Map<string, string>();
  for (const name of names) {
    if (result.has(name)) continue;
    const base = name.replace(/[^A-Za-z0-9_]/g, '_');
    let shell = base;
    for (let suffix = 2; !SHELL_NAME.test(shell) || isShellOwn(shell) || taken.has(shell); suffix++) shell = `${base}_${suffix}`;
    taken.add(shell);
    result.set(name, shell);
  }
  return result;
}

/** The names of the variables `texts` use, in the order they first appear (escaped placeholders are text). */
export function variablesIn(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(TEMPLATE)) if (match[2] !== undefined) names.add(match[2]);
  }
  return [...names];
}

/**
 * One shell word that gives `text` with each `{{variable}}` as its shell variable (`"${NAME}"`, expanded by the
 * shell) and each escaped `\{{name}}` as the literal text `{{name}}` it is sent as; every other character literal,
 * quoted by shellQuoted.
 */
export function shellWord(text: string, variables: Map<string, string>): string {
  const parts: string[] = [];
  let literal = '';
  let at = 0;
  for (const match of text.matchAll(TEMPLATE)) {
    literal += text.slice(at, match.index);
    at = match.index + match[0].length;
    const [, escaped, name] = match;
    if (escaped !== undefined) literal += escaped;
    else {
      if (literal !== '') parts.push(shellQuoted(literal));
      literal = '';
      parts.push(`"\${${variables.get(name) ?? name}}"`);
    }
  }
  literal += text.slice(at);
  if (literal !== '' || parts.length === 0) parts.push(shellQuoted(literal));
  return parts.join('');
}

import { canonicalHttpUrl, envVariableOf, isHttpUrlWithPlaceholders, LIMITS, PLACEHOLDER } from '@app/domain';
import { ImportSourceError } from '../connector-draft';
import { ImportWarnings } from '../import-warnings';
import { curlEscape } from './curl-payload';
import { ShellWord } from './shell-words';

/** A URL as the connector keeps it, and the user info curl would have sent as Basic credentials. */
export interface ResolvedUrl {
  url: string;
  userInfo?: { text: string; line: number };
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
/** curl's globs: a `{a,b}` list or a `[1-3]` / `[a-z]` / `[01-10:2]` range: curl would send one request per value. */
const GLOB = /(?<!\\)\{[^{}]*,[^{}]*(?<!\\)\}|(?<!\\)\[(?:\d+-\d+|[a-z]-[a-z]|[A-Z]-[A-Z])(?::\d+)?(?<!\\)\]/;
const GLOB_CHARACTER = /(?<!\\)[{}[\]]/;
const ESCAPED_GLOB_CHARACTER = /\\([{}[\]])/g;

/**
 * The URL of one request, read as curl reads it: no scheme means `http://` (or --proto-default's; SCHEME_ASSUMED);
 * only http and https make a connector; user info moves to the auth settings (curl sends it as Basic); unless
 * -g/--globoff, a `{a,b}` or `[1-3]` glob is refused (curl would send several requests) while other braces and brackets,
 * which curl would refuse as bad globs, are taken literally (URL_GLOB_LITERAL) and `\[` is `[`; spaces are sent as %20,
 * as curl does. The query stays in the URL as written.
 */
export function resolveUrl(
  word: ShellWord,
  globoff: boolean,
  protoDefault: string | undefined,
  warnings: ImportWarnings,
  exportedVariables: ReadonlyMap<string, string> = new Map(),
): ResolvedUrl {
  const where = `line ${word.line}`;
  // Checked first: the glob patterns below are cheap on a URL of this length, and on nothing longer.
  if (word.text.length > LIMITS.url) throw new ImportSourceError(where, `the URL is longer than ${LIMITS.url} characters`);
  let url = environmentStart(word.text, exportedVariables) ?? withScheme(word, protoDefault, warnings);
  if (!globoff) url = unglobbed(url, where, warnings);
  if (/[\u0000-\u001f\u007f]/.test(url)) throw new ImportSourceError(where, 'the URL holds a control character (a line break, a tab): remove it');
  url = url.replace(/ /g, '%20');
  const { rest, userInfo } = withoutUserInfo(url);
  const resolved = canonicalHttpUrl(rest);
  if (!isHttpUrlWithPlaceholders(resolved, LIMITS.url)) {
    throw new ImportSourceError(where, `the URL is not an absolute http or https URL of at most ${LIMITS.url} characters with a host`);
  }
  return { url: resolved, ...(userInfo !== undefined && { userInfo: { text: userInfo, line: word.line } }) };
}

/**
 * An export's URL that starts with the environment's variable (`"\${env_BASE_URL}"/orders`, the connector line naming
 * env_BASE_URL as env.BASE_URL): the variable stands for the scheme and host, as in the connector it was exported from.
 */
function environmentStart(text: string, exportedVariables: ReadonlyMap<string, string>): string | undefined {
  const leading = /^\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}(?=[/?#]|$)/.exec(text);
  const name = leading === null ? undefined : exportedVariables.get(leading[1]);
  return name === undefined || envVariableOf(name) === null ? undefined : `{{${name}}}${text.slice(leading![0].length)}`;
}

function withScheme(word: ShellWord, protoDefault: string | undefined, warnings: ImportWarnings): string {
  const scheme = SCHEME.exec(word.text)?.[1];
  if (scheme !== undefined) {
    if (!/^https?$/i.test(scheme)) throw new ImportSourceError(`line ${word.line}`, `${scheme}: URLs make no connector: only http and https`);
    return word.text;
  }
  if (word.text.startsWith('{{')) {
    throw new ImportSourceError(
      `line ${word.line}`,
      'the URL starts with a variable, which would have to hold the scheme and host too: write them out (variables may stand in the path and query)',
    );
  }
  const assumed = protoDefault ?? 'http';
  if (!/^https?$/i.test(assumed))
    throw new ImportSourceError(`line ${word.line}`, `--proto-default ${assumed.slice(0, 20)}: only http and https make a connector`);
  if (protoDefault === undefined) {
    warnings.push({
      code: 'SCHEME_ASSUMED',
      where: `line ${word.line}`,
      message: `The URL has no scheme: http:// is assumed, as curl does. Write https:// if the server expects TLS.`,
    });
  }
  return `${assumed.toLowerCase()}://${word.text}`;
}

function unglobbed(url: string, where: string, warnings: ImportWarnings): string {
  // A URL that starts with the environment's variable (environmentStart) has no host of its own before its path.
  const host = /^[a-z]+:\/\/(?:[^/?#@]*@)?(\[[^\]/?#]*\])?/i.exec(url) ?? /^\{\{[^{}]*\}\}/.exec(url)!;
  // An IPv6 host's brackets are the URL's own (curl tells them from a glob too); placeholders are the connector's
  // (the domain's rule: `{{name}}` of a variable's name, never a curl glob, whatever -g says; other braces are text).
  const checked = url.slice(host[0].length).replace(PLACEHOLDER, '');
  if (GLOB.test(checked)) {
    throw new ImportSourceError(
      where,
      'the URL holds a curl glob ({a,b} or [1-3]): curl sends one request per value. Write one URL per command, or add -g (--globoff) to mean it literally',
    );
  }
  if (GLOB_CHARACTER.test(checked)) {
    warnings.push({
      code: 'URL_GLOB_LITERAL',
      where,
      message: 'The URL holds { } [ or ] that curl would refuse as a bad glob without -g (--globoff): they are taken literally.',
    });
  }
  return url.slice(0, host[0].length) + url.slice(host[0].length).replace(ESCAPED_GLOB_CHARACTER, '$1');
}

/** `https://user:pass@host/…` → the URL without `user:pass@`, and `user:pass` percent-decoded. */
function withoutUserInfo(url: string): { rest: string; userInfo?: string } {
  const match = /^([a-z]+:\/\/)([^/?#]*)@/i.exec(url);
  if (!match) return { rest: url };
  // The last `@` before the host ends the user info (a password may hold an `@`).
  const authorityEnd = url.slice(match[1].length).search(/[/?#]|$/) + match[1].length;
  const authority = url.slice(match[1].length, authorityEnd);
  const at = authority.lastIndexOf('@');
  return { rest: match[1] + authority.slice(at + 1) + url.slice(authorityEnd), userInfo: percentDecoded(authority.slice(0, at)) };
}

export function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** -T's file name added to a URL that has no file part (an empty path or one ending with `/`), as curl does. */
export function withUploadName(url: string, file: string): string {
  const path = /^[a-z]+:\/\/[^/?#]*(\/[^?#]*)?/i.exec(url)!;
  if (path[1] !== undefined && !path[1].endsWith('/')) return url;
  const name = file.slice(file.lastIndexOf('/') + 1);
  return path[0] + (path[1] === undefined ? '/' : '') + curlEscape(name) + url.slice(path[0].length);
}

/**
 * `url` with `parts` added to its query (before any fragment), as -G and --url-query do: each after a `&` unless the
 * query so far ends with `?` or `&`. Built once, in one pass: adding the parts one by one would re-read the growing URL
 * for each of them.
 */
export function withQuery(url: string, parts: string[]): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const pieces = [base];
  let hasQuery = base.includes('?');
  let last = base.at(-1);
  for (const part of parts) {
    if (part === '') continue;
    pieces.push(!hasQuery ? '?' : last === '?' || last === '&' ? '' : '&', part);
    hasQuery = true;
    last = part.at(-1);
  }
  return pieces.join('') + fragment;
}

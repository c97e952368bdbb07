import { isJsonObject, Json, JsonNode } from './postman-json';
import { encodeFragment, encodePath, percentEncode } from 'postman-url-encoder/encoder';
import { QUERY_ENCODE_SET } from 'postman-url-encoder/encoder/encode-set';
import { encodedOutsideVariables, environmentPlaceholder, isEnvironmentReference, maskVariables, replaceVariables, variablesIn } from './variables';
import { leadingName } from '../quoted-list';
import { Warnings } from './warnings';

/** A URL cut where a parser cuts it, never inside a `{{variable}}`: `origin` (scheme and authority), `path`, `query` with its `?`, `fragment` with its `#`. */
export interface UrlPieces {
  origin: string;
  path: string;
  query: string;
  fragment: string;
}

/** A scheme as Postman's URL parser (postman-url-encoder) sees one: only before `://`, so `localhost:3000` is a host and port. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** An http(s) scheme written out. */
const HTTP_SCHEME = /^https?:\/\//i;
/** A path segment `:name` (Postman's path variable: the name ends at the first `.`, `:id.json`). */
const PATH_VARIABLE = /(^|\/):([^/.]+)/g;
/** How many times variables that stand for other variables are filled in before giving up (a variable may refer to itself). */
const MAX_NESTING = 10;

function indexFrom(text: string, characters: string, from: number): number {
  for (let at = from; at < text.length; at++) if (characters.includes(text[at])) return at;
  return text.length;
}

export function splitUrl(url: string): UrlPieces {
  const masked = maskVariables(url);
  const originEnd = indexFrom(masked, '/?#', SCHEME.exec(masked)?.[0].length ?? 0);
  const fragmentStart = indexFrom(masked, '#', originEnd);
  const queryStart = Math.min(indexFrom(masked, '?', originEnd), fragmentStart);
  return {
    origin: url.slice(0, originEnd),
    path: url.slice(originEnd, queryStart),
    query: url.slice(queryStart, fragmentStart),
    fragment: url.slice(fragmentStart),
  };
}

export const joinUrl = ({ origin, path, query, fragment }: UrlPieces) => origin + path + query + fragment;

/**
 * The URL as Postman's runtime sends it: it encodes every request's URL with postman-url-encoder, the path with its
 * path set (space, `"`, `#`, `<`, `>`, `?`, `` ` ``, `{`, `}`), the query with its query set (space, `"`, `#`, `'`,
 * `<`, `>`), the fragment with its fragment set (space, `"`, `<`, `>`, `` ` ``), control and non-ASCII characters as
 * UTF-8, a `%XX` already there kept. So
 * `$filter=importance eq 'high'` is sent as `$filter=importance%20eq%20%27high%27`. `{{variables}}` are left as
 * written: they are filled in when the connector runs.
 */
export function encodedAsPostmanSends(url: string): string {
  const pieces = splitUrl(url);
  const query = pieces.query === '' ? '' : `?${encodedOutsideVariables(pieces.query.slice(1), (text) => percentEncode(text, QUERY_ENCODE_SET))}`;
  const fragment = pieces.fragment === '' ? '' : `#${encodedOutsideVariables(pieces.fragment.slice(1), encodeFragment)}`;
  return joinUrl({ origin: pieces.origin, path: encodedOutsideVariables(pieces.path, encodePath), query, fragment });
}

/** What Postman encodes in a query parameter it writes out (postman-collection's QueryParam): `&` and `#`, and `=` in a key; never inside a `{{variable}}`. */
function encodeQueryPart(text: string, isKey: boolean): string {
  const masked = maskVariables(text);
  return text.replace(isKey ? /[&#=]/g : /[&#]/g, (character, at: number) => (masked[at] === character ? encodeURIComponent(character) : character));
}

/** `key=value` as Postman writes a query parameter: a key alone without `=` when it has no value. */
export function queryParameter(key: string | undefined, value: string | undefined): string {
  return encodeQueryPart(key ?? '', true) + (value === undefined ? '' : `=${encodeQueryPart(value, false)}`);
}

/** The enabled query parameters of a URL object as Postman sends them; the disabled ones are warned about. */
function queryOf(url: JsonNode, warnings: Warnings): string {
  const query = url.objects('query');
  const enabled = query.filter((parameter) => {
    if (!parameter.flag('disabled')) return true;
    warnings.add(
      'DISABLED_SKIPPED',
      url.where,
      `The disabled query parameter ${JSON.stringify(leadingName(parameter.string('key') ?? ''))} is not sent by Postman: left out.`,
    );
    return false;
  });
  if (enabled.length === 0) return '';
  return `?${enabled.map((parameter) => queryParameter(parameter.string('key'), parameter.text('value'))).join('&')}`;
}

function segmentText(segment: Json, url: JsonNode, index: number): string {
  if (typeof segment === 'string') return segment;
  // The v2.1 schema lets a segment be `{ type, value }`.
  return JsonNode.of(segment, url.where, `${url.pathOf('path')}[${index}]`).string('value') ?? '';
}

/** `host` as an array of labels or as one string. */
function hostOf(url: JsonNode): string {
  const host = url.member('host');
  if (typeof host === 'string' || host === undefined) return host ?? '';
  return (url.array('host') ?? [])
    .map((label, index) => {
      if (typeof label !== 'string') throw url.fail(`${url.pathOf('host')}[${index}] must be a string`);
      return label;
    })
    .join('.');
}

/** `path` as an array of segments or as one string, with its leading `/`. */
function pathOf(url: JsonNode): string {
  const path = url.member('path');
  if (path === undefined) return '';
  if (typeof path === 'string') return path.startsWith('/') ? path : `/${path}`;
  return `/${(url.array('path') ?? []).map((segment, index) => segmentText(segment, url, index)).join('/')}`;
}

/** A URL object's parts written out as Postman's SDK does (`Url#toString`): what Postman sends. */
export function urlFromParts(url: JsonNode, warnings: Warnings): string {
  const protocol = url.string('protocol')?.replace(/:(\/\/)?$/, '');
  const port = url.text('port');
  const hash = url.string('hash');
  return `${protocol ? `${protocol}://` : ''}${hostOf(url)}${port === undefined ? '' : `:${port}`}${pathOf(url)}${queryOf(url, warnings)}${hash === undefined ? '' : `#${hash}`}`;
}

/**
 * The request's URL in Postman's syntax, or undefined when it has none. A URL object with a `host` is read from its
 * parts, as Postman's runtime sends it (its `raw` is what the editor shows: a warning when the two differ); one
 * without, from `raw`.
 */
export function postmanUrl(request: JsonNode, warnings: Warnings): string | undefined {
  const member = request.member('url');
  if (typeof member === 'string') return member.trim();
  if (member === undefined) return undefined;
  if (!isJsonObject(member)) throw request.wrongType('url', 'a string or an object');
  const url = request.object('url')!;
  const raw = url.string('raw')?.trim();
  if (!url.has('host')) return raw;
  const fromParts = urlFromParts(url, warnings);
  if (raw !== undefined && raw !== fromParts) {
    // Neither URL is quoted: either may hold a key in its query.
    warnings.add(
      'URL_RAW_DIFFERS',
      url.where,
      "The URL's raw text differs from its parts (protocol, host, port, path, query): the parts are imported, as Postman sends them.",
    );
  }
  return fromParts;
}

/** Path variables (`/users/:id`) as connector variables (`/users/{{id}}`): the names, and the URL. */
export function pathVariablesAsPlaceholders(url: string): { url: string; names: string[] } {
  const pieces = splitUrl(url);
  const names: string[] = [];
  const path = pieces.path.replace(PATH_VARIABLE, (_match, slash: string, name: string) => {
    names.push(name);
    return `${slash}{{${name}}}`;
  });
  return { url: joinUrl({ ...pieces, path }), names };
}

/** The values the URL object gives its path variables (`url.variable`), by name. */
export function pathVariableValues(request: JsonNode): string[] {
  const url = typeof request.member('url') === 'object' ? request.object('url') : undefined;
  return (url?.objects('variable') ?? []).filter((variable) => (variable.text('value') ?? '') !== '').map((variable) => variable.string('key') ?? '');
}

export type Inlined = { url: string; inlined: string[]; environment: string[] } | { missing: string };

/** Where the host of an origin starts: after its scheme and its user info (both masked), if any. */
function hostStart(maskedOrigin: string): number {
  const afterScheme = SCHEME.exec(maskedOrigin)?.[0].length ?? 0;
  return maskedOrigin.lastIndexOf('@') >= afterScheme ? maskedOrigin.lastIndexOf('@') + 1 : afterScheme;
}

/**
 * The origin with each variable the collection does not define that stands in its scheme, host or port (not in its
 * user info) as the environment's `{{env.NAME}}` (environmentPlaceholder); the Postman names so replaced.
 */
function undefinedAsEnvironment(origin: string, declared: ReadonlySet<string>): { origin: string; names: string[] } {
  const masked = maskVariables(origin);
  const userInfoEnd = masked.lastIndexOf('@') >= 0 ? hostStart(masked) : 0;
  const names: string[] = [];
  const replaced = origin.replace(/\{\{([^{}]*?)\}\}/g, (whole, name: string, at: number) => {
    if (at < userInfoEnd || declared.has(name) || isEnvironmentReference(name)) return whole;
    names.push(name);
    return `{{${environmentPlaceholder(name)}}}`;
  });
  return { origin: replaced, names };
}

/**
 * The URL with the collection's values written into its scheme and authority (`{{baseUrl}}/users` with baseUrl
 * `https://api.example.com/v1`), over and over while a value holds variables itself. Done when `always` (a URL
 * that carries a secret may not hold a variable there: whoever fills it in would choose where the secret goes)
 * or when the scheme is not written out (a connector's URL must be an absolute http(s) URL). A variable the
 * collection does not define in the scheme, host or port comes from a Postman environment: it becomes the connector
 * variable of the environment the import writes into, `{{env.NAME}}` (`environment` names them as Postman does).
 * `declared`: the variables the collection declares, with or without a value (an export declares the connector's own
 * variables empty: they stay the caller's). `missing` names a declared variable the collection has no value for.
 */
export function inlineOrigin(
  url: string,
  values: ReadonlyMap<string, string>,
  always: boolean,
  declared: ReadonlySet<string> = new Set(values.keys()),
): Inlined {
  let current = url;
  const inlined: string[] = [];
  const environment: string[] = [];
  for (let round = 0; round < MAX_NESTING; round++) {
    const pieces = splitUrl(current);
    const fromEnvironment = undefinedAsEnvironment(pieces.origin, declared);
    environment.push(...fromEnvironment.names.filter((name) => !environment.includes(name)));
    const origin = fromEnvironment.origin;
    const names = variablesIn(origin).filter((name) => !isEnvironmentReference(name) || values.has(name));
    const startsWithEnvironment = /^\{\{[^{}]*\}\}/.test(origin) && isEnvironmentReference(variablesIn(origin)[0]) && !values.has(variablesIn(origin)[0]);
    const schemeWritten = HTTP_SCHEME.test(maskVariables(origin)) || startsWithEnvironment;
    if (names.length === 0 || (!always && schemeWritten)) return { url: origin + pieces.path + pieces.query + pieces.fragment, inlined, environment };
    const missing = names.find((name) => !values.has(name));
    if (missing !== undefined) return { missing };
    inlined.push(...names.filter((name) => !inlined.includes(name)));
    current = replaceVariables(origin, (name) => values.get(name) ?? `{{${name}}}`) + pieces.path + pieces.query + pieces.fragment;
  }
  return { missing: variablesIn(splitUrl(current).origin)[0] };
}

/** The URL with `http://` in front when it has no scheme, as Postman sends it; whether it was added. */
export function withScheme(url: string): { url: string; added: boolean } {
  return SCHEME.test(maskVariables(url)) ? { url, added: false } : { url: `http://${url}`, added: true };
}

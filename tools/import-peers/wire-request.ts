/**
 * A request as it goes on the wire, in a form two readers of the same source can be compared in: what our connector
 * draft would send and what a peer reader (openapi-to-postmanv2 + postman-collection, postman-collection, curlconverter)
 * makes of the same operation. Every normalization rule is here, and docs/import-peers.md lists them
 * (NORMALIZATION_RULES): nothing that changes what a server receives is normalized away.
 */
export interface WireRequest {
  method: string;
  url: WireUrl;
  /** Lower-case names, sorted; without Content-Type (mediaType), Authorization and the API key's header (auth). */
  headers: Array<[string, string]>;
  /** The Content-Type sent: its essence and parameters, lower case, without a multipart boundary; null when none. */
  mediaType: string | null;
  body: WireBody;
  auth: WireAuth;
}

export interface WireUrl {
  /** `scheme://host[:port]`, scheme and host lower case, the scheme's default port left out. */
  origin: string;
  /** Percent-escapes decoded, no trailing slash (an empty path is `/`). */
  path: string;
  /** Names and values decoded (`+` read as a space), in order; without the API key's parameter (auth). */
  query: Array<[string, string]>;
}

export type WireBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  /** A body made from the schema by both readers (no example in the document): its structure only. */
  | { kind: 'json-shape'; shape: unknown }
  | { kind: 'form'; fields: Array<[string, string]> }
  | { kind: 'multipart'; fields: Array<[string, string]> }
  | { kind: 'text'; text: string };

export type WireAuth =
  | { type: 'none' }
  | { type: 'basic'; user: string; password: string }
  | { type: 'bearer'; token: string }
  | { type: 'apikey'; in: 'header' | 'query'; name: string; value: string }
  | { type: 'oauth2'; grant: string; tokenUrl: string }
  | { type: 'other'; name: string };

/** What stands for a value the caller fills in at send time: a variable, a path parameter, a schema placeholder. */
export const SLOT = '{{}}';

/** The normalization rules, in words, as the report states them. */
export const NORMALIZATION_RULES: string[] = [
  "Placeholders: `{{name}}` (ours and Postman's), `:name` (a Postman path variable), `<type>` (a value openapi-to-postmanv2 makes up from a schema) and `$NAME` (a shell variable in a cURL credential) are all one slot, `{{}}`: the caller fills it at send time, so its name is not on the wire. A slot on one side matches any value on the other (the caller may send exactly that value).",
  'URL: scheme and host lower case, the default port left out, percent-escapes decoded in path and query, `+` in the query read as a space (both mean a space in a form-encoded query), a trailing `/` of the path ignored. The query is compared as an ordered list of name/value pairs.',
  "Headers: names compared case-insensitively (RFC 9110), sorted (headers of different names mean the same in any order). Content-Type is compared as the media type, Authorization and the API key's header as the auth. Headers no reader writes (User-Agent, Accept-Encoding, Host, Content-Length) are never added on either side.",
  "Media type: the Content-Type each side sends: ours by the test-run rules (the connector's own header when it fits its contentType, else the contentType's media type; none for GET, HEAD or contentType NONE); the peer's header, else the one its body mode implies (Postman: urlencoded, formdata, raw with its language). Compared in lower case, parameters kept, a multipart boundary left out.",
  "Body: JSON compared parsed (white space and key order are not on the wire's meaning); form bodies as ordered decoded pairs; others as text. A body both readers make up from a schema (the document has no example) is compared by its structure: the same keys at the same places, a list by its first item; an object of made-up keys (`key_0`, for `additionalProperties`) or an empty one (ours, for an object without properties) matches whatever the other side made up there.",
  "Auth: our authType and credentials against the peer's auth block or its Authorization header: Basic as user and password (our basicToken decoded), Bearer as the token, an API key as where, name and value, OAuth 2.0 as grant and token URL. A credential the source does not hold (OpenAPI) is a slot.",
];

/** `{{name}}` anywhere, as a slot. */
export function slotted(text: string): string {
  return text.replace(/\{\{[^{}]*\}\}/g, SLOT);
}

/** Whether two texts mean the same once slots may stand for anything: a slot matches any run of characters. */
export function sameText(left: string, right: string): boolean {
  if (left === right) return true;
  if (!left.includes(SLOT) && !right.includes(SLOT)) return false;
  const pattern = (text: string) => new RegExp(`^${text.split(SLOT).map(escapeRegExp).join('[\\s\\S]*')}$`);
  return (left.includes(SLOT) && pattern(left).test(right)) || (right.includes(SLOT) && pattern(right).test(left));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decoded(text: string, plusIsSpace: boolean): string {
  const spaced = plusIsSpace ? text.replace(/\+/g, ' ') : text;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** A URL split and normalized; `{{…}}` are slots already (callers slot first). Query pairs named in `leaveOut` are dropped. */
export function wireUrl(url: string, leaveOut?: string): WireUrl {
  const match = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/i.exec(url.trim());
  if (!match) return { origin: '', path: url, query: [] };
  const [, scheme, authority, path, query] = match;
  const protocol = scheme.toLowerCase();
  const hostPort = authority.replace(/^[^@]*@/, '');
  const [, host, port] = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPort) ?? [hostPort, hostPort, undefined];
  const keptPort = port && port !== DEFAULT_PORTS[protocol] ? `:${port}` : '';
  const query_ = (query ?? '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair): [string, string] => {
      const equals = pair.indexOf('=');
      return equals < 0 ? [decoded(pair, true), ''] : [decoded(pair.slice(0, equals), true), decoded(pair.slice(equals + 1), true)];
    })
    .filter(([name]) => name !== leaveOut);
  return {
    origin: `${protocol}//${host.toLowerCase()}${keptPort}`,
    path: decoded(path, false).replace(/\/+$/, '') || '/',
    query: query_,
  };
}

/** Lower-case names, sorted, without the headers compared elsewhere (Content-Type, Authorization, the API key's). */
export function wireHeaders(headers: Array<{ name: string; value: string }>, apiKeyHeader?: string): Array<[string, string]> {
  const apart = new Set(['content-type', 'authorization', ...(apiKeyHeader ? [apiKeyHeader.toLowerCase()] : [])]);
  return headers
    .map(({ name, value }): [string, string] => [name.toLowerCase(), slotted(value.trim())])
    .filter(([name]) => !apart.has(name))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
}

/** A Content-Type value as compared: lower case, no white space, no boundary. */
export function wireMediaType(value: string | undefined | null): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  return value
    .split(';')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && !part.startsWith('boundary='))
    .join(';');
}

/** A body read by the media type it is sent with: JSON parsed when it parses (its slots as slot strings), form as pairs, else text. */
export function wireBody(text: string | null, mediaType: string | null): WireBody {
  if (text === null || text === '') return { kind: 'none' };
  const essence = (mediaType ?? '').split(';')[0];
  const body = slotted(text);
  if (/^application\/([\w.-]+\+)?json$/.test(essence) || /json/.test(essence)) {
    try {
      return { kind: 'json', value: JSON.parse(body) as unknown };
    } catch {
      return { kind: 'text', text: body.trim() };
    }
  }
  if (essence === 'application/x-www-form-urlencoded') return { kind: 'form', fields: formFields(body) };
  return { kind: 'text', text: body.replace(/\r\n/g, '\n') };
}

export function formFields(body: string): Array<[string, string]> {
  return body
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair): [string, string] => {
      const equals = pair.indexOf('=');
      return equals < 0 ? [decoded(pair, true), ''] : [decoded(pair.slice(0, equals), true), decoded(pair.slice(equals + 1), true)];
    });
}

/** The structure of a JSON value: objects by their keys, arrays by the union of their items' structures, leaves as `·`. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(shapeOf);
    const objects = items.filter((item) => typeof item === 'object' && item !== null && !Array.isArray(item)) as Array<Record<string, unknown>>;
    if (objects.length === items.length && objects.length > 0) return [Object.assign({}, ...objects) as unknown];
    return items.length ? [items[0]] : [];
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
    );
  }
  return '·';
}

import { ImportSourceError, ImportWarning } from '../connector-draft';
import { JsonRecord, arrayOrEmpty, entriesOf, isRecord, recordOrEmpty, stringOrUndefined } from './values';
import { shownUrl, splitUserInfo } from './server-userinfo';
import { warning } from './warnings';

/**
 * Where a relative server URL starts: https and a host the caller sets as a variable at test time (or writes into
 * the URL). A connector URL must be absolute http(s), so `{{baseUrl}}/v1` alone would be refused.
 */
const RELATIVE_BASE = 'https://{{apiHost}}';

export interface ServerBase {
  /** The server URL without a trailing slash, its variables filled in: the operation's path follows it. */
  url: string;
  /** False when scheme, host or port hold a variable, which a connector with auth may not have. */
  hostIsFixed: boolean;
  /** `user:password` (percent-encoded) the server URL held before its host: never part of `url`. */
  userInfo?: string;
}

/** The first server of the innermost list: the operation's own, else its path's, else the document's. */
export function serverFor(document: JsonRecord, pathItem: JsonRecord, operation: JsonRecord, where: string, warnings: ImportWarning[]): ServerBase {
  const [servers, level] = innermostServers(document, pathItem, operation);
  if (servers.length > 1 && level !== 'document') warnings.push(otherServers(servers, where));
  const first = recordOrEmpty(servers[0]);
  const { url, userInfo } = splitUserInfo(fillVariables(stringOrUndefined(first.url) ?? '/', recordOrEmpty(first.variables)).trim());
  return { ...absoluteBase(url, where, warnings), ...(userInfo === undefined ? {} : { userInfo }) };
}

/** The document-level list is reported once, not for each operation that uses it. */
export function documentServerWarnings(document: JsonRecord): ImportWarning[] {
  const servers = arrayOrEmpty(document.servers);
  return servers.length > 1 ? [otherServers(servers, 'document')] : [];
}

function innermostServers(document: JsonRecord, pathItem: JsonRecord, operation: JsonRecord): [unknown[], string] {
  for (const [holder, level] of [
    [operation, 'operation'],
    [pathItem, 'path'],
  ] as const) {
    const servers = arrayOrEmpty(holder.servers);
    if (servers.length > 0) return [servers, level];
  }
  return [arrayOrEmpty(document.servers), 'document'];
}

function otherServers(servers: unknown[], where: string): ImportWarning {
  const urls = servers.slice(1, 6).map((server) => shownUrl(stringOrUndefined(recordOrEmpty(server).url) ?? '?').slice(0, 200));
  return warning('OTHER_SERVERS', where, `several servers are named: the connector uses the first; also named: ${urls.join(', ')}`);
}

/** `{name}` is the variable's default (OpenAPI requires one); without one it becomes the connector variable `{{name}}`. */
function fillVariables(url: string, variables: JsonRecord): string {
  const defaults = new Map(entriesOf(variables).map(([name, variable]) => [name, defaultOf(variable)]));
  return url.replace(/\{([^{}]+)\}/g, (whole, name: string, offset: number) => {
    // `{{name}}` is already a connector variable (an exported connector's server holds them as defaults).
    if (url[offset - 1] === '{' || url[offset + whole.length] === '}') return whole;
    return defaults.get(name) ?? `{{${name}}}`;
  });
}

function defaultOf(variable: unknown): string | undefined {
  if (!isRecord(variable)) return undefined;
  if (typeof variable.default === 'string') return variable.default;
  const [first] = arrayOrEmpty(variable.enum);
  return typeof first === 'string' ? first : undefined;
}

function absoluteBase(url: string, where: string, warnings: ImportWarning[]): ServerBase {
  const trimmed = url.trim().replace(/\/+$/, '');
  if (trimmed.startsWith('//')) {
    warnings.push(warning('SERVER_SCHEME_ASSUMED', where, `the server URL ${shownUrl(url)} names no scheme: https is assumed`));
    return absoluteBase(`https:${trimmed}`, where, warnings);
  }
  const authority = /^https?:\/\/([^/?#]*)/i.exec(trimmed);
  if (authority) return { url: trimmed, hostIsFixed: !authority[1].includes('{{') };
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) {
    throw new ImportSourceError(where, `has the server URL ${shownUrl(url).slice(0, 200)}, which is not http or https: a connector calls http(s) URLs only`);
  }
  const path = trimmed.replace(/^\/+/, '');
  warnings.push(
    warning(
      'RELATIVE_SERVER_URL',
      where,
      `the server URL ${url === '' ? '(none)' : shownUrl(url).slice(0, 200)} is relative: the URL starts with ${RELATIVE_BASE} (set the variable when testing, or write the host into the URL)`,
    ),
  );
  return { url: path ? `${RELATIVE_BASE}/${path}` : RELATIVE_BASE, hostIsFixed: false };
}

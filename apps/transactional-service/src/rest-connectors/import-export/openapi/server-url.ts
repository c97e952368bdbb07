import { ImportSourceError, ImportWarning } from '../connector-draft';
import { envVariableName } from '../postman/variables';
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

/** A server's base both ways: its variables as the environment's, and written in with their defaults. */
export interface Server extends ServerBase {
  /** `url` with each declared variable as the environment's `{{env.NAME}}` (but a port's, written in). */
  inEnvironment: string;
  /** The environment's variables `inEnvironment` holds, each with its default when it has one. */
  environment: Array<{ name: string; value?: string }>;
}

/** The first server of the innermost list: the operation's own, else its path's, else the document's. */
export function serverFor(document: JsonRecord, pathItem: JsonRecord, operation: JsonRecord, where: string, warnings: ImportWarning[]): Server {
  const [servers, level] = innermostServers(document, pathItem, operation);
  if (servers.length > 1 && level !== 'document') warnings.push(otherServers(servers, where));
  const first = recordOrEmpty(servers[0]);
  const written = stringOrUndefined(first.url) ?? '/';
  const variables = recordOrEmpty(first.variables);
  const { url, userInfo } = splitUserInfo(fillVariables(written, variables).trim());
  const base = { ...absoluteBase(url, where, warnings), ...(userInfo === undefined ? {} : { userInfo }) };
  const environment: Server['environment'] = [];
  const inEnvironment = splitUserInfo(asEnvironment(written, variables, environment).trim()).url;
  // The same warnings again would be noise: the environment's form is the same URL, its variables named.
  return { ...base, inEnvironment: absoluteBase(inEnvironment, where, []).url, environment };
}

/**
 * The server URL with each variable its `variables` declare as the environment's `{{env.NAME}}` (NAME the variable's
 * name, made to fit ENV_VARIABLE_NAME), listed in `environment` with its default: a server's variables (a region, a
 * base path) are what differs between the stages a connector runs in. A port's is written in with its default (a
 * connector's URL holds no variable in its port), as is a variable the list does not declare (fillVariables).
 */
function asEnvironment(url: string, variables: JsonRecord, environment: Server['environment']): string {
  const declared = new Map(entriesOf(variables).map(([name, variable]) => [name, defaultOf(variable)]));
  const withEnvironment = url.replace(/\{([^{}]+)\}/g, (whole, name: string, offset: number) => {
    const fallback = declared.get(name);
    // A default that is a connector variable is an export's (`{{tenant}}`, `{{env.region}}`): filled back as it is.
    const exported = fallback !== undefined && /^\{\{[^{}]+\}\}$/.test(fallback);
    if (url[offset - 1] === '{' || url[offset + whole.length] === '}' || !declared.has(name) || url[offset - 1] === ':' || exported) return whole;
    const envName = envVariableName(name);
    if (!environment.some((known) => known.name === envName))
      environment.push({ name: envName, ...(declared.get(name) !== undefined && { value: declared.get(name) }) });
    return `{{env.${envName}}}`;
  });
  return fillVariables(withEnvironment, variables);
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
  // An export of a connector whose URL starts with the environment's variable (`{{env.BASE_URL}}/orders`).
  if (/^\{\{\s*env\.[^{}]+\}\}(?=[/?#]|$)/.test(trimmed)) return { url: trimmed, hostIsFixed: false };
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

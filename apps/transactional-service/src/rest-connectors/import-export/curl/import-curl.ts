import {
  AuthType,
  ContentType,
  HTTP_TOKEN,
  IMPORT_LIMITS,
  LIMITS,
  multipartBody,
  PLACEHOLDER,
  readMultipartParts,
  RequestType,
  TEMPLATE,
  textProblem,
} from '@app/domain';
import { ConnectorDraft, ImportDraft, Importer, ImportOptions, ImportSourceError } from '../connector-draft';
import { tagsLeftOut } from '../connector-extras';
import { ImportWarnings } from '../import-warnings';
import { leadingName, quotedList } from '../quoted-list';
import { CurlArguments, readCurlArguments } from './curl-arguments';
import { credentialOf, isApiKeyQueryParameter, readAuth } from './curl-auth';
import { ConnectorComment, readConnectorComment } from './connector-comment';
import { CurlCommand, curlCommands } from './curl-commands';
import { CurlPayload, readPayload } from './curl-payload';
import { CurlSettings, readSettings, WrittenHeader } from './curl-settings';
import { resolveUrl, withQuery, withUploadName } from './curl-url';
import { matchMediaType } from './media-type';
import { readFileComments } from './form-options';
import { OAuth2Settings, readOAuth2Comment } from './oauth2-comment';
import { ShellWord, tokenizeShell } from './shell-words';

/**
 * cURL commands to connector drafts: one connector per URL of each `curl` line (a source may hold several lines;
 * `--next` starts a group of its own). `where` is `line N`, the physical line `curl` stands on (`line N, URL 2` where
 * a command has several URLs); `select` picks by it (`line N` takes every URL of the command on line N). Problems
 * name the line of the word they are about.
 *
 * Warning codes (stable; each says where and what to do):
 * - IGNORED_OPTION: an option with no connector setting (-s, -v, -i, -L, -k, --compressed, -o, timeouts, proxies, TLS…).
 * - UNKNOWN_OPTION: not a curl option (or an ambiguous abbreviation): read as a switch without argument.
 * - FILE_NOT_READ: `@file`, `@-`, `-F x=@file`, `-T file`, `-H @file`, `-b file`, `-K file`: an import reads no file.
 * - PIPE_IGNORED: `| program` after the command. REDIRECT_IGNORED: `> file`, `< file`, `2>&1`.
 * - SCHEME_ASSUMED: a URL without scheme, read as http:// as curl does.
 * - URL_GLOB_LITERAL: braces or brackets curl would refuse as a glob, taken literally.
 * - METHOD_CASE: `-X post` sent as POST. BODY_NOT_SENT: data with GET or HEAD, which the connector does not send.
 * - CONTENT_TYPE_CHANGED: a multipart type other than form-data (sent as text/plain), or parameters that cannot be read (dropped).
 * - HEADER_SKIPPED: `-H 'X:'`, a header without colon, or a Content-Type a later one replaces.
 * - FORM_PARAMETER_SKIPPED: a -F parameter other than `type=` and `filename=` (`headers=`, `encoder=`, unknown ones).
 * - AUTH_CONFLICT: a second credential source, left out. AUTHORIZATION_AS_API_KEY: `Authorization: <other scheme>`.
 * - UNSUPPORTED_AUTH_SCHEME: --digest, --ntlm, --negotiate, --anyauth, --aws-sigv4…
 * - HEADER_MAY_HOLD_CREDENTIAL: a Cookie (-b, -H) or Proxy-Authorization header, kept in clear as a plain header.
 * - TAGS_LEFT_OUT: tags of a `# connector:` line a connector cannot take (over 20, empty, longer than 50, several lines).
 * - WARNINGS_CUT: the warnings past the 500th (each said once), counted, not listed.
 *
 * A `# connector:` comment line right above a command (an export's, connector-comment.ts) gives the connector its
 * name, description, output and tags, and the connector variable each shell variable stands for.
 */
export const importCurl: Importer = (source, options) => Promise.resolve().then(() => importSync(source, options));

const METHODS = new Set<string>(Object.values(RequestType));
/** What textProblem refuses in any text: NUL, and a UTF-16 surrogate without its pair. */
const UNTAKEABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** The command line a selector names: `line 4` and `line 4, URL 2` both name the command on line 4. */
const SELECTOR_LINE = /^line (\d+)(?:,|$)/;
/** The service's limit on the connectors of one import. */
const MAX_CONNECTORS = IMPORT_LIMITS.connectors;

function importSync(source: unknown, options: ImportOptions | undefined): ImportDraft {
  if (typeof source !== 'string') throw new ImportSourceError('as a whole', 'must be the text of a curl command');
  const problem = textProblem(source);
  if (problem !== undefined) throw new ImportSourceError(`line ${lineOf(source, UNTAKEABLE.exec(source)?.index ?? 0)}`, `the text ${problem}`);
  const select = selection(options?.select);
  const warnings = new ImportWarnings('as a whole');
  const commands = curlCommands(tokenizeShell(source), warnings);
  if (commands.length === 0) throw new ImportSourceError('line 1', 'no curl command: paste a command that starts with curl');
  // Only the selected commands are read further, and never more than an import may create: a 1 MiB source of short
  // commands (or one command of 47,000 URLs) must not cost a draft for each before the limit is checked.
  const lines = select === undefined ? undefined : new Set(select.map((selector) => SELECTOR_LINE.exec(selector)?.[1]));
  const chosen = lines === undefined ? commands : commands.filter(({ line }) => lines.has(String(line)));
  if (chosen.length > MAX_CONNECTORS) throw tooMany(chosen.length);
  const requests = chosen.flatMap((command) => requestsOf(command, warnings));
  const selected = select === undefined ? requests : selectedOf(requests, select, commands);
  if (selected.length > MAX_CONNECTORS) throw tooMany(selected.length);
  return { connectors: draftsOf(selected, warnings), warnings: warnings.all() };
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function selection(select: unknown): string[] | undefined {
  if (select === undefined) return undefined;
  if (!Array.isArray(select) || !select.every((item) => typeof item === 'string')) throw new ImportSourceError('select', 'must be a list of `line N` values');
  return select;
}

/**
 * The requests the selectors take: `line 4` every URL of the command on line 4, `line 4, URL 2` its second. A selector
 * that takes none is refused, as the other formats refuse it, with how a cURL source is selected.
 */
function selectedOf(requests: PlannedRequest[], select: string[], commands: CurlCommand[]): PlannedRequest[] {
  const wanted = new Set(select);
  const matched = new Set<string>();
  const selected = requests.filter(({ where, command }) => {
    const by = [where, command].filter((selector) => wanted.has(selector));
    by.forEach((selector) => matched.add(selector));
    return by.length > 0;
  });
  const unmatched = [...wanted].filter((selector) => !matched.has(selector));
  if (unmatched.length === 0 && selected.length > 0) return selected;
  const lines = commands.slice(0, 20).map(({ line }) => `line ${line}`);
  throw new ImportSourceError(
    unmatched.length > 0 ? `select ${quotedList(unmatched)}` : 'select',
    `matches no command: a cURL import selects commands by the line they start on, as \`line N\` (\`line N, URL 2\` for one URL of a command); ` +
      `the commands are at ${lines.join(', ')}${commands.length > 20 ? ', …' : ''}`,
  );
}

function tooMany(count: number): ImportSourceError {
  return new ImportSourceError(
    'as a whole',
    `holds ${count} requests (one per URL of each command): an import creates at most ${MAX_CONNECTORS} connectors; ` +
      `split the source into several imports, or pick at most ${MAX_CONNECTORS} with select (\`line N\`, or \`line N, URL 2\` for one URL of a command)`,
  );
}

/** One request a command sends (curl sends one per URL), known before a connector is drafted of it. */
interface PlannedRequest {
  url: ShellWord;
  /** The URL's place in its group: curl pairs the n-th -T file with the n-th URL. */
  index: number;
  group: CurlArguments;
  oauth2: OAuth2Settings | undefined;
  exported: ConnectorComment | undefined;
  /** The bytes of the files the command's `# connector-file:` lines give, by path (form-options.ts). */
  files: ReadonlyMap<string, string>;
  /** `line 4`: the command's place, which selects all its requests. */
  command: string;
  where: string;
}

/** The requests of a command, told apart by their place in it when it has several (`line 4, URL 2`). */
function requestsOf(command: CurlCommand, warnings: ImportWarnings): PlannedRequest[] {
  const oauth2 = readOAuth2Comment(command.comments, credentialOf);
  const exported = readConnectorComment(command.comments);
  const files = readFileComments(command.comments);
  const groups = readCurlArguments(command.arguments, warnings);
  const requests = groups.flatMap((group) => {
    if (group.urls.length === 0) throw new ImportSourceError(`line ${command.line}`, 'the command has no URL: give it after curl (or with --url)');
    return group.urls.map((url, index) => ({ url, index, group, oauth2, exported, files }));
  });
  const at = `line ${command.line}`;
  return requests.map((request, index) => ({ ...request, command: at, where: requests.length === 1 ? at : `${at}, URL ${index + 1}` }));
}

/** A draft for each request; the options of a group are read once, for all its URLs. */
function draftsOf(requests: PlannedRequest[], warnings: ImportWarnings): ConnectorDraft[] {
  const read = new Map<CurlArguments, { settings: CurlSettings; payload: CurlPayload }>();
  return requests.map(({ url, index, group, oauth2, exported, files, where }) => {
    let options = read.get(group);
    if (options === undefined) {
      const settings = readSettings(group.options, warnings);
      options = { settings, payload: readPayload(settings.payload, warnings, files) };
      read.set(group, options);
    }
    const { settings, payload } = options;
    const draft = { ...draftOf(url, settings, payload, payload.uploads[index], oauth2, warnings, exported?.variables), where };
    return exported === undefined ? draft : asExported(draft, exported, warnings);
  });
}

/** A draft as the `# connector:` line above its command says: its name, description, output, tags and variables' names. */
function asExported(draft: ConnectorDraft, exported: ConnectorComment, warnings: ImportWarnings): ConnectorDraft {
  const named = (text: string) =>
    text.replace(TEMPLATE, (match, escaped: string | undefined, name: string) =>
      escaped !== undefined ? match : `{{${exported.variables.get(name) ?? name}}}`,
    );
  if (exported.tagsLeft > 0) warnings.push({ code: 'TAGS_LEFT_OUT', where: `line ${exported.line}`, message: tagsLeftOut(exported.tagsLeft) });
  return {
    ...draft,
    name: exported.name ?? draft.name,
    description: exported.description ?? draft.description,
    url: named(draft.url),
    // A secret header's value is never a template: it stays as read (empty, its variable named).
    headers: draft.headers.map((header) => (header.secret === true ? header : { ...header, value: named(header.value) })),
    body: named(draft.body),
    oauthUrl: draft.oauthUrl === null ? null : named(draft.oauthUrl),
    output: exported.output ?? draft.output,
    tags: exported.tags,
    credentials: draft.credentials.map((credential) =>
      credential.variable === undefined ? credential : { ...credential, variable: exported.variables.get(credential.variable) ?? credential.variable },
    ),
  };
}

/** One URL's connector; `upload` is the -T file paired with it, if any. */
function draftOf(
  word: ShellWord,
  settings: CurlSettings,
  payload: CurlPayload,
  upload: string | undefined,
  oauth2: OAuth2Settings | undefined,
  warnings: ImportWarnings,
  exportedVariables?: ReadonlyMap<string, string>,
): ConnectorDraft {
  const where = `line ${word.line}`;
  const resolved = resolveUrl(word, settings.globoff, settings.protoDefault, warnings, exportedVariables);
  if (upload !== undefined) resolved.url = withUploadName(resolved.url, upload);
  // -G sends the data in the query, as --url-query does: neither is a body.
  const queryParts = [...payload.urlQuery, ...(settings.get && payload.data !== null ? [payload.data] : [])];
  refuseLongQuery(where, resolved.url, queryParts);
  const url = withQuery(resolved.url, queryParts);
  const body = settings.get ? '' : (payload.data ?? multipartBody(payload.multipart ?? []));
  const requestType = methodOf(settings, payload, upload !== undefined, warnings);
  const { contentType, headers } = contentTypeOf(settings, payload, warnings);
  const auth = readAuth(settings, headers, { ...resolved, url }, word.line, oauth2, warnings);
  if (body !== '' && (requestType === RequestType.GET || requestType === RequestType.HEAD)) {
    warnings.push({
      code: 'BODY_NOT_SENT',
      where,
      message: `curl sends the data with ${requestType}; the connector keeps the body but sends none with ${requestType}.`,
    });
  }
  checkDraft(where, auth.url, auth.authType, auth.headers, body, payload.multipart !== null && payload.data === null);
  return {
    ...nameOf(requestType, auth.url),
    requestType,
    url: auth.url,
    headers: auth.headers.map(({ header, value, secret, variable, where: at }) =>
      secret === true ? { header, value, secret, ...(variable !== undefined && { variable }), where: at } : { header, value },
    ),
    contentType,
    authType: auth.authType,
    grantType: auth.grantType,
    oauthUrl: auth.oauthUrl,
    apiKeyName: auth.apiKeyName,
    apiKeyIn: auth.apiKeyIn,
    body,
    output: '',
    tags: [],
    credentials: auth.credentials,
    where,
  };
}

/**
 * Checked before the query is built and read for API keys: the parameters the connector's URL would keep (its API
 * keys go to the auth settings) tell alone that it would be too long. 75,000 `--url-query a` options are refused here,
 * not after a URL of 150,000 characters has been built and split again.
 */
function refuseLongQuery(where: string, url: string, parts: string[]): void {
  // The URL's own query is not counted: an API key in it leaves the URL too. Each kept parameter comes with a `?` or `&`.
  let length = url.search(/[?#]|$/);
  for (const part of parts) {
    for (const parameter of part.split('&')) {
      if (parameter !== '' && !isApiKeyQueryParameter(parameter)) length += parameter.length + 1;
    }
    if (length > LIMITS.url) {
      throw new ImportSourceError(
        where,
        `the URL with the query its --url-query options (or -G data) add is longer than ${LIMITS.url} characters: send fewer or shorter ones`,
      );
    }
  }
}

/** -X wins (curl sends it as written: `-X post` is upper-cased, METHOD_CASE); else HEAD with -I, PUT with -T, POST with data or a form, else GET. */
function methodOf(settings: CurlSettings, payload: CurlPayload, upload: boolean, warnings: ImportWarnings): RequestType {
  const { method } = settings;
  if (method) {
    const written = method.value ?? '';
    const upper = written.toUpperCase();
    if (!METHODS.has(upper)) {
      throw new ImportSourceError(
        `line ${method.line}, ${method.written}`,
        `${written.slice(0, 20)} is not a method a connector sends: ${[...METHODS].join(', ')}`,
      );
    }
    if (upper !== written) {
      warnings.push({
        code: 'METHOD_CASE',
        where: `line ${method.line}, ${method.written}`,
        message: `curl sends ${written.slice(0, 20)} as written; the connector sends ${upper}.`,
      });
    }
    return upper as RequestType;
  }
  if (settings.head) return RequestType.HEAD;
  if (upload) return RequestType.PUT;
  return !settings.get && (payload.data !== null || payload.multipart !== null) ? RequestType.POST : RequestType.GET;
}

/**
 * The last Content-Type header decides, by media type (matchMediaType); without one, what curl sends by itself:
 * form-urlencoded for -d, JSON for --json, multipart for -F, none with -G. The header is kept, last, and sent as
 * written unless it is the content type's own media type or multipart's (the platform writes it, with the boundary). --json also sends `Accept: application/json` unless an Accept is given.
 */
function contentTypeOf(settings: CurlSettings, payload: CurlPayload, warnings: ImportWarnings): { contentType: ContentType; headers: WrittenHeader[] } {
  const isContentType = ({ header }: WrittenHeader) => /^content-type$/i.test(header);
  const declared = settings.headers.filter(isContentType);
  const headers = settings.headers.filter((header) => !isContentType(header));
  const json = settings.payload.find(({ name }) => name === 'json');
  if (json && !headers.some(({ header }) => /^accept$/i.test(header))) headers.push({ header: 'Accept', value: 'application/json', line: json.line });
  for (const earlier of declared.slice(0, -1)) {
    warnings.push({ code: 'HEADER_SKIPPED', where: `line ${earlier.line}, -H Content-Type`, message: 'A later Content-Type header replaces this one.' });
  }
  const last = declared.at(-1);
  if (last) {
    const { contentType, header, mismatch } = matchMediaType(last.value);
    if (mismatch)
      warnings.push({
        code: 'CONTENT_TYPE_CHANGED',
        where: `line ${last.line}, -H Content-Type`,
        message: `Content-Type ${last.value.slice(0, 80)}: ${mismatch}.`,
      });
    return { contentType, headers: header === undefined ? headers : [...headers, { ...last, value: header }] };
  }
  if (payload.json) return { contentType: ContentType.APPLICATION_JSON, headers };
  if (settings.get) return { contentType: ContentType.NONE, headers };
  if (payload.data !== null) return { contentType: ContentType.APPLICATION_FORM_URLENCODED, headers };
  return { contentType: payload.multipart !== null ? ContentType.MULTIPART_FORM_DATA : ContentType.NONE, headers };
}

/** What the service's write rules would refuse, refused here with the line it comes from. */
function checkDraft(where: string, url: string, authType: AuthType, headers: WrittenHeader[], body: string, multipart: boolean): void {
  if (url.length > LIMITS.url) throw new ImportSourceError(where, `the URL with its query is longer than ${LIMITS.url} characters`);
  if (authType !== AuthType.AUTH_NONE && (/^[a-z]+:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '').search(PLACEHOLDER) !== -1) {
    throw new ImportSourceError(
      where,
      `the URL has a variable in its host while the credentials go to it (${authType}): write the host out in full; variables may stand in the path and query`,
    );
  }
  if (headers.length > LIMITS.headers) throw new ImportSourceError(where, `more than ${LIMITS.headers} headers`);
  for (const { header, value, line } of headers) {
    const at = `line ${line}, -H ${leadingName(header)}`;
    if (!HTTP_TOKEN.test(header) || header.length > LIMITS.headerName)
      throw new ImportSourceError(at, `"${leadingName(header)}" is not an HTTP header name (RFC 9110 token, at most ${LIMITS.headerName} characters)`);
    const problem = textProblem(value, true);
    if (problem !== undefined) throw new ImportSourceError(at, `the value ${problem}`);
    if (Buffer.byteLength(value) > LIMITS.headerValueBytes) throw new ImportSourceError(at, `the value is longer than ${LIMITS.headerValueBytes} bytes`);
  }
  if (Buffer.byteLength(body) > LIMITS.payloadBytes) throw new ImportSourceError(where, `the body is longer than ${LIMITS.payloadBytes} bytes`);
  if (multipart) {
    const reading = readMultipartParts(body);
    if ('problems' in reading) throw new ImportSourceError(where, `the form's parts cannot be kept: ${reading.problems[0]}`);
  }
}

/** `POST api.example.com/v1/users`; a longer one is cut to 100 characters and the description holds the whole URL. */
function nameOf(method: RequestType, url: string): { name: string; description: string | null } {
  const name = `${method} ${url.replace(/^https?:\/\//i, '').replace(/[?#].*$/s, '')}`;
  if (name.length <= LIMITS.name) return { name, description: null };
  let cut = '';
  // Cut by whole characters, so that no half of a surrogate pair is left.
  for (const character of name) {
    if (cut.length + character.length > LIMITS.name - 1) break;
    cut += character;
  }
  return { name: `${cut}…`, description: url.length <= LIMITS.description ? url : null };
}

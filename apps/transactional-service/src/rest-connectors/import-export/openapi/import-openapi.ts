import { ApiKeyIn, AuthType } from '@app/domain';
import { AuthSettings, ConnectorDraft, DraftHeader, ImportDraft, ImportSourceError, ImportWarning, Importer, NO_AUTH } from '../connector-draft';
import { outputFrom } from '../connector-extras';
import { connectorTags } from '../draft-tags';
import { documentNotes } from './document-notes';
import { loadDocument } from './load-document';
import { namingOf } from './naming';
import { OperationSource, checkOperationCount, listOperations, selectOperations } from './operations';
import { ApiKeyPlace, parametersOf } from './parameters';
import { bodyOf } from './request-body';
import { authOf } from './security';
import { documentServerWarnings, Server, serverFor } from './server-url';
import { shownUrl, userInfoAuth } from './server-userinfo';
import { asOpenApi3 } from './swagger2';
import { parseSource } from './parse-source';
import { selectedPart } from './selected-part';
import { JsonRecord, entriesOf } from './values';
import { warning } from './warnings';

const MAX_URL = 2048;
const MAX_HEADERS = 50;

/**
 * OpenAPI 3.0, 3.1 or Swagger 2.0 (JSON or YAML) to one connector per selected operation. The document is parsed,
 * validated and dereferenced by @readme/openapi-parser with external resolution off (load-document.ts): nothing is
 * ever fetched. Warning codes: warnings.ts.
 */
export const importOpenApi: Importer = async (source, options) => {
  const parsed = parseSource(source);
  checkOperationCount(parsed, options?.select);
  // Only what the selection uses is validated and dereferenced: the rest of a large document is never expanded.
  const loaded = await loadDocument(selectedPart(parsed, options?.select));
  const warnings = [...loaded.warnings];
  const document = asOpenApi3(loaded.document, warnings);
  warnings.push(...documentServerWarnings(document), ...documentNotes(document));
  const connectors: ConnectorDraft[] = [];
  const environmentDefaults: EnvironmentDefaults = [];
  for (const operation of selectOperations(listOperations(document), options?.select)) {
    const draft = draftOf(document, operation, warnings, environmentDefaults);
    if (draft) connectors.push(draft);
  }
  return { connectors, warnings: mergedWarnings(warnings), ...(environmentDefaults.length > 0 && { environmentDefaults }) };
};

type EnvironmentDefaults = NonNullable<ImportDraft['environmentDefaults']>;

/**
 * The server URL an operation's connector starts with: its variables as the environment's (`{{env.region}}`, their
 * defaults offered to fill the environment) when the call carries no secret; with a secret, written in with their
 * defaults (a secret's destination is written out until the write rules resolve the environment's variables there).
 */
function baseUrlOf(server: Server, carriesSecret: boolean, where: string, warnings: ImportWarning[], defaults: EnvironmentDefaults): string {
  if (server.environment.length === 0) return server.url;
  if (carriesSecret) {
    warnings.push(
      warning(
        'SERVER_VARIABLES_WRITTEN_IN',
        where,
        `a secret goes to the server, so its variables (${server.environment.map(({ name }) => name).join(', ')}) are written in with their defaults, not taken from the environment`,
      ),
    );
    return server.url;
  }
  for (const { name, value } of server.environment) {
    if (value !== undefined && !defaults.some((known) => known.name === name)) defaults.push({ name, value, where });
  }
  return server.inEnvironment;
}

function draftOf(document: JsonRecord, source: OperationSource, warnings: ImportWarning[], defaults: EnvironmentDefaults): ConnectorDraft | undefined {
  const { method, path, pathItem, operation, where } = source;
  if (method === 'trace') {
    warnings.push(warning('UNSUPPORTED_METHOD', where, 'a connector cannot send TRACE: the operation is left out'));
    return undefined;
  }
  const server = serverFor(document, pathItem, operation, where, warnings);
  const security = authOf(document, operation, server, where, warnings);
  let auth = userInfoAuth(server.userInfo, security.auth, where, warnings);
  let { secretHeaders } = security;
  if ((auth.authType !== AuthType.AUTH_NONE || secretHeaders.length > 0) && !server.hostIsFixed) {
    warnings.push(
      warning(
        'AUTH_NEEDS_ABSOLUTE_SERVER',
        where,
        `the host is the variable in ${shownUrl(server.url)}: a connector with auth needs it written out, so the auth settings are left out`,
      ),
    );
    auth = NO_AUTH;
    secretHeaders = [];
  }
  const parameters = parametersOf(path, pathItem, operation, apiKeyPlace(auth), where, warnings);
  const url = `${baseUrlOf(server, auth.authType !== AuthType.AUTH_NONE || secretHeaders.length > 0, where, warnings, defaults)}${parameters.pathAndQuery}`;
  if (url.length > MAX_URL) throw new ImportSourceError(where, `makes a URL of ${url.length} characters, over the ${MAX_URL} a connector holds`);
  if (entriesOf(operation.callbacks).length)
    warnings.push(warning('CALLBACKS_NOT_IMPORTED', where, 'the callbacks are calls the API makes, not connectors: left out'));
  const { authType, grantType, oauthUrl, apiKeyName, apiKeyIn, credentials } = auth;
  const tags = connectorTags(Array.isArray(operation.tags) ? operation.tags : []);
  tags.warnings.forEach(({ code, message }) => warnings.push(warning(code, where, message)));
  return {
    ...namingOf(method.toUpperCase(), path, operation, where, warnings),
    requestType: method.toUpperCase() as ConnectorDraft['requestType'],
    url,
    // A header parameter a secret header sends is that secret header.
    ...bodyAndHeaders(
      operation,
      [...parameters.headers.filter(({ header }) => !secretHeaders.some((secret) => secret.header.toLowerCase() === header.toLowerCase())), ...secretHeaders],
      where,
      warnings,
    ),
    authType,
    grantType,
    oauthUrl,
    apiKeyName,
    apiKeyIn,
    // An export's `x-connector-output`: the connector's output, which OpenAPI has no field for.
    output: outputFrom(operation['x-connector-output']) ?? '',
    tags: tags.tags,
    credentials,
    where,
  };
}

/** The body, and the headers with the declared media type's Content-Type last. */
function bodyAndHeaders(
  operation: JsonRecord,
  headers: Array<{ header: string; value: string }>,
  where: string,
  warnings: ImportWarning[],
): Pick<ConnectorDraft, 'headers' | 'contentType' | 'body'> {
  const { contentTypeHeader, ...body } = bodyOf(operation, where, warnings);
  return { headers: cappedHeaders(contentTypeHeader ? [...headers, contentTypeHeader] : headers, where, warnings), ...body };
}

function apiKeyPlace(auth: AuthSettings): ApiKeyPlace | undefined {
  if (auth.authType !== AuthType.AUTH_API_KEY || auth.apiKeyName === null) return undefined;
  return { in: auth.apiKeyIn === ApiKeyIn.QUERY ? 'query' : 'header', name: auth.apiKeyName };
}

function cappedHeaders(headers: DraftHeader[], where: string, warnings: ImportWarning[]): DraftHeader[] {
  if (headers.length <= MAX_HEADERS) return headers;
  const left = headers.slice(MAX_HEADERS).map((header) => header.header);
  warnings.push(warning('TOO_MANY_HEADERS', where, `a connector holds ${MAX_HEADERS} headers: left out ${left.slice(0, 10).join(', ')}`));
  return headers.slice(0, MAX_HEADERS);
}

/** The same finding for many operations (a relative server, scopes of one scheme) is one warning naming the first. */
function mergedWarnings(warnings: ImportWarning[]): ImportWarning[] {
  const byFinding = new Map<string, { first: ImportWarning; more: number }>();
  for (const found of warnings) {
    const key = `${found.code}\n${found.message}`;
    const seen = byFinding.get(key);
    if (seen) seen.more += 1;
    else byFinding.set(key, { first: found, more: 0 });
  }
  return [...byFinding.values()].map(({ first, more }) => (more ? { ...first, message: `${first.message} (and ${more} other operation(s))` } : first));
}

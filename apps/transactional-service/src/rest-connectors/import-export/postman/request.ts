import { isHttpUrlWithPlaceholders, LIMITS, PLACEHOLDER, RequestType, textProblem, VARIABLE_NAME } from '@app/domain';
import { ConnectorDraft, CredentialDraft } from '../connector-draft';
import { AuthSettings } from '../connector-draft';
import { authSettingsOf, DeclaredAuth, declaredAuth } from './auth';
import { BodyDraft, bodyOf } from './body';
import { enabledHeaders, Header, keepHeader, sortHeaders } from './headers';
import { located, locatedRequest } from './location';
import { JsonNode } from './postman-json';
import { connectorDescription, connectorName } from './texts';
import { encodedAsPostmanSends, pathVariablesAsPlaceholders, pathVariableValues, postmanUrl } from './url';
import { queryAuth } from './url-auth';
import { connectorVariableName, replaceVariables } from './variables';
import { Warnings } from './warnings';

/** What a request item is read with: the item, the auth its folders and collection hand down, the collection's variables. */
export interface ItemContext {
  item: JsonNode;
  inheritedAuth: DeclaredAuth | undefined;
  variables: ReadonlyMap<string, string>;
  /** Every name the collection's `variable` list declares, with a value or empty. */
  declared: ReadonlySet<string>;
  warnings: Warnings;
  /** The Postman names of the variables the imported connectors hold (filled in by each item). */
  used: Set<string>;
}

/** A request that cannot become a connector: caught by connectorOf, which warns and leaves the item out. */
class ItemLeftOut {
  constructor(readonly reason: string) {}
}

const METHODS: ReadonlySet<string> = new Set(Object.values(RequestType));

/** The item's request; the v2.1 schema lets it be a URL alone. */
function requestOf(item: JsonNode): JsonNode {
  const request = item.member('request');
  return typeof request === 'string' ? new JsonNode({ url: request }, item.where, 'request') : item.object('request')!;
}

function methodOf(request: JsonNode): RequestType {
  const method = (request.string('method') ?? 'GET').trim().toUpperCase();
  if (!METHODS.has(method)) {
    throw new ItemLeftOut(`its method ${JSON.stringify(method.slice(0, 40))} is none a connector has (${[...METHODS].join(', ')})`);
  }
  return method as RequestType;
}

/** Postman variables as the connector's: the same `{{name}}`, renamed where a connector cannot use the name. */
function inConnectorSyntax(text: string, context: ItemContext, inUrl = false): string {
  return replaceVariables(text, (name) => {
    // Postman sends a variable it cannot fill as the text it is: one the collection does not define, and that no
    // connector variable could stand for (`{{1}}` of a WhatsApp template, Liquid's `{{ name | upcase }}`), stays text.
    if (!VARIABLE_NAME.test(name) && !name.startsWith('$') && !context.variables.has(name)) return literalBraces(`{{${name}}}`, inUrl);
    context.used.add(name);
    const renamed = connectorVariableName(name);
    if (renamed !== name) {
      const dynamic = name.startsWith('$') ? ' (Postman makes its value up on each send; the bot fills it in when the connector runs)' : '';
      context.warnings.add(
        'VARIABLE_RENAMED',
        context.item.where,
        `{{${name}}} is {{${renamed}}} in the connector: a variable name is [A-Za-z_][A-Za-z0-9_.-]{0,63}${dynamic}.`,
      );
    }
    return `{{${renamed}}}`;
  });
}

/**
 * Text in double braces as the connector sends it as written: in a URL percent-encoded (as Postman sends it); elsewhere
 * as it is, escaped (`\{{ name }}`) where the connector would read it as a placeholder (a name with spaces around it).
 */
function literalBraces(text: string, inUrl: boolean): string {
  if (inUrl) return encodeURIComponent(text);
  return text.search(PLACEHOLDER) === -1 ? text : `\\${text}`;
}

/** The URL, with its path variables, located; and the auth settings that its auth, headers, query and user info give. */
function targetOf(request: JsonNode, context: ItemContext): { url: string; auth: AuthSettings; headers: Header[]; contentType: string | undefined } {
  const { item, warnings } = context;
  const url = postmanUrl(request, warnings);
  if (!url) throw new ItemLeftOut('it has no URL');
  const withPathVariables = pathVariablesAsPlaceholders(url);
  const valued = pathVariableValues(request).filter((name) => withPathVariables.names.includes(name));
  if (valued.length > 0) {
    warnings.add(
      'VARIABLE_VALUES_NOT_IMPORTED',
      item.where,
      `The path variables {{${valued.join('}}, {{')}}} keep their names: their values are not imported, the bot fills them in.`,
    );
  }
  const declared = declaredAuth(request, item.where) ?? context.inheritedAuth;
  const sorted = sortHeaders(enabledHeaders(request, warnings), authSettingsOf(declared, warnings), item.where, warnings);
  const target = locatedRequest(
    queryAuth({ url: withPathVariables.url, auth: sorted.auth }, item.where, warnings),
    collectionValues(context),
    item.where,
    warnings,
  );
  if ('problem' in target) throw new ItemLeftOut(target.problem);
  return { ...target, headers: sorted.headers, contentType: sorted.contentType };
}

const collectionValues = (context: ItemContext) => ({ values: context.variables, declared: context.declared });

/** The token URL of OAuth 2.0 settings, located as a URL that carries a secret. */
function oauthUrlOf(auth: AuthSettings, context: ItemContext): string | null {
  if (auth.oauthUrl === null) return null;
  const tokenUrl = located(auth.oauthUrl, collectionValues(context), true, 'token URL', context.item.where, context.warnings);
  if ('problem' in tokenUrl) throw new ItemLeftOut(tokenUrl.problem);
  const url = inConnectorSyntax(tokenUrl.url, context, true);
  if (!isHttpUrlWithPlaceholders(url, LIMITS.url)) throw new ItemLeftOut(`its token URL is not an absolute http(s) URL of at most ${LIMITS.url} characters`);
  return url;
}

/** A credential whose value a secret field cannot hold (a line break, NUL, a lone surrogate) is imported without it. */
function storableCredential(credential: CredentialDraft, context: ItemContext): CredentialDraft {
  if (credential.value === undefined || textProblem(credential.value, true) === undefined) return credential;
  context.warnings.add(
    'CREDENTIAL_FROM_VARIABLES',
    context.item.where,
    `${credential.field} (${credential.where}) holds a line break, NUL or lone surrogate: give it when importing.`,
  );
  return { field: credential.field, where: credential.where };
}

function checkedUrl(url: string): string {
  if (!isHttpUrlWithPlaceholders(url, LIMITS.url) || textProblem(url, true) !== undefined) {
    throw new ItemLeftOut(`its URL is not an absolute http(s) URL of at most ${LIMITS.url} characters without spaces`);
  }
  return url;
}

function checkedBody(draft: BodyDraft, requestType: RequestType, context: ItemContext): string {
  const body = inConnectorSyntax(draft.body, context);
  const problem = textProblem(body);
  if (problem !== undefined) throw new ItemLeftOut(`its body ${problem}`);
  const bytes = Buffer.byteLength(body);
  if (bytes > LIMITS.payloadBytes) throw new ItemLeftOut(`its body is ${bytes} bytes, a connector's at most ${LIMITS.payloadBytes}`);
  if (body !== '' && (requestType === RequestType.GET || requestType === RequestType.HEAD)) {
    context.warnings.add('BODY_NOT_SENT', context.item.where, `The body is kept, but a connector sends none with ${requestType}.`);
  }
  return body;
}

/** Request settings that change how Postman sends it and that a connector has no field for. */
function warnSettings(item: JsonNode, request: JsonNode, warnings: Warnings): void {
  const isSet = (node: JsonNode, key: string) => {
    const value = node.member(key);
    return value !== undefined && value !== null && (typeof value !== 'object' || Object.keys(value).length > 0);
  };
  const settings = [
    ...(isSet(item, 'protocolProfileBehavior') ? ['protocolProfileBehavior'] : []),
    ...['proxy', 'certificate'].filter((key) => isSet(request, key)),
  ];
  if (settings.length > 0) warnings.add('SETTINGS_NOT_IMPORTED', item.where, `Not imported: ${settings.join(', ')} (a connector has no such settings).`);
}

function draftOf(context: ItemContext): ConnectorDraft {
  const { item, warnings } = context;
  const request = requestOf(item);
  const requestType = methodOf(request);
  const target = targetOf(request, context);
  const body = bodyOf(request, target.contentType, warnings);
  const sorted = { headers: target.headers, contentType: undefined, auth: target.auth };
  if (body.header !== undefined) keepHeader(body.header, sorted, item.where, warnings);
  const url = checkedUrl(inConnectorSyntax(encodedAsPostmanSends(target.url), context, true));
  warnSettings(item, request, warnings);
  const name = connectorName(item, url, warnings);
  const { description, block } = connectorDescription(item, request, warnings);
  return {
    name,
    description,
    requestType,
    url,
    headers: sorted.headers.map((header) => (header.secret === true ? header : { header: header.header, value: inConnectorSyntax(header.value, context) })),
    contentType: body.contentType,
    authType: target.auth.authType,
    grantType: target.auth.grantType,
    oauthUrl: oauthUrlOf(target.auth, context),
    apiKeyName: target.auth.apiKeyName,
    apiKeyIn: target.auth.apiKeyIn,
    body: checkedBody(body, requestType, context),
    output: block?.output ?? '',
    tags: block?.tags ?? [],
    credentials: target.auth.credentials.map((credential) => {
      if (credential.variable !== undefined) context.used.add(credential.variable);
      return storableCredential(credential, context);
    }),
    where: item.where,
  };
}

/**
 * The connector a request item becomes, or undefined when it cannot become one: then one ITEM_SKIPPED warning says
 * why, instead of the warnings about the parts of it that were read.
 */
export function connectorOf(context: ItemContext): ConnectorDraft | undefined {
  const own = { ...context, warnings: new Warnings(Infinity), used: new Set<string>() };
  try {
    const draft = draftOf(own);
    context.warnings.addAll(own.warnings);
    own.used.forEach((name) => context.used.add(name));
    return draft;
  } catch (error) {
    if (!(error instanceof ItemLeftOut)) throw error;
    context.warnings.add('ITEM_SKIPPED', context.item.where, `Left out: ${error.reason}.`);
    return undefined;
  }
}

import { ApiKeyIn, AuthType, ContentType, GrantType, isEnvName, MEDIA_TYPES, multipartPartsOf, PLACEHOLDER, withEscapesAsSent } from '@app/domain';
import { bodyAsSent, ExportedConnector, secretHeaderVariable } from '../connector-draft';
import { formPairs } from '../form-pairs';
import { X_BASE64 } from './body';
import { withConnectorBlock } from './connector-block';
import { JsonNode } from './postman-json';
import { splitUrl, urlFromParts } from './url';
import { maskVariables } from './variables';
import { Warnings } from './warnings';

const SCHEMA_V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/**
 * The collection variables an export writes instead of each secret, which an exporter never knows: declared empty
 * in the collection's `variable` list, for the user to fill in Postman. A basic token is the Base64 of
 * `username:password`: Postman's basic auth takes the two, as two variables.
 */
export const SECRET_VARIABLES = {
  basicUsername: 'basicUsername',
  basicPassword: 'basicPassword',
  bearerToken: 'bearerToken',
  apiKey: 'apiKey',
  clientSecret: 'clientSecret',
  authPassword: 'authPassword',
} as const;

/** The raw body modes' languages, by content type (Postman sends their media types). */
const LANGUAGES: Partial<Record<ContentType, string>> = {
  [ContentType.APPLICATION_JSON]: 'json',
  [ContentType.APPLICATION_XML]: 'xml',
  [ContentType.TEXT_PLAIN]: 'text',
};

type Attribute = { key: string; value: string; type: 'string' };
const attribute = (key: string, value: string): Attribute => ({ key, value, type: 'string' });
const secret = (name: string) => `{{${name}}}`;

function oauth2Attributes(connector: ExportedConnector): Attribute[] {
  const common = [
    attribute('accessTokenUrl', connector.oauthUrl ?? ''),
    attribute('clientId', connector.clientId ?? ''),
    attribute('client_authentication', 'header'),
    attribute('addTokenTo', 'header'),
  ];
  if (connector.grantType === GrantType.PASSWORD) {
    return [
      attribute('grant_type', 'password_credentials'),
      ...common,
      attribute('username', connector.authUsername ?? ''),
      attribute('password', secret(SECRET_VARIABLES.authPassword)),
    ];
  }
  return [attribute('grant_type', 'client_credentials'), ...common, attribute('clientSecret', secret(SECRET_VARIABLES.clientSecret))];
}

function authOf(connector: ExportedConnector): object {
  switch (connector.authType) {
    case AuthType.AUTH_BASIC:
      return {
        type: 'basic',
        basic: [attribute('username', secret(SECRET_VARIABLES.basicUsername)), attribute('password', secret(SECRET_VARIABLES.basicPassword))],
      };
    case AuthType.AUTH_BEARER:
      return { type: 'bearer', bearer: [attribute('token', secret(SECRET_VARIABLES.bearerToken))] };
    case AuthType.AUTH_API_KEY:
      return {
        type: 'apikey',
        apikey: [
          attribute('key', connector.apiKeyName ?? ''),
          attribute('value', secret(SECRET_VARIABLES.apiKey)),
          attribute('in', connector.apiKeyIn === ApiKeyIn.QUERY ? 'query' : 'header'),
        ],
      };
    case AuthType.AUTH_OAUTH2:
      return { type: 'oauth2', oauth2: oauth2Attributes(connector) };
    default:
      return { type: 'noauth' };
  }
}

/**
 * The URL's parts as Postman writes them, or undefined when they would not give back the URL exactly, or when it
 * has user info or an IPv6 host, which Postman's parts do not hold as such (then `raw` alone says it).
 */
function urlParts(url: string): object | undefined {
  const { origin, path, query, fragment } = splitUrl(url);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(origin);
  const authority = origin.slice(scheme?.[0].length ?? 0);
  if (/[@[]/.test(maskVariables(authority))) return undefined;
  const portAt = maskVariables(authority).lastIndexOf(':');
  const host = portAt < 0 ? authority : authority.slice(0, portAt);
  const parts = {
    protocol: scheme?.[1],
    // Postman's SDK splits a host at the dots outside variables.
    host: host.split(/\.(?![^{]*\}{2})/),
    port: portAt < 0 ? undefined : authority.slice(portAt + 1),
    path: path === '' ? undefined : path.slice(1).split('/'),
    query:
      query === ''
        ? undefined
        : query
            .slice(1)
            .split('&')
            .map((parameter) => queryParameterOf(parameter)),
    hash: fragment === '' ? undefined : fragment.slice(1),
  };
  const object = JSON.parse(JSON.stringify(parts));
  return urlFromParts(new JsonNode(object, 'export', 'url'), new Warnings()) === url ? object : undefined;
}

function queryParameterOf(parameter: string): { key: string; value: string | null } {
  const equals = parameter.indexOf('=');
  return equals < 0 ? { key: parameter, value: null } : { key: parameter.slice(0, equals), value: parameter.slice(equals + 1) };
}

/** A form body's fields, when they are `key=value` pairs that encode back to the body exactly. */
function formFields(body: string): Array<{ key: string; value: string; type: 'text' }> | undefined {
  return formPairs(body)?.map(({ key, value }) => ({ key, value, type: 'text' as const }));
}

/** The body, and the Content-Type header it needs when no mode says its media type. */
function bodyOf(connector: ExportedConnector): { body?: object; contentType?: string } {
  const { contentType } = connector;
  // An escaped placeholder is written as the text it sends; the collection declares no variable for it.
  const body = bodyAsSent(connector);
  if (contentType === ContentType.NONE) return body === '' ? {} : { body: { mode: 'raw', raw: body, disabled: true } };
  const language = LANGUAGES[contentType];
  if (language !== undefined) return { body: { mode: 'raw', raw: body, options: { raw: { language } } } };
  if (contentType === ContentType.MULTIPART_FORM_DATA) return { body: { mode: 'formdata', formdata: formdataOf(body) } };
  const fields = formFields(body);
  return fields === undefined
    ? { body: { mode: 'raw', raw: body }, contentType: MEDIA_TYPES[contentType] }
    : { body: { mode: 'urlencoded', urlencoded: fields } };
}

/**
 * A multipart body's parts as form data fields: a text part a `text` field (its contentType kept); a file (a part with
 * a filename or base64) a `file` field whose `src` is its filename, its text in `value` and its bytes in `x-base64`,
 * which Postman leaves aside and the import reads back (Postman sends the file at `src` once the user picks it).
 */
function formdataOf(body: string): object[] {
  return multipartPartsOf(body).map(({ name, value, base64, filename, contentType }) => {
    const typed = contentType === undefined ? {} : { contentType };
    if (filename === undefined && base64 === undefined) return { key: name, value: withEscapesAsSent(value ?? ''), type: 'text', ...typed };
    return {
      key: name,
      type: 'file',
      src: filename ?? '',
      ...(value !== undefined && { value }),
      ...(base64 !== undefined && { [X_BASE64]: base64 }),
      ...typed,
    };
  });
}

/** The connector's headers, a secret header's value as its variable (secretHeaderVariable), which the collection declares empty. */
function headersOf(connector: ExportedConnector, contentType: string | undefined): object[] {
  const own = connector.headers.map(({ header, value, secret: isSecret }) => ({
    key: header,
    value: isSecret === true ? secret(secretHeaderVariable(header)) : withEscapesAsSent(value),
    type: 'text',
  }));
  const hasContentType = connector.headers.some(({ header }) => header.toLowerCase() === 'content-type');
  return contentType === undefined || hasContentType ? own : [...own, { key: 'Content-Type', value: contentType, type: 'text' }];
}

/**
 * The variables the collection declares: those the auth settings' secrets are written as, and the connector's own but
 * the environment's (`{{env.BASE_URL}}`), which a Postman environment gives (its key `env.BASE_URL`) and the import
 * reads back as the environment's variable.
 */
function variablesOf(connector: ExportedConnector, auth: object): Array<{ key: string; value: string; type: 'string' }> {
  // The connector's own texts, where an escaped placeholder is no variable; a secret header as its variable.
  const headers = connector.headers.map(({ header, value, secret: isSecret }) => (isSecret === true ? secret(secretHeaderVariable(header)) : value));
  const texts = [JSON.stringify(auth), connector.url, connector.body, ...headers];
  const names = new Set(texts.flatMap((text) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1])).filter((name) => !isEnvName(name)));
  return [...names].map((key) => ({ key, value: '', type: 'string' }));
}

const optional = (key: string, value: string | null) => (value === null ? {} : { [key]: value });

/**
 * A Postman Collection v2.1 of one request: the connector's method, URL (raw, and its parts when they give it
 * back exactly), headers, body (raw with its language, urlencoded or form data) and auth, each secret written as a
 * `{{variable}}` (SECRET_VARIABLES, and a secret header's `{{SECRET_X_TENANT}}`) that the collection declares empty; its
 * description, output and tags in the request's description (connector-block.ts).
 */
export function exportCollection(connector: ExportedConnector): string {
  const auth = authOf(connector);
  const { body, contentType } = bodyOf(connector);
  const parts = urlParts(connector.url);
  const header = headersOf(connector, contentType);
  const request = {
    method: connector.requestType,
    header,
    ...(body === undefined ? {} : { body }),
    url: { raw: connector.url, ...parts },
    auth,
    ...optional('description', withConnectorBlock(connector.description, connector.output, connector.tags)),
  };
  const collection = {
    info: { name: connector.name, schema: SCHEMA_V21 },
    item: [{ name: connector.name, request }],
    variable: variablesOf(connector, auth),
  };
  return JSON.stringify(collection, null, '\t');
}

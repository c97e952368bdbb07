import { ApiKeyIn, AuthType, ContentType, GrantType, MEDIA_TYPES, multipartPartsOf, MultipartPart, withEscapesAsSent } from '@app/domain';
import { bodyAsSent, declaredType, ExportedConnector, Exporter, secretHeaderVariable } from '../connector-draft';
import { formPairs } from '../form-pairs';
import { X_CONNECTOR_PARTS } from './multipart-body';
import { operationIdOf } from './operation-id';
import { SECRET_HEADER_EXTENSION } from './security';
import { JsonRecord } from './values';

/** A connector variable: `{{name}}`. */
const VARIABLE = /\{\{([A-Za-z_][A-Za-z0-9_.-]{0,63})\}\}/g;

/**
 * One OpenAPI 3.1 document (JSON) holding the connector as its only operation: the server is the URL's scheme, host
 * and port; `{{variables}}` in the path are path parameters; query parameters and headers are required parameters,
 * a fixed value as `const`; the body is the request body's example (as text when its JSON holds a key starting
 * with `$`: the document holds no `$ref` but those it makes, and it makes none); the auth settings a security scheme. Secrets are
 * never known here and an OpenAPI document has no place for one: the scheme only says which credential to give. A
 * secret header is an apiKey scheme in the header (named `SECRET_X_TENANT`, marked `x-connector-secret-header`),
 * required together with the auth settings' scheme, never a header parameter.
 * The operationId is the name in camelCase (operationIdOf), the summary the name as it is; a form body has a schema
 * of its fields besides its example. What OpenAPI has no field for is in the operation's `x-connector-name` (the name
 * exactly) and `x-connector-output`, and the connector's tags are the operation's `tags` (declared at the top too).
 * importOpenApi reads it back into the same connector (every field an export writes).
 */
export const exportOpenApi: Exporter = (connector) => JSON.stringify(documentOf(connector), null, 2);

function documentOf(connector: ExportedConnector): JsonRecord {
  const { origin, path, query } = splitUrl(connector.url);
  const auth = securityOf(connector);
  const security = [...(auth ? [auth] : []), ...secretHeaderSchemes(connector)];
  const tags = connector.tags.map(({ name }) => name);
  const operation: JsonRecord = {
    operationId: operationIdOf(connector.name),
    summary: connector.name,
    ...(connector.description ? { description: connector.description } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    'x-connector-name': connector.name,
    ...(connector.output !== '' ? { 'x-connector-output': connector.output } : {}),
    parameters: [...pathParameters(path), ...queryParameters(query), ...headerParameters(connector.headers.filter(({ secret }) => secret !== true))],
    ...requestBodyOf(connector),
    security: security.length > 0 ? [Object.fromEntries(security.map(({ name }) => [name, []]))] : [],
    responses: { default: { description: "The far side's answer" } },
  };
  return {
    openapi: '3.1.0',
    info: { title: connector.name, version: '1.0.0' },
    servers: [serverOf(origin)],
    ...(tags.length > 0 ? { tags: tags.map((name) => ({ name })) } : {}),
    paths: { [pathTemplate(path)]: { [connector.requestType.toLowerCase()]: operation } },
    ...(security.length > 0 ? { components: { securitySchemes: Object.fromEntries(security.map(({ name, scheme }) => [name, scheme])) } } : {}),
  };
}

/** Scheme and authority (user info left out: it could hold a password), path, query; a fragment is not sent anyway. */
function splitUrl(url: string): { origin: string; path: string; query: string | undefined } {
  // A URL may start with the environment's variable, which stands for its scheme and host (`{{env.BASE_URL}}/orders`).
  const parts = /^([a-z][a-z0-9+.-]*:\/\/|(?=\{\{\s*env\.))(?:[^/?#@]*@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/i.exec(url);
  if (!parts) return { origin: url, path: '/', query: undefined };
  return { origin: `${parts[1]}${parts[2]}`, path: parts[3] || '/', query: parts[4] };
}

/** A variable in the host is a server variable whose default is the connector variable: importOpenApi fills it back. */
function serverOf(origin: string): JsonRecord {
  const names = [...new Set([...origin.matchAll(VARIABLE)].map((match) => match[1]))];
  const url = origin.replace(VARIABLE, '{$1}');
  if (names.length === 0) return { url };
  return { url, variables: Object.fromEntries(names.map((name) => [name, { default: `{{${name}}}`, description: `The connector variable ${name}` }])) };
}

/** `{{id}}` is the path parameter `{id}`; a brace that is not a variable's is percent-encoded, as OpenAPI reads braces. */
function pathTemplate(path: string): string {
  return path
    .split(VARIABLE)
    .map((part, index) => (index % 2 === 1 ? `{${part}}` : part.replace(/\{/g, '%7B').replace(/\}/g, '%7D')))
    .join('');
}

function pathParameters(path: string): JsonRecord[] {
  const names = new Set([...path.matchAll(VARIABLE)].map((match) => match[1]));
  return [...names].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

/** `name={{name}}` is a plain required parameter; any other value is fixed (`const`), variables in it included. */
function queryParameters(query: string | undefined): JsonRecord[] {
  if (!query) return [];
  const seen = new Set<string>();
  const parameters: JsonRecord[] = [];
  for (const pair of query.split('&').filter((part) => part !== '')) {
    const [rawName, ...rest] = pair.split('=');
    const name = decoded(rawName);
    if (seen.has(name)) continue;
    seen.add(name);
    parameters.push(requiredParameter(name, 'query', decoded(rest.join('='))));
  }
  return parameters;
}

/** The headers but Content-Type, which OpenAPI ignores as a parameter: the request body's media type says it. */
function headerParameters(headers: Array<{ header: string; value: string }>): JsonRecord[] {
  const seen = new Set<string>(['content-type']);
  return headers.flatMap(({ header, value }) => {
    if (seen.has(header.toLowerCase())) return [];
    seen.add(header.toLowerCase());
    return [requiredParameter(header, 'header', value)];
  });
}

function requiredParameter(name: string, place: 'query' | 'header', value: string): JsonRecord {
  // A fixed value as it is sent: an escaped placeholder as the text it stands for.
  const schema = value === `{{${name}}}` ? { type: 'string' } : { type: 'string', const: withEscapesAsSent(value) };
  return { name, in: place, required: true, schema };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The body as the example of its media type (the connector's declared Content-Type as written, else its content
 * type's): as JSON data when it reads back the same, else as the text it is.
 */
function requestBodyOf(connector: ExportedConnector): JsonRecord {
  if (connector.contentType === ContentType.NONE) return {};
  if (connector.contentType === ContentType.MULTIPART_FORM_DATA) {
    return { requestBody: { required: true, content: { [MEDIA_TYPES.MULTIPART_FORM_DATA]: multipartContent(multipartPartsOf(connector.body)) } } };
  }
  const mediaType = declaredType(connector) ?? MEDIA_TYPES[connector.contentType];
  const schema = connector.contentType === ContentType.APPLICATION_FORM_URLENCODED ? formSchema(connector.body) : undefined;
  return { requestBody: { required: true, content: { [mediaType]: { ...(schema && { schema }), example: exampleOf(connector) } } } };
}

/**
 * A form body's schema: an object of its fields, each a string, a fixed value as `const` (a field that is one
 * `{{variable}}` takes any), all required; undefined when the body is not `name=value` pairs (the example alone says
 * it then), or names a field twice (an object cannot). The example stays the body as written.
 */
function formSchema(body: string): JsonRecord | undefined {
  const pairs = formPairs(body, false);
  if (pairs === undefined || new Set(pairs.map(({ key }) => key)).size !== pairs.length) return undefined;
  const property = (value: string) => (/^\{\{[A-Za-z_][A-Za-z0-9_.-]{0,63}\}\}$/.test(value) ? { type: 'string' } : { type: 'string', const: value });
  return {
    type: 'object',
    properties: Object.fromEntries(pairs.map(({ key, value }) => [key, property(value)])),
    required: pairs.map(({ key }) => key),
  };
}

/**
 * A multipart body as OpenAPI describes a form: an object schema of its fields (a file, a part with a filename or
 * base64, `format: binary`; a name sent twice an array), each part's content type in `encoding`, its text values as
 * the example; and the parts themselves in `x-connector-parts`, which importOpenApi reads back as they are.
 */
function multipartContent(parts: MultipartPart[]): JsonRecord {
  const byName = new Map<string, MultipartPart[]>();
  for (const part of parts) byName.set(part.name, [...(byName.get(part.name) ?? []), part]);
  const isFile = (part: MultipartPart) => part.filename !== undefined || part.base64 !== undefined;
  const properties = Object.fromEntries(
    [...byName].map(([name, named]) => {
      const one = isFile(named[0]) ? { type: 'string', format: 'binary' } : { type: 'string' };
      return [name, named.length > 1 ? { type: 'array', items: one } : one];
    }),
  );
  const texts = [...byName].flatMap(([name, named]) => {
    const values = named.filter((part) => !isFile(part) && part.value !== undefined).map((part) => part.value!);
    return values.length === 0 ? [] : [[name, named.length > 1 ? values : values[0]] as const];
  });
  const encoding = Object.fromEntries(parts.flatMap(({ name, contentType }) => (contentType === undefined ? [] : [[name, { contentType }]])));
  return {
    schema: { type: 'object', properties, required: [...byName.keys()] },
    ...(Object.keys(encoding).length > 0 && { encoding }),
    ...(texts.length > 0 && { example: Object.fromEntries(texts) }),
    [X_CONNECTOR_PARTS]: parts,
  };
}

/** JSON data when the body reads back the same from it and holds no key that starts with `$`, else the body's text. */
function exampleOf(connector: ExportedConnector): unknown {
  const body = bodyAsSent(connector);
  if (connector.contentType !== ContentType.APPLICATION_JSON) return body;
  try {
    const data: unknown = JSON.parse(body);
    return JSON.stringify(data, null, 2) === body && !holdsDollarKey(data) ? data : body;
  } catch {
    return body;
  }
}

/**
 * Whether JSON data holds an object key starting with `$` at any depth. `$ref` is followed by dereferencing tools
 * wherever it stands, an example's data included: as data, a connector's `{"$ref": "https://…"}` would make a
 * consumer's tooling fetch a URL the connector's text chose (and `$id`, `$schema`, `$dynamicRef` move or name what
 * such tools resolve). As text, the body holds no key at all.
 */
function holdsDollarKey(data: unknown): boolean {
  const pending = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      if (!Array.isArray(value) && key.startsWith('$')) return true;
      pending.push(child);
    }
  }
  return false;
}

function securityOf(connector: ExportedConnector): { name: string; scheme: JsonRecord } | undefined {
  switch (connector.authType) {
    case AuthType.AUTH_BASIC:
      return {
        name: 'basicAuth',
        scheme: {
          type: 'http',
          scheme: 'basic',
          description: 'Give the user id and password again (basicUsername and basicPassword): secrets are not exported.',
        },
      };
    case AuthType.AUTH_BEARER:
      return { name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer', description: 'Give the bearer token again: secrets are not exported.' } };
    case AuthType.AUTH_API_KEY:
      return {
        name: 'apiKey',
        scheme: {
          type: 'apiKey',
          name: connector.apiKeyName ?? '',
          in: connector.apiKeyIn === ApiKeyIn.QUERY ? 'query' : 'header',
          description: 'Give the API key again: secrets are not exported.',
        },
      };
    case AuthType.AUTH_OAUTH2:
      return { name: 'oauth2', scheme: oauth2Scheme(connector) };
    default:
      return undefined;
  }
}

/** Each secret header as an apiKey scheme in the header, marked as a secret header (importOpenApi reads it back as one). */
function secretHeaderSchemes(connector: ExportedConnector): Array<{ name: string; scheme: JsonRecord }> {
  return connector.headers
    .filter(({ secret }) => secret === true)
    .map(({ header }) => ({
      name: secretHeaderVariable(header),
      scheme: {
        type: 'apiKey',
        name: header,
        in: 'header',
        [SECRET_HEADER_EXTENSION]: true,
        description: `Give the ${header} header's value again: secrets are not exported.`,
      },
    }));
}

function oauth2Scheme(connector: ExportedConnector): JsonRecord {
  const flow = { tokenUrl: connector.oauthUrl ?? '', scopes: {} };
  if (connector.grantType === GrantType.PASSWORD) {
    return { type: 'oauth2', flows: { password: flow }, description: 'Give the client id, user name and password again: credentials are not exported.' };
  }
  return { type: 'oauth2', flows: { clientCredentials: flow }, description: 'Give the client id and client secret again: credentials are not exported.' };
}

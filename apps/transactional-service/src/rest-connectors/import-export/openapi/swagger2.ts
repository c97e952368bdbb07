import { ImportWarning } from '../connector-draft';
import { JsonRecord, arrayOrEmpty, entriesOf, isRecord, recordOrEmpty, stringOrUndefined } from './values';
import { shownUrl } from './server-userinfo';
import { warning } from './warnings';

/** The methods of a path item (both versions), in the order the importer lists a path's operations. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * A Swagger 2.0 document seen as OpenAPI 3: the importer reads one shape. Only what it reads is converted: servers
 * (from `schemes`, `host`, `basePath`), the `body` and `formData` parameters as a `requestBody` (media types from
 * `consumes`), and `securityDefinitions` as `components.securitySchemes`.
 */
export function asOpenApi3(document: JsonRecord, warnings: ImportWarning[]): JsonRecord {
  if (document.swagger !== '2.0') return document;
  const paths = Object.fromEntries(entriesOf(document.paths).map(([path, item]) => [path, convertPathItem(document, recordOrEmpty(item))]));
  return {
    ...document,
    servers: swaggerServers(document, arrayOrEmpty(document.schemes), 'document', warnings),
    paths,
    components: { securitySchemes: Object.fromEntries(entriesOf(document.securityDefinitions).map(([name, scheme]) => [name, convertScheme(scheme)])) },
  };
}

function swaggerServers(document: JsonRecord, schemes: unknown[], where: string, warnings: ImportWarning[]): JsonRecord[] {
  const host = stringOrUndefined(document.host);
  const basePath = stringOrUndefined(document.basePath) ?? '';
  if (!host) return [{ url: basePath || '/' }];
  const names = schemes.filter((scheme): scheme is string => typeof scheme === 'string');
  if (names.length === 0) {
    warnings.push(warning('SERVER_SCHEME_ASSUMED', where, `the document names no \`schemes\`: ${shownUrl(`https://${host}`)} is assumed`));
    return [{ url: `https://${host}${basePath}` }];
  }
  // https first when offered: the connector's URL should not downgrade a call the API also takes over TLS.
  const ordered = names.includes('https') ? ['https', ...names.filter((name) => name !== 'https')] : names;
  return ordered.map((scheme) => ({ url: `${scheme}://${host}${basePath}` }));
}

function convertPathItem(document: JsonRecord, item: JsonRecord): JsonRecord {
  const converted: JsonRecord = { ...item, parameters: withoutBodyParameters(item.parameters) };
  for (const method of HTTP_METHODS) {
    if (isRecord(item[method])) converted[method] = convertOperation(document, item, item[method]);
  }
  return converted;
}

function convertOperation(document: JsonRecord, item: JsonRecord, operation: JsonRecord): JsonRecord {
  const parameters = [...arrayOrEmpty(item.parameters), ...arrayOrEmpty(operation.parameters)].filter(isRecord);
  const body = parameters.filter((parameter) => parameter.in === 'body').pop();
  const form = parameters.filter((parameter) => parameter.in === 'formData');
  const consumes = arrayOrEmpty(operation.consumes ?? document.consumes).filter((type): type is string => typeof type === 'string');
  const converted: JsonRecord = { ...operation, parameters: withoutBodyParameters(operation.parameters) };
  if (Array.isArray(operation.schemes)) converted.servers = swaggerServers(document, operation.schemes, '', []);
  if (body)
    converted.requestBody = requestBodyOf(consumes.length ? consumes : ['application/json'], {
      schema: body.schema,
      ...(body['x-example'] !== undefined ? { example: body['x-example'] } : {}),
    });
  else if (form.length) converted.requestBody = requestBodyOf(consumes.length ? consumes : ['application/x-www-form-urlencoded'], { schema: formSchema(form) });
  return converted;
}

function withoutBodyParameters(parameters: unknown): unknown[] {
  return arrayOrEmpty(parameters).filter((parameter) => !isRecord(parameter) || (parameter.in !== 'body' && parameter.in !== 'formData'));
}

function requestBodyOf(mediaTypes: string[], content: JsonRecord): JsonRecord {
  return { content: Object.fromEntries(mediaTypes.map((type) => [type, content])) };
}

/** `formData` parameters as the object schema OpenAPI 3 gives a form body. */
function formSchema(form: JsonRecord[]): JsonRecord {
  const properties = Object.fromEntries(form.filter((parameter) => typeof parameter.name === 'string').map((parameter) => [parameter.name, parameter]));
  return { type: 'object', properties };
}

const SWAGGER_FLOWS = new Map([
  ['application', 'clientCredentials'],
  ['password', 'password'],
  ['implicit', 'implicit'],
  ['accessCode', 'authorizationCode'],
]);

/** Swagger's `basic`, `apiKey` and `oauth2` (its `application` flow is OpenAPI 3's client credentials). */
function convertScheme(scheme: unknown): JsonRecord {
  const definition = recordOrEmpty(scheme);
  if (definition.type === 'basic') return { type: 'http', scheme: 'basic' };
  if (definition.type !== 'oauth2') return definition;
  const flow = typeof definition.flow === 'string' ? SWAGGER_FLOWS.get(definition.flow) : undefined;
  const settings = { tokenUrl: definition.tokenUrl, authorizationUrl: definition.authorizationUrl, scopes: definition.scopes };
  return { type: 'oauth2', flows: flow ? { [flow]: settings } : {} };
}

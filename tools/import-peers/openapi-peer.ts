import { Collection, Item } from 'postman-collection';
import { parse as parseYaml } from 'yaml';
import { convertV2 } from 'openapi-to-postmanv2';
import { postmanWire } from './postman-wire';
import { WireRequest } from './wire-request';

/**
 * openapi-to-postmanv2's options: examples where the document gives them (as our importer takes them), optional
 * parameters present but disabled (our importer leaves them out and names them in a warning), folders by path.
 */
export const OPENAPI_TO_POSTMAN_OPTIONS = {
  parametersResolution: 'Example',
  enableOptionalParameters: false,
  folderStrategy: 'Paths',
  includeAuthInfoInExample: false,
  alwaysInheritAuthentication: false,
  preferredRequestBodyType: 'first-listed',
} as const;

/** The operation an item stands for, as `METHOD /path` with path variables as `{name}` (our draft's `where` says the same). */
export type OperationKey = string;

/** openapi-to-postmanv2's collection for a document, read by postman-collection: each request by the operation it stands for. */
export async function openApiPeer(source: string): Promise<Map<OperationKey, WireRequest[]>> {
  const collection = await converted(withoutResponseBodies(source));
  const values = new Map(collection.variables.all().map((variable): [string, string] => [variable.key ?? '', String(variable.value ?? '')]));
  const requests = new Map<OperationKey, WireRequest[]>();
  collection.forEachItem((item: Item) => {
    const key = `${item.request.method.toUpperCase()} /${(item.request.url.path ?? []).map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`;
    requests.set(key, [...(requests.get(key) ?? []), postmanWire(item, { values, schemaPlaceholders: true })]);
  });
  return requests;
}

function converted(source: string): Promise<Collection> {
  return new Promise((resolve, reject) => {
    convertV2({ type: 'string', data: source }, OPENAPI_TO_POSTMAN_OPTIONS, (error, result) => {
      if (error) return reject(error);
      if (!result?.result || !result.output) return reject(new Error(`openapi-to-postmanv2: ${result?.reason ?? 'no collection'}`));
      resolve(new Collection(result.output[0].data));
    });
  });
}

/**
 * The document with every response's content reduced to its media types (OpenAPI 3) or without its schema (Swagger
 * 2.0): the requests are all that is compared, and making up an example of each response is most of the converter's
 * time. The media types stay, so the Accept header the converter takes from them is the same.
 */
export function withoutResponseBodies(source: string): string {
  const document = parseYaml(source, { maxAliasCount: -1 }) as Record<string, unknown>;
  const strip = (responses: unknown) => {
    if (typeof responses !== 'object' || responses === null) return;
    for (const response of Object.values(responses as Record<string, Record<string, unknown> | null>)) {
      if (typeof response !== 'object' || response === null) continue;
      if (typeof response.content === 'object' && response.content !== null)
        response.content = Object.fromEntries(Object.keys(response.content).map((mediaType) => [mediaType, { schema: { type: 'string' } }]));
      if (response.schema !== undefined) response.schema = { type: 'string' };
      delete response.examples;
    }
  };
  for (const pathItem of Object.values((document.paths ?? {}) as Record<string, Record<string, { responses?: unknown }>>)) {
    for (const operation of Object.values(pathItem ?? {})) if (typeof operation === 'object' && operation !== null) strip(operation.responses);
  }
  strip((document.components as { responses?: unknown } | undefined)?.responses);
  strip(document.responses);
  return JSON.stringify(document);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The operations whose request body the document gives an example of (where our importer takes the body from, and
 * openapi-to-postmanv2 too): the others' bodies are made up from the schema by both, and compared by their structure.
 * Read as request-body.ts reads it: `example`, an `examples` value, the schema's `example` or first `examples`, of the
 * first media type; internal `$ref`s followed.
 */
export function operationsWithBodyExamples(source: string): Set<OperationKey> {
  const document = parseYaml(source, { maxAliasCount: -1 }) as Json;
  const resolve = (value: unknown, depth = 0): unknown => {
    if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/') || depth > 20) return value;
    const target = value.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), document);
    return resolve(target, depth + 1);
  };
  const hasExample = (content: Json): boolean => {
    if ('example' in content) return true;
    if (isObject(content.examples) && Object.values(content.examples).some((example) => isObject(resolve(example)) && 'value' in (resolve(example) as Json)))
      return true;
    const schema = resolve(content.schema);
    return isObject(schema) && ('example' in schema || (Array.isArray(schema.examples) && schema.examples.length > 0));
  };
  const found = new Set<OperationKey>();
  for (const [path, pathItem] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    for (const [method, operation] of Object.entries(isObject(resolve(pathItem)) ? (resolve(pathItem) as Json) : {})) {
      if (!isObject(operation)) continue;
      const body = resolve(operation.requestBody);
      const [first] = isObject(body) && isObject(body.content) ? Object.values(body.content) : [];
      const swaggerBody = Array.isArray(operation.parameters)
        ? operation.parameters.map((parameter) => resolve(parameter)).find((parameter) => isObject(parameter) && parameter.in === 'body')
        : undefined;
      const content = isObject(first) ? first : isObject(swaggerBody) ? { schema: swaggerBody.schema } : undefined;
      if (content && hasExample(content)) found.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return found;
}

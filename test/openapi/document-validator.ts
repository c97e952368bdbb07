import { fromSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Validates response bodies against the document's own schemas, with a real JSON Schema validator.
 * Objects are closed (`additionalProperties: false` unless the document says otherwise), so a field the
 * document does not describe fails as surely as a missing or mistyped one.
 */
export class DocumentValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    const schemas = Object.fromEntries(Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [name, toJsonSchema(schema)]));
    this.ajv.addSchema({ $id: 'doc', components: { schemas } });
  }

  /** Throws, naming every violation, unless `body` is what the document promises for this answer. */
  expectValid(path: string, method: string, status: number, body: unknown): void {
    const key = `${method} ${path} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const response = (this.document.paths[path] as any)?.[method]?.responses?.[String(status)];
      if (!response) throw new Error(`The document does not list ${status} for ${method.toUpperCase()} ${path}`);
      const schema = response.content?.['application/json']?.schema;
      if (!schema) {
        if (body !== undefined && body !== '' && !(typeof body === 'object' && body && Object.keys(body).length === 0)) {
          throw new Error(`${key}: the document promises no body, got ${JSON.stringify(body)}`);
        }
        return;
      }
      validate = this.compile(schema);
      this.cache.set(key, validate);
    }
    if (!validate(body)) {
      throw new Error(`${key} does not match the document: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}\n${JSON.stringify(body)}`);
    }
  }

  /** Whether the document's schema of a parameter (`in`: query, path or header) admits `value`. */
  admitsParameter(path: string, method: string, location: string, name: string, value: unknown): boolean {
    const parameters: Array<{ in: string; name: string; schema: unknown }> = (this.document.paths[path] as any)?.[method]?.parameters ?? [];
    const parameter = parameters.find((p) => p.in === location && p.name === name);
    if (!parameter) throw new Error(`The document has no ${location} parameter ${name} on ${method.toUpperCase()} ${path}`);
    return this.compile(parameter.schema)(value) as boolean;
  }

  private compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(toJsonSchema(JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components'))));
  }
}

/**
 * An OpenAPI 3.0 schema as JSON Schema, by the maintained converter: `nullable` admits `null` only next to
 * a `type` in the same schema object, as OpenAPI 3.0.3 says (a nullable `$ref` or `allOf` admits no null).
 * Objects are then closed.
 */
function toJsonSchema(schema: unknown): object {
  const { $schema: _draft, ...converted } = fromSchema(schema as object);
  return closeObjects(converted);
}

/**
 * Closes every object schema that lists its properties (`additionalProperties: false` unless the schema says otherwise).
 * Conditions (`if`, `then`, `else`, `not`) are left as they are: they constrain a few properties of an object described
 * elsewhere, and closed they would refuse the rest of it (or, under `not`, admit what they should refuse).
 */
export function closeObjects<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(closeObjects) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) result[key] = CONDITIONS.has(key) ? value : closeObjects(value);
  const types = ([] as unknown[]).concat(result.type);
  if (types.includes('object') && result.properties && result.additionalProperties === undefined) result.additionalProperties = false;
  return result as T;
}

const CONDITIONS = new Set(['if', 'then', 'else', 'not']);

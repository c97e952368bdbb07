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
    const schemas = closeObjects(document.components?.schemas ?? {});
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
      validate = this.ajv.compile(closeObjects(JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components'))));
      this.cache.set(key, validate);
    }
    if (!validate(body)) {
      throw new Error(`${key} does not match the document: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}\n${JSON.stringify(body)}`);
    }
  }
}

/** OpenAPI 3.0 schema to JSON Schema: `nullable` becomes a `null` alternative; objects are closed. */
function closeObjects<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(closeObjects) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) result[key] = closeObjects(value);
  if (result.type === 'object' && result.properties && result.additionalProperties === undefined) result.additionalProperties = false;
  if (result.nullable === true) {
    const { nullable: _nullable, description, ...rest } = result;
    return { description, anyOf: [rest, { type: 'null' }] } as T;
  }
  return result as T;
}

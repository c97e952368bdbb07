import { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

/**
 * @nestjs/swagger writes a nullable enum or class property (`@ApiProperty({ enum, enumName, nullable: true })`)
 * as `{ nullable: true, allOf: [{ $ref }] }` (with `type: 'object'` beside it for a class given as `type`). OpenAPI 3.0.3 gives `nullable` effect only next to a `type` in
 * the same schema object, so that schema admits no `null`: validators (Prism, ajv) reject the answers that
 * carry one. Every such schema becomes `anyOf: [{ $ref }, { type, nullable: true, enum: [null] }]`, the
 * 3.0 way to say "this schema or null", which generated clients read as `T | null`.
 */
export function withNullableReferences(document: OpenAPIObject): OpenAPIObject {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const typeOf = (ref: string) => components[ref.replace('#/components/schemas/', '')]?.type ?? 'object';
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const schema = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, visit(child)])) as Schema;
    const only = Array.isArray(schema.allOf) && schema.allOf.length === 1 ? (schema.allOf[0] as Schema) : undefined;
    const ref = typeof schema.$ref === 'string' ? { $ref: schema.$ref } : only && typeof only.$ref === 'string' ? only : undefined;
    // A `type` beside a lone `allOf` reference is the reference's own; beside anything else it types the schema.
    if (schema.nullable !== true || !ref || (schema.type !== undefined && !only)) return schema;
    const { nullable: _nullable, allOf: _allOf, $ref: _ref, type: _type, ...rest } = schema;
    return { ...rest, anyOf: [ref, { type: typeOf(ref.$ref as string), nullable: true, enum: [null] }] };
  };
  return visit(document) as OpenAPIObject;
}

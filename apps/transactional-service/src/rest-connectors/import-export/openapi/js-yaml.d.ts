/**
 * The part of js-yaml 4 (CommonJS, untyped here) that the OpenAPI importer uses: `load` of one document under a schema.
 * CORE_SCHEMA is YAML 1.2's core schema, as the `yaml` package's default: no timestamps, no merge keys.
 */
declare module 'js-yaml' {
  export interface Schema {
    readonly __brand: 'Schema';
  }
  export const CORE_SCHEMA: Schema;
  export interface LoadOptions {
    schema?: Schema;
    /** Duplicate mapping keys allowed (the last wins) when true; an error when false. */
    json?: boolean;
  }
  /** The document as data; throws a YAMLException (with `mark.line`, 0-based) on a syntax error or a duplicate key. */
  export function load(source: string, options?: LoadOptions): unknown;
}

import { JsonRecord, arrayOrEmpty, entriesOf, has, isRecord } from './values';

/** Deep enough for a request body a person then completes. */
const MAX_DEPTH = 6;
/** Values in one skeleton at most: wide schemas are cut, not rendered in full. */
const MAX_VALUES = 500;

/**
 * A value of the shape a schema describes, for a body the document gives no example of: each part's own example,
 * default, const or first enum value, else an empty value of its type (`""`, 0, false); objects with every property
 * but the `readOnly` ones (OpenAPI: the API sends them, a request should not),
 * arrays with one item; `allOf` merged, the first of `oneOf`/`anyOf`. A recursive schema (a cycle once dereferenced)
 * stops where it meets itself again: `null`.
 */
export function skeletonOf(schema: unknown): unknown {
  return valueOf(schema, 0, { values: MAX_VALUES, ancestors: new Set() });
}

interface Walk {
  values: number;
  ancestors: Set<object>;
}

function valueOf(schema: unknown, depth: number, walk: Walk): unknown {
  walk.values -= 1;
  if (!isRecord(schema) || walk.values < 0 || walk.ancestors.has(schema)) return null;
  walk.ancestors.add(schema);
  try {
    return valueOfSchema(schema, depth, walk);
  } finally {
    walk.ancestors.delete(schema);
  }
}

function valueOfSchema(schema: JsonRecord, depth: number, walk: Walk): unknown {
  const given = givenValue(schema);
  if (given.found) return given.value;
  const allOf = arrayOrEmpty(schema.allOf);
  if (allOf.length) return mergeObjects(allOf.map((part) => valueOf(part, depth + 1, walk)));
  const [choice] = [...arrayOrEmpty(schema.oneOf), ...arrayOrEmpty(schema.anyOf)];
  if (choice !== undefined) return valueOf(choice, depth + 1, walk);
  return emptyOfType(schema, depth, walk);
}

function givenValue(schema: JsonRecord): { found: boolean; value?: unknown } {
  for (const key of ['example', 'default', 'const']) {
    if (has(schema, key)) return { found: true, value: schema[key] };
  }
  const [example] = arrayOrEmpty(schema.examples);
  if (example !== undefined) return { found: true, value: example };
  const [first] = arrayOrEmpty(schema.enum);
  return first !== undefined ? { found: true, value: first } : { found: false };
}

function emptyOfType(schema: JsonRecord, depth: number, walk: Walk): unknown {
  // OpenAPI 3.1 allows a list of types (`[string, "null"]`): the first that is not null.
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((candidate) => candidate !== 'null') ?? (isRecord(schema.properties) ? 'object' : undefined);
  if (type === 'object') return depth >= MAX_DEPTH ? {} : objectOf(schema, depth, walk);
  if (type === 'array') return depth >= MAX_DEPTH ? [] : [valueOf(schema.items, depth + 1, walk)];
  if (type === 'string') return '';
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return false;
  return null;
}

function objectOf(schema: JsonRecord, depth: number, walk: Walk): JsonRecord {
  // Object.fromEntries defines own properties: a `__proto__` property name stays a name.
  return Object.fromEntries(
    entriesOf(schema.properties)
      .filter(([, property]) => !(isRecord(property) && property.readOnly === true))
      .map(([name, property]) => [name, valueOf(property, depth + 1, walk)]),
  );
}

function mergeObjects(parts: unknown[]): unknown {
  const objects = parts.filter(isRecord);
  if (objects.length === 0) return parts.find((part) => part !== null) ?? null;
  return Object.fromEntries(objects.flatMap((part) => Object.entries(part)));
}

/**
 * Readers for the parsed document: it is untrusted JSON, so every field is checked for its type where it is read
 * (the validator has checked the shape, but not every corner: extensions, examples, what a `$ref` pointed at).
 */
export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordOrEmpty(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

export function arrayOrEmpty(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Own entries only: a `__proto__` key of the document is data, never the prototype. */
export function entriesOf(value: unknown): Array<[string, unknown]> {
  return isRecord(value) ? Object.entries(value) : [];
}

export function has(record: JsonRecord, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** A `$ref` the parser left in place: one pointing outside the document (never fetched) or an anchor. */
export function unresolvedRef(value: unknown): string | undefined {
  return isRecord(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
}

/** The first line of what a thrown value says, cut: messages of libraries can be long or multi-line. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0].slice(0, 300);
}

/** The line (1-based) of a character of the source; linear, so counted once, when a refusal names it. */
export function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let index = source.indexOf('\n'); index !== -1 && index < offset; index = source.indexOf('\n', index + 1)) line += 1;
  return line;
}

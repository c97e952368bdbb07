import { ImportSourceError } from '../connector-draft';

/**
 * How large the document is once every shared part (a YAML alias, a dereferenced `$ref`) is counted where it stands.
 * The parser's dereferencing shares objects, so it stays linear, but its validator and every walk after it see the
 * expanded tree: 40 schemas that each point twice at the next expand to 2^40 nodes. Counted with a memo per object,
 * so this count itself is linear; a cycle counts once.
 */
const MAX_EXPANDED_VALUES = 2_000_000;
/** Deeper than any real document; the parser's walks recurse per level. */
const MAX_DEPTH = 200;

export function checkDocumentSize(document: object, stage: string): void {
  const sizes = new Map<object, number>();
  if (expandedSize(document, sizes, 0) > MAX_EXPANDED_VALUES) {
    throw new ImportSourceError(
      'document',
      `${stage} expands to more than ${MAX_EXPANDED_VALUES} values (its $refs or YAML aliases point at the same large parts again and again): import a smaller document, or select fewer operations from a trimmed copy`,
    );
  }
}

function expandedSize(value: unknown, sizes: Map<object, number>, depth: number): number {
  if (typeof value === 'string') checkWellFormed(value);
  if (typeof value !== 'object' || value === null) return 1;
  const known = sizes.get(value);
  if (known !== undefined) return known;
  if (depth > MAX_DEPTH) throw new ImportSourceError('document', `nests more than ${MAX_DEPTH} levels deep: no OpenAPI document needs that`);
  // A cycle (a recursive schema) meets itself while being counted: it counts once.
  sizes.set(value, 1);
  let total = 1;
  for (const [key, child] of Object.entries(value)) {
    checkWellFormed(key);
    total += expandedSize(child, sizes, depth + 1);
    if (total > MAX_EXPANDED_VALUES) break;
  }
  sizes.set(value, total);
  return total;
}

/** The API refuses lone surrogates in any string; a `\ud800` escape in the document would make one. */
function checkWellFormed(text: string): void {
  if (!text.isWellFormed()) {
    throw new ImportSourceError(
      'document',
      `holds a lone UTF-16 surrogate (an escape such as \\ud800 without its pair) in ${JSON.stringify(text.slice(0, 40))}: fix or remove it`,
    );
  }
}

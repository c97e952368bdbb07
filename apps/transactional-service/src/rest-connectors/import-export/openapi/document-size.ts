import { ImportSourceError } from '../connector-draft';
import { whereOf } from './validation-location';

/**
 * How large the document is once every shared part (a YAML alias, a dereferenced `$ref`) is counted where it stands.
 * The parser's dereferencing shares objects, so it stays linear, but its validator and every walk after it see the
 * expanded tree: 40 schemas that each point twice at the next expand to 2^40 nodes. Counted with a memo per object,
 * so this count itself is linear; a cycle counts once. Twice the largest real description measured (OpenAI's expands
 * to 1.9 million values; OpenAI's, PagerDuty's and Twilio's merged, 2.2 million): the import's time budget bounds
 * the validator's walk beyond.
 */
export const MAX_EXPANDED_VALUES = 4_000_000;
/** Deeper than any real document; the parser's walks recurse per level. */
export const MAX_DEPTH = 200;
/**
 * Far more than a real mapping holds (GitHub's API has about 900 paths). The validator's work on keys it does not
 * expect grows with their count (30,000 took over half a second): the limit is checked before it runs.
 */
export const MAX_KEYS = 10_000;

export function checkDocumentSize(document: object, stage: string): void {
  const sizes = new Map<object, number>();
  if (expandedSize(document, sizes, []) > MAX_EXPANDED_VALUES) {
    throw new ImportSourceError(
      'document',
      `${stage} expands to more than ${MAX_EXPANDED_VALUES} values (its $refs or YAML aliases point at the same large parts again and again): import a smaller document, or select fewer operations from a trimmed copy`,
    );
  }
}

/** `path`: the keys from the root to `value`, to say where a limit is passed. */
function expandedSize(value: unknown, sizes: Map<object, number>, path: string[]): number {
  if (typeof value === 'string') checkWellFormed(value);
  if (typeof value !== 'object' || value === null) return 1;
  const known = sizes.get(value);
  if (known !== undefined) return known;
  if (path.length > MAX_DEPTH) throw new ImportSourceError('document', `nests more than ${MAX_DEPTH} levels deep: no OpenAPI document needs that`);
  const entries = Object.entries(value);
  if (!Array.isArray(value) && entries.length > MAX_KEYS) {
    throw new ImportSourceError(
      whereOf(path.map((key) => key.slice(0, 100))),
      `has more than ${MAX_KEYS} keys in one mapping (${entries.length}): no OpenAPI document needs that many; import a trimmed copy`,
    );
  }
  // A cycle (a recursive schema) meets itself while being counted: it counts once.
  sizes.set(value, 1);
  let total = 1;
  for (const [key, child] of entries) {
    checkWellFormed(key);
    path.push(key);
    total += expandedSize(child, sizes, path);
    path.pop();
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

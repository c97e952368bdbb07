import { listOperations, matchesSelector } from './operations';
import { HTTP_METHODS } from './swagger2';
import { JsonRecord, has, isRecord } from './values';

/**
 * Where a `$ref` may point, by the first key of its JSON pointer, and how many keys name one whole part there
 * (`#/components/schemas/Pet`, Swagger 2.0's `#/definitions/Pet`, a path item `#/paths/~1pets`): a `$ref` into a
 * part takes the whole part. Every other top-level value is kept whole.
 */
const PART_KEYS: Readonly<Record<string, number>> = { components: 3, definitions: 2, parameters: 2, responses: 2, paths: 2, webhooks: 2 };
const METHODS = new Set<string>(HTTP_METHODS);

/**
 * The part of the document the selected operations use: its top-level values (info, servers, security, Swagger 2.0's
 * securityDefinitions, extensions), the components' securitySchemes, the path items of the selected operations with
 * only those operations, and every component their `$ref`s reach, transitively. Webhooks keep their names (a warning
 * counts them) and lose their content. So a large document with `select` is validated and dereferenced only as far as
 * the selection reaches: a huge or broken part no selected operation uses is never read. Without a selection (or with
 * one selectOperations refuses), the whole document. A `$ref` to an anchor (`#name`) cannot be followed here: the whole
 * document then.
 */
export function selectedPart(document: JsonRecord, select: unknown): JsonRecord {
  if (!Array.isArray(select) || select.length === 0 || !select.every((selector) => typeof selector === 'string')) return document;
  const selectors = (select as string[]).map((selector) => selector.trim());
  const chosen = new Set(
    listOperations(document)
      .filter((operation) => selectors.some((selector) => matchesSelector(operation, selector)))
      .map(({ operation }) => operation),
  );
  const part: JsonRecord = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === 'paths') part.paths = selectedPaths(value, chosen);
    else if (key === 'webhooks' && isRecord(value)) part.webhooks = Object.fromEntries(Object.keys(value).map((name) => [name, {}]));
    else if (!has(PART_KEYS, key)) part[key] = value;
  }
  if (isRecord(document.components) && has(document.components, 'securitySchemes')) {
    part.components = { securitySchemes: document.components.securitySchemes };
  }
  return addReachedParts(document, part) ? part : document;
}

/** The path items of the chosen operations, each without the other operations; a path item that is a `$ref` whole. */
function selectedPaths(paths: unknown, chosen: ReadonlySet<unknown>): unknown {
  if (!isRecord(paths)) return paths;
  const selected: JsonRecord = {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    if (typeof item.$ref === 'string') {
      selected[path] = item;
      continue;
    }
    if (!Object.values(item).some((value) => chosen.has(value))) continue;
    // The path item's own keys (parameters, servers, summary) stay; of its operations, only the chosen ones.
    selected[path] = Object.fromEntries(Object.entries(item).filter(([key, value]) => !METHODS.has(key) || chosen.has(value)));
  }
  return selected;
}

/**
 * Copies into `part` every whole part of `document` its `$ref`s reach, following the `$ref`s of each copied part;
 * each object is walked once. False when a `$ref` names an anchor, which only the parser can follow.
 */
function addReachedParts(document: JsonRecord, part: JsonRecord): boolean {
  const seen = new Set<object>();
  const copied = new Set<string>();
  const pending: unknown[] = [part];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const ref = isRecord(value) ? value.$ref : undefined;
    if (typeof ref === 'string' && ref.startsWith('#')) {
      if (ref !== '#' && !ref.startsWith('#/')) return false;
      const keys = partKeys(ref);
      if (keys !== undefined && !copied.has(keys.join('/'))) {
        copied.add(keys.join('/'));
        const target = copyPart(document, part, keys);
        if (target !== undefined) pending.push(target);
      }
    }
    pending.push(...Object.values(value));
  }
  return true;
}

/** The keys of the whole part a `#/…` pointer points into, or undefined when it points into a value kept whole. */
function partKeys(ref: string): string[] | undefined {
  const keys = ref
    .slice(2)
    .split('/')
    .map((key) => decoded(key).replace(/~1/g, '/').replace(/~0/g, '~'));
  if (!has(PART_KEYS, keys[0]) || keys.length < PART_KEYS[keys[0]]) return undefined;
  return keys.slice(0, PART_KEYS[keys[0]]);
}

function decoded(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Puts the part of `document` at `keys` at the same place in `part`; what it put there, or undefined when `document` has none (the parser says so). */
function copyPart(document: JsonRecord, part: JsonRecord, keys: string[]): unknown {
  let from: unknown = document;
  let to: JsonRecord = part;
  for (const [index, key] of keys.entries()) {
    if (!isRecord(from) || !has(from, key)) return undefined;
    from = from[key];
    if (index === keys.length - 1) break;
    if (!isRecord(to[key]) || to[key] === from) {
      // A container of parts (`components.schemas`) of its own, never the document's: the document stays as it was.
      to[key] = isRecord(to[key]) ? { ...to[key] } : {};
    }
    to = to[key] as JsonRecord;
  }
  to[keys[keys.length - 1]] = from;
  return from;
}

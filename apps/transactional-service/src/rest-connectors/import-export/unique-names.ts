import { LIMITS } from '@app/domain';

/**
 * Names made unique within one import, case-insensitively as the bot's are: the first keeps its name, the next
 * get ` (2)`, ` (3)`, … (cut so that the name stays within its limit).
 */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const unique = taken.has(name.toLowerCase()) ? suffixed(name, taken) : name;
    taken.add(unique.toLowerCase());
    return unique;
  });
}

/**
 * `names` (unique within the import) with each one at an index of `renamed` given the first ` (2)`, ` (3)`, … of its
 * base name (`bases`, the name before uniqueNames) that neither `taken` (the bot's lower-cased active names) nor any
 * other name of the import holds.
 */
export function renameConflicts(names: readonly string[], bases: readonly string[], renamed: ReadonlySet<number>, taken: ReadonlySet<string>): string[] {
  const holding = new Set([...taken, ...names.filter((_, index) => !renamed.has(index)).map((name) => name.toLowerCase())]);
  return names.map((name, index) => {
    if (!renamed.has(index)) return name;
    const unique = suffixed(bases[index], holding);
    holding.add(unique.toLowerCase());
    return unique;
  });
}

/**
 * The lower-cased start every suffixed form of `name` shares (suffixed cuts the name to make room): what the bot's
 * names are searched by before a rename.
 */
export function suffixedPrefix(name: string): string {
  return cutAt(name, LIMITS.name - MAX_SUFFIX_UNITS).toLowerCase();
}

/** ` (99999999)`: more suffixes than a bot holds names. */
const MAX_SUFFIX_UNITS = 11;

/** `name (n)` for the first n from 2 whose lower-cased form `taken` does not hold. */
function suffixed(name: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${cutAt(name, LIMITS.name - suffix.length)}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** At most `units` UTF-16 code units of `text`, never half of a surrogate pair (an emoji cut in two is not text). */
function cutAt(text: string, units: number): string {
  const cut = text.slice(0, units);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

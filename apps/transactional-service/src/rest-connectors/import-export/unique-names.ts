import { LIMITS } from '@app/domain';

/**
 * Names made unique within one import, case-insensitively as the bot's are: the first keeps its name, the next
 * get ` (2)`, ` (3)`, … (cut so that the name stays within its limit).
 */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let n = 2; taken.has(unique.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      unique = `${cutAt(name, LIMITS.name - suffix.length)}${suffix}`;
    }
    taken.add(unique.toLowerCase());
    return unique;
  });
}

/** At most `units` UTF-16 code units of `text`, never half of a surrogate pair (an emoji cut in two is not text). */
function cutAt(text: string, units: number): string {
  const cut = text.slice(0, units);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

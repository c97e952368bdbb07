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
      unique = `${name.slice(0, LIMITS.name - suffix.length)}${suffix}`;
    }
    taken.add(unique.toLowerCase());
    return unique;
  });
}

import { ConnectorTagDto, LIMITS } from '@app/domain';

/**
 * What an export carries besides the request so that an import gives the same connector back: `output` and the tags
 * (each format writes them where its readers keep them: a `# connector:` comment line, `x-connector-*` fields and
 * operation tags, a Postman description block). These read them back from a source nobody vouches for.
 */

/** A line break, a control or an invisible format character: none may stand in a tag (a tag is one line). */
const NOT_ONE_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The output a source names: a string of at most 64 KiB (UTF-8), else undefined (the connector's stays empty). */
export function outputFrom(value: unknown): string | undefined {
  return typeof value === 'string' && Buffer.byteLength(value) <= LIMITS.payloadBytes ? value : undefined;
}

/**
 * The tags a source names, as a write takes them: trimmed, one line, 1-50 characters, the first spelling of each
 * (case-insensitively), at most 20. `left` counts what was not taken (not a string, empty, too long, past the 20th).
 */
export function tagsFrom(values: unknown): { tags: ConnectorTagDto[]; left: number } {
  if (!Array.isArray(values)) return { tags: [], left: 0 };
  const tags: ConnectorTagDto[] = [];
  const seen = new Set<string>();
  let left = 0;
  for (const value of values) {
    const name = typeof value === 'string' ? value.trim() : '';
    const usable = name !== '' && name.length <= LIMITS.tagName && !NOT_ONE_LINE.test(name);
    if (!usable || (tags.length >= LIMITS.tags && !seen.has(name.toLowerCase()))) left++;
    else if (!seen.has(name.toLowerCase())) {
      seen.add(name.toLowerCase());
      tags.push({ name });
    }
  }
  return { tags, left };
}

/** The message of a warning about tags left out. */
export function tagsLeftOut(left: number): string {
  return `${left} tag(s) left out: a connector takes at most ${LIMITS.tags} tags of 1-${LIMITS.tagName} characters on one line.`;
}

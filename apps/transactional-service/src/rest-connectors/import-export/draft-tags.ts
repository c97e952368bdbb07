import { LIMITS, textProblem } from '@app/domain';

/** A warning of connectorTags, placed by its importer at the connector it concerns. */
export interface TagWarning {
  code: 'TAG_SHORTENED' | 'TAG_LEFT_OUT' | 'TAGS_CUT';
  message: string;
}

/** How many left-out tags a TAGS_CUT warning names. */
const NAMED = 5;

/**
 * The tags of an imported connector from what its source groups it by (OpenAPI operation `tags`, Postman folder
 * names), under the connector tag rules, so that no source makes a create refuse it: whitespace runs (a line break
 * included) become one space and the ends are trimmed; an empty name is dropped; a name over LIMITS.tagName
 * characters is cut there (never inside a surrogate pair) with TAG_SHORTENED; one a tag cannot hold (NUL, a lone
 * surrogate) is left out with TAG_LEFT_OUT; names equal but for case are one tag, the first spelling kept (as a
 * write de-duplicates); past LIMITS.tags, the first ones are kept and the others named in TAGS_CUT.
 */
export function connectorTags(names: readonly unknown[]): { tags: Array<{ name: string }>; warnings: TagWarning[] } {
  const warnings: TagWarning[] = [];
  const seen = new Set<string>();
  const tags: Array<{ name: string }> = [];
  const cut: string[] = [];
  for (const written of names) {
    if (typeof written !== 'string') continue;
    let name = written.replace(/\s+/g, ' ').trim();
    if (name === '') continue;
    const problem = textProblem(name, true);
    if (problem !== undefined) {
      warnings.push({ code: 'TAG_LEFT_OUT', message: `the tag ${shown(name)} is left out: a tag ${problem}` });
      continue;
    }
    if (name.length > LIMITS.tagName) {
      const shortened = shortenedName(name);
      warnings.push({ code: 'TAG_SHORTENED', message: `the tag ${shown(name)} is longer than ${LIMITS.tagName} characters: shortened to ${shown(shortened)}` });
      name = shortened;
    }
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (tags.length < LIMITS.tags) tags.push({ name });
    else cut.push(name);
  }
  if (cut.length > 0) {
    const named = cut.slice(0, NAMED).map(shown).join(', ');
    const more = cut.length > NAMED ? ` and ${cut.length - NAMED} more` : '';
    warnings.push({ code: 'TAGS_CUT', message: `a connector holds ${LIMITS.tags} tags: the first ${LIMITS.tags} are kept, ${named}${more} left out` });
  }
  return { tags, warnings };
}

/** The first LIMITS.tagName characters, without a high surrogate whose pair is cut off, trimmed at the end. */
function shortenedName(name: string): string {
  const end = /[\ud800-\udbff]/.test(name[LIMITS.tagName - 1]) ? LIMITS.tagName - 1 : LIMITS.tagName;
  return name.slice(0, end).trimEnd();
}

function shown(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}

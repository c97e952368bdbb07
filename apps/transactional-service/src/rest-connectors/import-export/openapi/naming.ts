import { ImportWarning } from '../connector-draft';
import { JsonRecord, stringOrUndefined } from './values';
import { warning } from './warnings';

const MAX_NAME = 100;
const MAX_DESCRIPTION = 1000;

export interface NamePart {
  name: string;
  description: string | null;
}

/**
 * The connector's name is `x-connector-name` (an export's: the name exactly), else the operationId, else the summary,
 * else `METHOD /path`, on one line and at most 100 characters. The description is the summary (unless it became the
 * name) and the description, at most 1000.
 */
export function namingOf(method: string, path: string, operation: JsonRecord, where: string, warnings: ImportWarning[]): NamePart {
  const exported = oneLine(stringOrUndefined(operation['x-connector-name']));
  const operationId = oneLine(stringOrUndefined(operation.operationId));
  const summary = stringOrUndefined(operation.summary)?.trim() || undefined;
  const fullName = exported || operationId || oneLine(summary) || oneLine(`${method} ${path}`);
  const name = shortened(fullName, MAX_NAME);
  if (name !== fullName) warnings.push(warning('NAME_SHORTENED', where, `the name is cut to ${MAX_NAME} characters: ${name}`));
  const parts = [summary !== undefined && oneLine(summary) !== fullName ? summary : undefined, stringOrUndefined(operation.description)?.trim() || undefined];
  const fullDescription = parts.filter((part) => part !== undefined).join('\n\n');
  const description = shortened(fullDescription, MAX_DESCRIPTION);
  if (description !== fullDescription) warnings.push(warning('DESCRIPTION_SHORTENED', where, `the description is cut to ${MAX_DESCRIPTION} characters`));
  return { name, description: description || null };
}

/** Line breaks, tabs and control characters as single spaces: a name is one line. */
function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** Cut at a word boundary when one is near the limit, with an ellipsis that says it was cut. */
function shortened(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit - 1);
  const space = cut.lastIndexOf(' ');
  const atWord = space > limit * 0.7 ? cut.slice(0, space) : cut;
  // Never end on half of a surrogate pair.
  return `${atWord.replace(/[\uD800-\uDBFF]$/, '').trimEnd()}…`;
}

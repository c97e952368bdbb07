import { VARIABLE_NAME } from '@app/domain';
import { Json, JsonNode } from './postman-json';

/** Postman's `{{name}}`: any characters but braces (postman-collection's substitutor reads `/\{\{([^{}]*?)}}/g`). */
const POSTMAN_VARIABLE = /\{\{([^{}]*?)\}\}/g;

/** The names of the Postman variables in `text`, in order, repeated as often as they stand. */
export function variablesIn(text: string): string[] {
  return [...text.matchAll(POSTMAN_VARIABLE)].map((match) => match[1]);
}

/** `text` with every `{{variable}}` given to `replace` (its name) and replaced by what it answers. */
export function replaceVariables(text: string, replace: (name: string) => string): string {
  return text.replace(POSTMAN_VARIABLE, (_match, name: string) => replace(name));
}

/** `text` with what stands outside its `{{variables}}` given to `encode`, each variable left as written. */
export function encodedOutsideVariables(text: string, encode: (text: string) => string): string {
  return text
    .split(/(\{\{[^{}]*?\}\})/)
    .map((part, index) => (index % 2 === 1 ? part : encode(part)))
    .join('');
}

/** `text` with every `{{variable}}` replaced by as many `x`s: positions stay, and no separator inside a name is seen. */
export function maskVariables(text: string): string {
  return text.replace(POSTMAN_VARIABLE, (match) => 'x'.repeat(match.length));
}

/** The variable's name when `text` is one `{{variable}}` and nothing else. */
export function wholeVariable(text: string): string | undefined {
  const names = variablesIn(text);
  return names.length === 1 && text.trim() === `{{${names[0]}}}` ? names[0] : undefined;
}

/**
 * A connector variable name (`[A-Za-z_][A-Za-z0-9_.-]{0,63}`, what a test run can fill) for a Postman one: Postman
 * names may hold any character, and its dynamic variables (`{{$guid}}`, `{{$timestamp}}`) start with `$`.
 */
export function connectorVariableName(name: string): string {
  if (VARIABLE_NAME.test(name)) return name;
  const cleaned = name
    .trim()
    .replace(/^\$/, '')
    .replace(/[^A-Za-z0-9_.-]/g, '_');
  return (/^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`).slice(0, 64);
}

/** A variable's value as Postman fills it in: text, or a number or boolean as text; an object or array fills in nothing here. */
function textValue(value: Json | undefined): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** The collection's `variable` list: the values Postman fills in, by name (a Map: names such as `__proto__` are data). */
export function collectionVariables(collection: JsonNode): Map<string, string> {
  const values = new Map<string, string>();
  for (const variable of collection.objects('variable')) {
    const name = variable.string('key') ?? variable.string('id');
    const value = textValue(variable.member('value'));
    if (name !== undefined && value !== '' && !variable.flag('disabled') && !values.has(name)) values.set(name, value);
  }
  return values;
}

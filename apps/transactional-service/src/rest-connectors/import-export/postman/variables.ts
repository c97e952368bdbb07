import { ENV_PREFIX, ENV_VARIABLE_NAME, envVariableOf, VARIABLE_NAME } from '@app/domain';
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
  return VARIABLE_NAME.test(name) ? name : nameMadeToFit(name, 64);
}

/** A Postman name as a variable's: without a leading `$`, every other character as `_`, `_` in front unless it starts with a letter or `_`. */
function nameMadeToFit(name: string, length: number): string {
  const cleaned = name
    .trim()
    .replace(/^\$/, '')
    .replace(/[^A-Za-z0-9_.-]/g, '_');
  return (/^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`).slice(0, length);
}

/**
 * The connector variable of the environment a Postman variable becomes (`{{host}}` of a Postman environment is
 * `{{env.host}}`): its name when it is one (ENV_VARIABLE_NAME), else every character a name cannot hold as `_`,
 * `_` in front when it does not start with a letter or `_`, cut to 60 characters (`{{base url}}` is `env.base_url`,
 * `{{$host}}` is `env.host`, `{{1st}}` is `env._1st`). A Postman `{{env.NAME}}` (what an export writes for a connector's
 * `{{env.NAME}}`) is that variable already.
 */
export function envVariableName(name: string): string {
  const own = envVariableOf(name);
  if (own !== null && ENV_VARIABLE_NAME.test(own)) return own;
  return ENV_VARIABLE_NAME.test(name) ? name : nameMadeToFit(name, 60);
}

/** The placeholder's name of the environment's variable a Postman variable becomes: `env.` and envVariableName. */
export const environmentPlaceholder = (name: string) => `${ENV_PREFIX}${envVariableName(name)}`;

/** Whether a Postman variable's name is already a reference to the environment's variable (`env.NAME`, NAME fitting). */
export function isEnvironmentReference(name: string | undefined): boolean {
  const own = name === undefined ? null : envVariableOf(name);
  return own !== null && ENV_VARIABLE_NAME.test(own);
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

/** The names the collection's `variable` list declares (enabled), with or without a value. */
export function declaredVariables(collection: JsonNode): Set<string> {
  return new Set(
    collection.objects('variable').flatMap((variable) => {
      const name = variable.string('key') ?? variable.string('id');
      return name === undefined || variable.flag('disabled') ? [] : [name];
    }),
  );
}

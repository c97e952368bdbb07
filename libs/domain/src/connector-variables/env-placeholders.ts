import { PLACEHOLDER } from '../validation/http-url.validator';

/**
 * What a placeholder's name starts with when it names a connector variable of the connector's environment:
 * `{{env.BASE_URL}}` stands for the environment's BASE_URL. A test run's caller cannot set such a name.
 */
export const ENV_PREFIX = 'env.';

/**
 * A connector variable's name (without `env.`): `env.` and the name together are a variable's name
 * (VARIABLE_NAME_SOURCE, at most 64 characters), so the name itself is at most 60.
 */
export const ENV_VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,59}$/;

/** The most connector variables one environment holds. */
export const MAX_CONNECTOR_VARIABLES = 200;

/** Whether a placeholder's name (VARIABLE_NAME_SOURCE) names a connector variable of the environment. */
export const isEnvName = (placeholderName: string) => placeholderName.startsWith(ENV_PREFIX);

/** The environment's variable a placeholder's name stands for (`env.BASE_URL` → `BASE_URL`), or null when it is a caller's variable. */
export const envVariableOf = (placeholderName: string): string | null => (isEnvName(placeholderName) ? placeholderName.slice(ENV_PREFIX.length) : null);

/** The connector variables a text refers to (`{{env.NAME}}`), by name without `env.`, each once, in order. */
export function envNamesIn(text: string | null | undefined): string[] {
  if (!text) return [];
  const names = new Set<string>();
  for (const [, name] of text.matchAll(PLACEHOLDER)) {
    const variable = envVariableOf(name);
    if (variable !== null) names.add(variable);
  }
  return [...names];
}

/**
 * `text` with each `{{env.NAME}}` whose value `values` gives filled in (through `encode`), every other placeholder
 * left as written (escaped ones too): what a connector's URL is in an environment, before its caller's variables.
 */
export function withEnvironment(text: string, values: (name: string) => string | undefined, encode: (value: string) => string = (value) => value): string {
  return text.replace(PLACEHOLDER, (placeholder: string, name: string) => {
    const variable = envVariableOf(name);
    const value = variable === null ? undefined : values(variable);
    return value === undefined ? placeholder : encode(value);
  });
}

import { ConnectorVariableRow, envNamesIn, RestConnector, SECRET_FIELDS, SECRETS, UrlField, withEnvironment } from '@app/domain';
import { destinationOf } from './destination';

/** What an environment's `{{env.NAME}}` stands for: a plain variable's value; undefined for a secret one or an undefined name. */
export type EnvValues = (name: string) => string | undefined;

/** The plain values of an environment's variables (a secret variable's value never stands in a destination). */
export function plainValuesOf(variables: readonly Pick<ConnectorVariableRow, 'name' | 'secret' | 'value'>[]): EnvValues {
  const values = new Map(variables.filter((variable) => !variable.secret && variable.value !== null).map((variable) => [variable.name, variable.value!]));
  return (name) => values.get(name);
}

/** No environment: every `{{env.NAME}}` left as written. */
export const NO_ENV_VALUES: EnvValues = () => undefined;

/**
 * A URL as it is in an environment: each `{{env.NAME}}` of a plain variable filled as written (a base URL may hold the
 * scheme, host, port and path), every other placeholder left as written.
 */
export const urlInEnvironment = (url: string, env: EnvValues) => withEnvironment(url, env);

/**
 * Where a request to `url` goes in an environment (destinationOf of the URL with its plain `{{env.NAME}}` filled):
 * null when it cannot be told (not http(s), or a caller's variable or an undefined `{{env.NAME}}` in the destination).
 */
export const destinationIn = (url: string | null | undefined, env: EnvValues): string | null => (url ? destinationOf(urlInEnvironment(url, env)) : null);

/** The fields of a connector that bind its secrets to destinations. */
export type BindingSource = Pick<RestConnector, 'url' | 'oauthUrl' | 'authType' | 'grantType' | 'headers' | 'body' | (typeof SECRET_FIELDS)[number]>;

/** One secret a connector sends, and where it goes in an environment. */
export interface SecretBinding {
  /** `bearerToken` (a secret field), `headers.X-Api-Key` (a secret header) or `env.STRIPE_KEY` (a secret variable). */
  secret: string;
  url: UrlField;
  /** destinationIn of that URL; null when it cannot be told (then it is bound nowhere). */
  destination: string | null;
}

/**
 * Every secret a connector holds or uses and the destination each goes to in an environment: each stored secret field
 * at every URL it (or what it buys) is sent to (SECRETS[field].destinations), each secret header at `url`, and each
 * secret variable of `secretVariables` it refers to: in `oauthUrl` at oauthUrl's destination, anywhere else at url's.
 * What a variable change compares before and after (a moved destination clears the secret) and what a write or a test
 * run checks a secret variable's `destinations` against.
 */
export function secretBindings(connector: BindingSource, env: EnvValues, secretVariables: ReadonlySet<string>): SecretBinding[] {
  const destinations: Record<UrlField, string | null> = { url: destinationIn(connector.url, env), oauthUrl: destinationIn(connector.oauthUrl, env) };
  const bindings: SecretBinding[] = [];
  for (const field of SECRET_FIELDS) {
    if (connector[field] === null || connector[field] === undefined) continue;
    for (const url of SECRETS[field].destinations) bindings.push({ secret: field, url, destination: destinations[url] });
  }
  for (const header of connector.headers ?? []) {
    if (header.secret === true) bindings.push({ secret: `headers.${header.header}`, url: 'url', destination: destinations.url });
  }
  const inOauthUrl = new Set(envNamesIn(connector.oauthUrl));
  const elsewhere = new Set([
    ...envNamesIn(connector.url),
    ...(connector.headers ?? []).filter((header) => header.secret !== true).flatMap((header) => envNamesIn(header.value)),
    ...envNamesIn(connector.body),
  ]);
  for (const name of new Set([...inOauthUrl, ...elsewhere])) {
    if (!secretVariables.has(name)) continue;
    if (inOauthUrl.has(name)) bindings.push({ secret: `env.${name}`, url: 'oauthUrl', destination: destinations.oauthUrl });
    if (elsewhere.has(name)) bindings.push({ secret: `env.${name}`, url: 'url', destination: destinations.url });
  }
  return bindings;
}

/** One secret whose destination an environment's change moves: from where it was bound to where it would now go. */
export interface MovedSecret extends SecretBinding {
  from: string | null;
}

/**
 * The stored secrets of a connector (fields and secret headers) whose destination moves when its environment's values
 * change from `before` to `after`: a destination that cannot be told on either side counts as moved.
 */
export function movedSecrets(connector: BindingSource, before: EnvValues, after: EnvValues): MovedSecret[] {
  const was = secretBindings(connector, before, new Set());
  return secretBindings(connector, after, new Set()).flatMap((binding, index) => {
    const from = was[index].destination;
    return from !== null && from === binding.destination ? [] : [{ ...binding, from }];
  });
}

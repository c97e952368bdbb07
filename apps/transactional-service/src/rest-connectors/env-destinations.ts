import { ConnectorVariableRow, envNamesIn, envVariableOf, PLACEHOLDER, RestConnector, SECRET_FIELDS, SECRETS, UrlField, withEnvironment } from '@app/domain';
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

/** No stored secret: a connector as secretVariableBindings reads it. */
const NO_SECRETS = Object.fromEntries(SECRET_FIELDS.map((field) => [field, null])) as Pick<BindingSource, (typeof SECRET_FIELDS)[number]>;

/** The secret variables of `env` a connector sends, each where it goes (secretBindings of those alone). */
export function secretVariableBindings(connector: Omit<BindingSource, (typeof SECRET_FIELDS)[number]>, env: ConnectorEnvironment): SecretBinding[] {
  return env.secrets.size === 0 ? [] : secretBindings({ ...connector, ...NO_SECRETS }, env.values, new Set(env.secrets.keys()));
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

/**
 * A connector's environment as the write rules and test runs read it: the plain values (what a destination is
 * resolved with), each secret variable's `destinations` (where it may be sent), and the names of the secret ones
 * without a value (cleared when their destination moved).
 */
export interface ConnectorEnvironment {
  /** The version of the set read (0 before its first write): what a write that depends on it checks in its unit of work. */
  version: number;
  values: EnvValues;
  secrets: ReadonlyMap<string, readonly string[]>;
  withoutValue: ReadonlySet<string>;
}

/** An environment without variables: every `{{env.NAME}}` undefined. */
export const NO_ENVIRONMENT: ConnectorEnvironment = { version: 0, values: NO_ENV_VALUES, secrets: new Map(), withoutValue: new Set() };

/** The environment of a set of connector variables as stored. */
export function environmentOf(
  variables: readonly Pick<ConnectorVariableRow, 'name' | 'secret' | 'value' | 'sealedValue' | 'destinations'>[],
  version = 0,
): ConnectorEnvironment {
  const secret = variables.filter((variable) => variable.secret);
  return {
    version,
    values: plainValuesOf(variables),
    secrets: new Map(secret.map((variable) => [variable.name, variable.destinations])),
    withoutValue: new Set(secret.filter((variable) => variable.sealedValue === null).map((variable) => variable.name)),
  };
}

/** The fields of a connector that may refer to its environment's variables. */
export type EnvironmentReferences = Pick<BindingSource, 'url' | 'body'> & {
  oauthUrl?: string | null;
  headers?: ReadonlyArray<{ value: string; secret?: boolean }> | null;
};

/**
 * Whether a connector refers to any `{{env.NAME}}` (in url, oauthUrl, a plain header's value or the body): whether a
 * write of it depends on its environment, and so checks in its unit of work that the environment is still the one it
 * was validated against (ConnectorEnvironments.hold). A secret header's value is the secret, never a reference.
 */
export function refersToEnvironment(...connectors: ReadonlyArray<EnvironmentReferences | null | undefined>): boolean {
  return connectors.some(
    (connector) =>
      connector != null &&
      (envNamesIn(connector.url).length > 0 ||
        envNamesIn(connector.oauthUrl).length > 0 ||
        envNamesIn(connector.body).length > 0 ||
        (connector.headers ?? []).some((header) => header.secret !== true && envNamesIn(header.value).length > 0)),
  );
}

/** How the 400s tell the caller to set an environment's connector variables. */
export const SET_VARIABLES_WITH = 'PUT /org/{orgUUID}/env/{envUUID}/connector-variables';

/** Whether two URLs go to one destination in an environment (destinationIn); a destination that cannot be told is never the same. */
export function sameDestinationIn(a: string | null | undefined, b: string | null | undefined, env: EnvValues): boolean {
  const destination = destinationIn(a, env);
  return destination !== null && destination === destinationIn(b, env);
}

/**
 * The placeholders (`env.NAME` or a caller's name) written where a URL's destination is told (before the path, query
 * and fragment), each once. Read lexically: a placeholder's name holds no `:`, `/`, `?` or `#`.
 */
export function placeholdersInDestination(url: string): string[] {
  const scheme = url.indexOf('://');
  const from = scheme === -1 ? 0 : scheme + 3;
  const end = url.slice(from).search(/[/?#\\]/);
  const head = end === -1 ? url : url.slice(0, from + end);
  return [...new Set([...head.matchAll(PLACEHOLDER)].map(([, name]) => name))];
}

/**
 * What a URL's destination needs of the environment before it can be told, as a 400's words: a secret variable never
 * stands in a destination; and when the URL carries a secret (`carried`, in words: `the bearer token`), each
 * `{{env.NAME}}` the environment does not define must be defined first, since the secret would go wherever it points.
 */
export function envDestinationProblems(field: UrlField, url: string | null | undefined, env: ConnectorEnvironment, carried: string | null): string[] {
  if (!url) return [];
  return placeholdersInDestination(urlInEnvironment(url, env.values)).flatMap((name) => {
    const variable = envVariableOf(name);
    if (variable === null) return [];
    if (env.secrets.has(variable)) {
      return [
        `${field} must not have {{env.${variable}}} in its scheme, user info, host or port: ${variable} is a secret connector variable, and a secret ` +
          'never says where a call goes; use a plain variable there',
      ];
    }
    if (carried === null) return [];
    return [
      `${field} has {{env.${variable}}} in its scheme, user info, host or port, and the environment defines no ${variable}: ${carried} would go ` +
        `wherever it points. Define ${variable} first (${SET_VARIABLES_WITH}), then write the connector`,
    ];
  });
}

/**
 * The secret variables a connector sends where they are not bound (secretBindings whose destination is not one of the
 * variable's `destinations`), as a 400's words naming the variable, where it is bound and how to bind it elsewhere.
 * `destinationOf` may tell the destination otherwise (a test run: the URL once filled).
 */
export function secretVariableProblems(
  bindings: readonly SecretBinding[],
  env: ConnectorEnvironment,
  destinationOf: (binding: SecretBinding) => string | null = (binding) => binding.destination,
): string[] {
  const problems = new Set<string>();
  for (const binding of bindings) {
    const variable = envVariableOf(binding.secret);
    const bound = variable === null ? undefined : env.secrets.get(variable);
    if (bound === undefined) continue;
    const destination = destinationOf(binding);
    if (destination !== null && bound.includes(destination)) continue;
    const where = bound.length === 0 ? 'nowhere' : bound.join(', ');
    const to = destination === null ? 'a destination that cannot be told (a variable stands in it)' : destination;
    problems.add(
      `{{env.${variable}}} is a secret connector variable bound to ${where}, and ${binding.url} goes to ${to}: to send it there, ` +
        `send its value again with the new destinations (${SET_VARIABLES_WITH}), or point ${binding.url} to where it is bound`,
    );
  }
  return [...problems];
}

import {
  ConnectorVariableRow,
  envNamesIn,
  ImportEnvironmentVariableDto,
  ImportEnvironmentVariableStatus,
  MAX_CONNECTOR_VARIABLES,
  PostmanEnvironment,
} from '@app/domain';
import { BindingSource, EnvValues, plainValuesOf, secretBindings } from '../env-destinations';
import { ImportWarning } from './connector-draft';
import { envVariableName } from './postman/variables';

/** A connector variable an import writes into the environment of its path, which does not define it yet. */
export interface VariableToFill {
  name: string;
  /** A plain variable's value, or a secret one's plaintext (sealed when written, never answered). */
  value: string;
  secret: boolean;
  /** A secret variable's: the destinations (`scheme://host:port`) of the imported connectors that use it; [] for a plain one. */
  destinations: string[];
}

/** A value an importer found for a connector variable of the environment (an OpenAPI server variable's default). */
export interface EnvironmentDefault {
  name: string;
  value: string;
  where: string;
}

/** One connector of an import as the environment sees it: its create body (credentials as given or stand-ins) and where it comes from. */
export interface EnvironmentUser {
  connector: BindingSource;
  /** `connectors.3 (item "Orders / List")`: how a problem names it. */
  label: string;
}

/** What an import does with the environment: the answer's `environmentVariables`, what it writes, what it says, what it refuses. */
export interface ImportEnvironment {
  environmentVariables: ImportEnvironmentVariableDto[];
  variablesToFill: VariableToFill[];
  warnings: ImportWarning[];
  /** Each a 400's line: a URL that carries a secret whose destination comes from a variable the environment cannot fill. */
  problems: string[];
}

type Source = NonNullable<ImportEnvironmentVariableDto['source']>;

interface Offer {
  value: string;
  secret: boolean;
  source: Source;
  /** The Postman key it came from (a warning names it). */
  key: string;
}

/** `scheme://authority` at the start of a URL (or the run before its path when it starts with a variable). */
const ORIGIN = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?[^/?#]*/;
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

const originOf = (url: string | null | undefined) => (url ? ORIGIN.exec(url)![0] : '');

/** The connector variables a connector uses: in its URLs, its plain headers and its body. */
function namesUsedBy({ url, oauthUrl, headers, body }: BindingSource): string[] {
  const texts = [url, oauthUrl, ...(headers ?? []).filter((header) => header.secret !== true).map((header) => header.value), body];
  return [...new Set(texts.flatMap((text) => envNamesIn(text)))];
}

/** Whether a connector's URL (or token URL) takes its scheme, host or port from the variable. */
const inDestination = ({ url, oauthUrl }: BindingSource, name: string) => [url, oauthUrl].some((text) => envNamesIn(originOf(text)).includes(name));

/** Whether a connector's URL starts with the variable (`{{env.baseUrl}}/orders`): its value holds the scheme. */
const startsUrl = ({ url, oauthUrl }: BindingSource, name: string) =>
  [url, oauthUrl].some((text) => envNamesIn(originOf(text)).includes(name) && !HAS_SCHEME.test(text ?? ''));

/** The enabled, non-empty values of a Postman environment by the connector variable each fills (envVariableName), the first of a name. */
function postmanOffers(environment: PostmanEnvironment | undefined): Map<string, Offer> {
  const offers = new Map<string, Offer>();
  for (const { key, value, type, enabled } of environment?.values ?? []) {
    const text = value === undefined || value === null ? '' : String(value);
    const name = envVariableName(key);
    if (enabled === false || text === '' || offers.has(name)) continue;
    offers.set(name, { value: text, secret: type === 'secret', source: 'POSTMAN_ENVIRONMENT', key });
  }
  return offers;
}

const quoted = (names: string[]) => names.map((name) => JSON.stringify(name)).join(', ');

/**
 * The environment of an import (docs/api-contract.md, "Import and export"): each connector variable the imported
 * connectors use, against the variables the environment of the path has (`existing`): DEFINED when it has it (never
 * overwritten), FILLED when the request's Postman environment (`postmanEnvironment`) or the source (an OpenAPI server
 * variable's default) gives it a value, else MISSING. A filled plain value that starts a URL takes `http://` in front
 * when it has no scheme, as Postman sends it. A filled secret is bound to the destinations of the connectors that use
 * it, resolved with the environment's plain values and the filled ones (secretBindings); one that stands in a URL's
 * destination, or whose connectors' destinations cannot be told, is not filled (a warning says why). A URL that
 * carries a secret whose destination holds a variable the environment cannot fill (undefined, or secret) is a problem.
 */
export function importEnvironment(
  users: readonly EnvironmentUser[],
  existing: readonly ConnectorVariableRow[],
  postman: PostmanEnvironment | undefined,
  defaults: readonly EnvironmentDefault[],
): ImportEnvironment {
  const warnings: ImportWarning[] = [];
  const usedBy = new Map<string, EnvironmentUser[]>();
  for (const user of users) for (const name of namesUsedBy(user.connector)) usedBy.set(name, [...(usedBy.get(name) ?? []), user]);
  const stored = new Map(existing.map((row) => [row.name, row]));
  const offers = postmanOffers(postman);
  for (const { name, value } of defaults) if (!offers.has(name)) offers.set(name, { value, secret: false, source: 'OPENAPI_SERVER', key: name });

  const plainFills = plainFillsOf(usedBy, stored, offers, warnings);
  const plain = plainValuesOf(existing);
  const after: EnvValues = (name) => plain(name) ?? plainFills.get(name)?.value;
  const secretFills = secretFillsOf(usedBy, stored, offers, after, warnings);
  const environmentVariables = [...usedBy].map(([name, users]) =>
    variableOf(name, users.length, stored.get(name), plainFills.get(name), secretFills.get(name)),
  );
  const variablesToFill: VariableToFill[] = [
    ...[...plainFills].map(([name, { value }]) => ({ name, value, secret: false, destinations: [] })),
    ...[...secretFills].map(([name, { offer, destinations }]) => ({ name, value: offer.value, secret: true, destinations })),
  ];

  warnings.push(...offerWarnings(offers, usedBy, stored));
  const problems = [...destinationProblems(users, stored, after)];
  if (existing.length + variablesToFill.length > MAX_CONNECTOR_VARIABLES) {
    problems.push(
      `the environment has ${existing.length} connector variables and the import would add ${variablesToFill.length}: an environment holds at most ${MAX_CONNECTOR_VARIABLES}; ` +
        'leave values out of postmanEnvironment, or remove variables with PUT …/connector-variables',
    );
  }
  return { environmentVariables, variablesToFill, warnings, problems };
}

/** The plain values offered for variables the environment lacks; one that starts a URL without a scheme takes `http://`. */
function plainFillsOf(
  usedBy: ReadonlyMap<string, EnvironmentUser[]>,
  stored: ReadonlyMap<string, ConnectorVariableRow>,
  offers: ReadonlyMap<string, Offer>,
  warnings: ImportWarning[],
): Map<string, Offer> {
  const fills = new Map<string, Offer>();
  for (const [name, users] of usedBy) {
    const offer = offers.get(name);
    if (stored.has(name) || offer === undefined || offer.secret) continue;
    if (users.some(({ connector }) => startsUrl(connector, name)) && !HAS_SCHEME.test(offer.value)) {
      warnings.push({
        code: 'ENVIRONMENT_SCHEME_ADDED',
        where: 'postmanEnvironment',
        message: `The value of ${JSON.stringify(offer.key)} starts a URL and has no scheme: http:// is added, as Postman does.`,
      });
      fills.set(name, { ...offer, value: `http://${offer.value}` });
    } else fills.set(name, offer);
  }
  return fills;
}

/** The secret values offered for variables the environment lacks, each with its destinations; those that cannot be bound warned about. */
function secretFillsOf(
  usedBy: ReadonlyMap<string, EnvironmentUser[]>,
  stored: ReadonlyMap<string, ConnectorVariableRow>,
  offers: ReadonlyMap<string, Offer>,
  after: EnvValues,
  warnings: ImportWarning[],
): Map<string, { offer: Offer; destinations: string[] }> {
  const fills = new Map<string, { offer: Offer; destinations: string[] }>();
  for (const [name, users] of usedBy) {
    const offer = offers.get(name);
    if (stored.has(name) || offer === undefined || !offer.secret) continue;
    const reason = secretNotFilled(name, users, after);
    if (typeof reason === 'string') {
      warnings.push({ code: 'ENVIRONMENT_SECRET_NOT_FILLED', where: 'postmanEnvironment', message: `${JSON.stringify(offer.key)} is not filled: ${reason}.` });
    } else fills.set(name, { offer, destinations: reason.destinations });
  }
  return fills;
}

/** One variable as the answer lists it: DEFINED (the environment's), FILLED (a secret without its value), else MISSING. */
function variableOf(
  name: string,
  usedBy: number,
  row: ConnectorVariableRow | undefined,
  plain: Offer | undefined,
  secret: { offer: Offer; destinations: string[] } | undefined,
): ImportEnvironmentVariableDto {
  if (row) return { name, secret: row.secret, status: ImportEnvironmentVariableStatus.DEFINED, usedBy };
  if (plain) return { name, secret: false, status: ImportEnvironmentVariableStatus.FILLED, usedBy, source: plain.source, value: plain.value };
  if (secret)
    return { name, secret: true, status: ImportEnvironmentVariableStatus.FILLED, usedBy, source: secret.offer.source, destinations: secret.destinations };
  return { name, secret: false, status: ImportEnvironmentVariableStatus.MISSING, usedBy };
}

/** What the Postman environment gives that the import does not write: values nothing uses, values the environment already has. */
function offerWarnings(
  offers: ReadonlyMap<string, Offer>,
  usedBy: ReadonlyMap<string, EnvironmentUser[]>,
  stored: ReadonlyMap<string, ConnectorVariableRow>,
): ImportWarning[] {
  const given = [...offers].filter(([, offer]) => offer.source === 'POSTMAN_ENVIRONMENT');
  const listed = (keys: string[]) => `${quoted(keys.slice(0, 20))}${keys.length > 20 ? ` and ${keys.length - 20} more` : ''}`;
  const unused = given.filter(([name]) => !usedBy.has(name)).map(([, { key }]) => key);
  const kept = given.filter(([name]) => usedBy.has(name) && stored.has(name)).map(([, { key }]) => key);
  return [
    ...(unused.length > 0
      ? [{ code: 'ENVIRONMENT_VALUES_NOT_USED', where: 'postmanEnvironment', message: `No imported connector uses ${listed(unused)}: not written.` }]
      : []),
    ...(kept.length > 0
      ? [
          {
            code: 'ENVIRONMENT_VALUES_KEPT',
            where: 'postmanEnvironment',
            message: `The environment already defines ${listed(kept)}: its values are kept (an import never overwrites one; change them with PUT …/connector-variables).`,
          },
        ]
      : []),
  ];
}

/** Why a secret variable cannot be filled, or the destinations it is bound to. */
function secretNotFilled(name: string, users: readonly EnvironmentUser[], after: EnvValues): string | { destinations: string[] } {
  if (users.some(({ connector }) => inDestination(connector, name))) {
    return 'it stands in the scheme, host or port of a URL, where a secret variable is never filled in: make it a default (plain) value';
  }
  const destinations = users.flatMap(({ connector }) =>
    secretBindings(connector, after, new Set([name]))
      .filter(({ secret }) => secret === `env.${name}`)
      .map(({ destination }) => destination),
  );
  if (destinations.some((destination) => destination === null)) {
    return 'where the connectors that use it go cannot be told yet (a host from a variable without a value): set the host first, then the secret with PUT …/connector-variables';
  }
  return { destinations: [...new Set(destinations as string[])].sort() };
}

/** A URL that carries a secret (a field or a secret header) with a variable of the environment in its destination that cannot be filled there. */
function* destinationProblems(users: readonly EnvironmentUser[], stored: ReadonlyMap<string, ConnectorVariableRow>, after: EnvValues): Generator<string> {
  for (const { connector, label } of users) {
    const carried = new Set(
      secretBindings(connector, after, new Set())
        .filter(({ destination }) => destination === null)
        .map(({ url }) => url),
    );
    for (const field of carried) {
      const unfilled = envNamesIn(originOf(connector[field])).filter((name) => after(name) === undefined);
      for (const name of unfilled) {
        const why = stored.get(name)?.secret ? 'is a secret variable, which never stands in a destination' : 'the environment does not define';
        yield (
          `${label}: ${field}'s scheme, host or port comes from {{env.${name}}}, which ${why}, while a secret goes there: ` +
          `define ${name} (a plain value) with PUT …/connector-variables first, or give its value in postmanEnvironment`
        );
      }
    }
  }
}

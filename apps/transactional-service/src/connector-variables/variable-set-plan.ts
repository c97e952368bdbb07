import {
  ConnectorHeader,
  ConnectorVariableWriteDto,
  EnvironmentConnector,
  InvalidInputError,
  RecordedVariable,
  RecordedVariableChange,
  SECRET_FIELDS,
  SECRET_VARIABLE_PLACEHOLDER,
  SecretField,
  StoredVariableRow,
  VariableChange,
} from '@app/domain';
import { destinationOf } from '../rest-connectors/destination';
import { EnvValues, movedSecrets, MovedSecret, plainValuesOf, secretBindings } from '../rest-connectors/env-destinations';

/** A variable a write asks for: what a PUT's body holds (a secret's value `<SECRET>` keeps the stored one). */
export type NextVariable = Pick<ConnectorVariableWriteDto, 'name' | 'value' | 'secret' | 'destinations'>;

/** What sealing a secret variable's value takes: encrypt it for its name, and tell whether a sent value is the stored one. */
export interface VariableSeal {
  seal(name: string, plaintext: string): string;
  /** Whether `plaintext` is what `sealed` holds for `name`; false when no key opens it. */
  sameAsStored(name: string, sealed: string, plaintext: string): boolean;
}

/** A connector whose stored secrets the new set moves: which, from where to where. */
export interface MovedConnector {
  connector: EnvironmentConnector;
  secrets: MovedSecret[];
}

/** A secret variable the new set would send outside its destinations. */
export interface MovedVariable {
  name: string;
  destinations: string[];
  to: Array<string | null>;
}

/** What a write of the set does, decided before anything is written. */
export interface VariableSetPlan {
  /** The rows of the new set, by name (byte order), each row's uuid kept while its name stays. */
  rows: StoredVariableRow[];
  changes: RecordedVariableChange[];
  /** The set as its version records it (secrets as `<SECRET>`). */
  snapshot: RecordedVariable[];
  movedConnectors: MovedConnector[];
  movedVariables: MovedVariable[];
}

export interface PlanInput {
  stored: readonly StoredVariableRow[];
  next: readonly NextVariable[];
  /** Every connector of the environment (every bot's, trashed ones too). */
  connectors: readonly EnvironmentConnector[];
  seal: VariableSeal;
  /** Compares names as the database orders them (Database.compareKeys). */
  compare: (a: string, b: string) => number;
  now: Date;
  updatedBy: string;
  newUuid: () => string;
  /** confirmDestinationMoves: clear what moves rather than refuse. */
  confirmed: boolean;
}

const SECRET_FIELD_NAMES: readonly string[] = SECRET_FIELDS;
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * A destination as a secret variable keeps it: an http(s) origin (`scheme://host[:port]`, as destinationOf writes it),
 * or a problem that says how to write it.
 */
export function originOf(name: string, given: string): { origin: string } | { problem: string } {
  const origin = destinationOf(given);
  let url: URL | null;
  try {
    url = new URL(given);
  } catch {
    url = null;
  }
  const bare = url !== null && (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '' && !url.username && !url.password;
  if (origin === null || !bare || !given.includes('://')) {
    return {
      problem: `variables[${name}].destinations: ${JSON.stringify(given.slice(0, 100))} must be an http or https origin, scheme://host[:port] without path, query or user info (such as https://api.example.com)`,
    };
  }
  return { origin };
}

/** Where the connectors of `connectors` would send secret variable `name` with `env`: each destination once (null: cannot be told). */
function destinationsUsing(name: string, connectors: readonly EnvironmentConnector[], env: EnvValues, secretNames: ReadonlySet<string>): Array<string | null> {
  const found = new Set<string | null>();
  for (const connector of connectors) {
    for (const binding of secretBindings(connector, env, secretNames)) if (binding.secret === `env.${name}`) found.add(binding.destination);
  }
  return [...found];
}

/**
 * The plan of a write of the whole set `next` over `stored` (docs/api-contract.md, "Connector variables"): every
 * rule the body breaks (an InvalidInputError listing each: duplicate names, destinations of a plain variable or not
 * an origin, `<SECRET>` with nothing stored or with widened destinations, a secret without destinations nobody uses),
 * the rows to store (secrets sealed, unchanged ones kept as they were), what changed, and what the new values move:
 * the stored secrets of the environment's connectors (movedSecrets) and the secret variables sent outside their
 * destinations. Confirmed, the moved secret variables lose their value (and so count as changed).
 */
export function planVariableSet(input: PlanInput): VariableSetPlan {
  const { stored, next, connectors, seal, compare, now, updatedBy, confirmed } = input;
  const problems: string[] = [];
  const byName = new Map(stored.map((row) => [row.name, row]));
  const seen = new Set<string>();
  for (const variable of next) {
    if (seen.has(variable.name)) problems.push(`variables: ${variable.name} is given more than once; each name once`);
    seen.add(variable.name);
  }
  const secretNames = new Set(next.filter((variable) => variable.secret === true).map((variable) => variable.name));
  const plainAfter = plainValuesOf(next.map((variable) => ({ name: variable.name, secret: variable.secret === true, value: variable.value })));
  const plainBefore = plainValuesOf(stored);
  const active = connectors.filter((connector) => connector.deletedAt === null);

  const rows: StoredVariableRow[] = [];
  for (const variable of next) {
    const before = byName.get(variable.name);
    const secret = variable.secret === true;
    if (!secret) {
      if (variable.destinations !== undefined && variable.destinations.length > 0) {
        problems.push(`variables[${variable.name}].destinations: only a secret variable has destinations; send secret: true, or leave destinations out`);
      }
      if (variable.value === SECRET_VARIABLE_PLACEHOLDER && before?.secret === true) {
        problems.push(
          `variables[${variable.name}].value: ${SECRET_VARIABLE_PLACEHOLDER} stands for a secret's stored value, which a plain variable cannot show: send the value itself to make ${variable.name} plain`,
        );
      }
      rows.push(keptOrNew(before, { name: variable.name, secret: false, value: variable.value ?? '', sealedValue: null, destinations: [] }));
      continue;
    }
    const destinations = destinationsOf(variable, before, { active, plainAfter, secretNames }, problems);
    const sealedValue = sealedValueOf(variable, before, destinations, seal, problems);
    rows.push(keptOrNew(before, { name: variable.name, secret: true, value: null, sealedValue, destinations }));
  }
  if (problems.length > 0) throw new InvalidInputError(problems);

  // What the new values move: the connectors' stored secrets, and the secret variables sent elsewhere.
  const movedConnectors = connectors
    .map((connector) => ({ connector, secrets: movedSecrets(connector, plainBefore, plainAfter) }))
    .filter((moved) => moved.secrets.length > 0);
  const movedVariables: MovedVariable[] = [];
  for (const row of rows) {
    if (!row.secret || row.sealedValue === null) continue;
    const to = destinationsUsing(row.name, connectors, plainAfter, secretNames).filter(
      (destination) => destination === null || !row.destinations.includes(destination),
    );
    if (to.length > 0) movedVariables.push({ name: row.name, destinations: row.destinations, to });
  }
  const cleared = confirmed ? new Set(movedVariables.map((moved) => moved.name)) : new Set<string>();
  const finalRows = rows
    .map((row) => (cleared.has(row.name) ? { ...row, sealedValue: null } : row))
    .map((row) => stamped(byName.get(row.name), row, now, updatedBy, input.newUuid))
    .sort((a, b) => compare(a.name, b.name));

  return {
    rows: finalRows,
    changes: changesOf(stored, finalRows, compare),
    snapshot: finalRows.map(recordedOf),
    movedConnectors,
    movedVariables,
  };
}

/** Where the connectors of the environment are, to bind a new secret variable nobody gave destinations to. */
interface BindingContext {
  active: readonly EnvironmentConnector[];
  plainAfter: EnvValues;
  secretNames: ReadonlySet<string>;
}

/** A secret variable's destinations: as given (origins), else as stored, else where the active connectors that use it go. */
function destinationsOf(variable: NextVariable, before: StoredVariableRow | undefined, context: BindingContext, problems: string[]): string[] {
  if (variable.destinations !== undefined) {
    const destinations: string[] = [];
    for (const given of variable.destinations) {
      const checked = originOf(variable.name, given);
      if ('problem' in checked) problems.push(checked.problem);
      else if (!destinations.includes(checked.origin)) destinations.push(checked.origin);
    }
    if (variable.destinations.length === 0) {
      problems.push(
        `variables[${variable.name}].destinations: a secret variable needs at least one origin it may be sent to (such as https://api.example.com)`,
      );
    }
    return destinations;
  }
  if (before?.secret === true) return before.destinations;
  const known = destinationsUsing(variable.name, context.active, context.plainAfter, context.secretNames).filter(
    (destination): destination is string => destination !== null,
  );
  if (known.length === 0) {
    problems.push(
      `variables[${variable.name}].destinations: no connector of this environment sends {{env.${variable.name}}} to a destination yet; ` +
        'give the origins it may be sent to (such as ["https://api.example.com"])',
    );
  }
  return known.sort();
}

/** A secret variable's sealed value: `<SECRET>` keeps the stored one while its destinations are not widened; the same plaintext keeps it too. */
function sealedValueOf(
  variable: NextVariable,
  before: StoredVariableRow | undefined,
  destinations: readonly string[],
  seal: VariableSeal,
  problems: string[],
): string | null {
  const stored = before?.secret === true ? before.sealedValue : null;
  if (variable.value === SECRET_VARIABLE_PLACEHOLDER) {
    if (stored === null || before === undefined) {
      problems.push(
        `variables[${variable.name}].value: ${SECRET_VARIABLE_PLACEHOLDER} keeps a stored secret value, and ${variable.name} has none: send its value`,
      );
      return null;
    }
    const added = destinations.filter((destination) => !before.destinations.includes(destination));
    if (added.length > 0) {
      problems.push(
        `variables[${variable.name}]: its value is bound to ${before.destinations.join(', ')}; to send it to ${added.join(', ')} too, send its value again with the new destinations`,
      );
    }
    return stored;
  }
  if (variable.value === null) return null;
  if (stored !== null && seal.sameAsStored(variable.name, stored, variable.value)) return stored;
  return seal.seal(variable.name, variable.value);
}

type VariableValues = Pick<StoredVariableRow, 'name' | 'secret' | 'value' | 'sealedValue' | 'destinations'>;

/** The row as it will be: the stored one's identity and stamp while nothing of it changes. */
function keptOrNew(before: StoredVariableRow | undefined, values: VariableValues): StoredVariableRow {
  return { uuid: before?.uuid ?? '', updatedAt: before?.updatedAt ?? new Date(0), updatedBy: before?.updatedBy ?? '', ...values };
}

/** Whether a variable's stored values differ. */
const differs = (a: VariableValues, b: VariableValues) =>
  a.secret !== b.secret || a.value !== b.value || a.sealedValue !== b.sealedValue || !sameList(a.destinations, b.destinations);

function stamped(before: StoredVariableRow | undefined, row: StoredVariableRow, now: Date, updatedBy: string, newUuid: () => string): StoredVariableRow {
  if (before !== undefined && !differs(before, row)) return before;
  return { ...row, uuid: before?.uuid ?? newUuid(), updatedAt: now, updatedBy };
}

/** What the new rows change, by name (byte order): ADDED, CHANGED (secret flag, value, sealed value or destinations), REMOVED. */
function changesOf(
  stored: readonly StoredVariableRow[],
  rows: readonly StoredVariableRow[],
  compare: (a: string, b: string) => number,
): RecordedVariableChange[] {
  const after = new Map(rows.map((row) => [row.name, row]));
  const before = new Map(stored.map((row) => [row.name, row]));
  const changes: RecordedVariableChange[] = [];
  for (const row of rows) {
    const was = before.get(row.name);
    if (was === undefined) changes.push({ name: row.name, secret: row.secret, change: VariableChange.ADDED });
    else if (differs(was, row)) changes.push({ name: row.name, secret: row.secret || was.secret, change: VariableChange.CHANGED });
  }
  for (const row of stored) if (!after.has(row.name)) changes.push({ name: row.name, secret: row.secret, change: VariableChange.REMOVED });
  return changes.sort((a, b) => compare(a.name, b.name));
}

/** A variable as reads, versions and events show it: a secret's value as `<SECRET>` when one is stored, else null. */
export function recordedOf(row: Pick<StoredVariableRow, 'name' | 'secret' | 'value' | 'sealedValue' | 'destinations'>): RecordedVariable {
  return {
    name: row.name,
    secret: row.secret,
    value: row.secret ? (row.sealedValue === null ? null : SECRET_VARIABLE_PLACEHOLDER) : row.value,
    destinations: row.secret ? row.destinations : [],
  };
}

/** A connector with its moved secrets cleared: each moved secret field null, each moved secret header dropped. */
export function withMovedSecretsCleared(
  connector: EnvironmentConnector,
  moved: readonly MovedSecret[],
): { fields: Partial<Record<SecretField, null>>; headers: ConnectorHeader[]; changedFields: string[] } {
  const names = new Set(moved.map((secret) => secret.secret));
  const fields: Partial<Record<SecretField, null>> = {};
  for (const name of names) if (SECRET_FIELD_NAMES.includes(name)) fields[name as SecretField] = null;
  const headers = connector.headers.filter((header) => !(header.secret === true && names.has(`headers.${header.header}`)));
  const changedFields = [...SECRET_FIELDS.filter((field) => field in fields), ...(headers.length === connector.headers.length ? [] : ['headers'])];
  return { fields, headers, changedFields };
}

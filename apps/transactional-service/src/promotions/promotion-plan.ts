import {
  ConnectorForWrite,
  ConnectorHeader,
  ConnectorVariableSetRow,
  envNamesIn,
  fieldsSetBy,
  InvalidInputError,
  isSecretHeader,
  PromotionAction,
  PromotionSecretsDto,
  PromotionSecretStatus,
  RECORDED_FIELDS,
  RestConnectorSnapshotDto,
  SECRET_FIELDS,
  SecretField,
  SECRETS,
  secretsUsedBy,
  SourceRecord,
  storedSecretHeader,
} from '@app/domain';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { destinationIn, EnvValues, plainValuesOf } from '../rest-connectors/env-destinations';

/** A secret of a promoted connector: a secret field (`bearerToken`) or a secret header (`headers.X-Api-Key`), and where its value comes from. */
export interface PlannedSecret {
  secret: string;
  status: PromotionSecretStatus;
}

/** What a promotion does to one connector, matched by name. */
export interface PlannedConnector {
  name: string;
  action: PromotionAction;
  /** The source's connector (none for a DELETE). */
  source: SourceRecord | null;
  /** The target's connector (none for a CREATE). */
  target: ConnectorForWrite | null;
  changedFields: string[];
  secrets: PlannedSecret[];
  /** The request's secrets for it, if any. */
  given: PromotionSecretsDto | undefined;
}

export interface PromotionCounts {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

export interface PromotionPlan {
  /** In name order (lower-cased, then as written). */
  connectors: PlannedConnector[];
  variables: { missing: string[]; withoutValue: string[] };
  counts: PromotionCounts;
  digest: string;
}

/** What a plan is made of: both sides as read, the target environment's variables, the request's secrets and prune. */
export interface PlanInput {
  sourceBotUuid: string;
  targetBotUuid: string;
  source: readonly SourceRecord[];
  target: readonly ConnectorForWrite[];
  variables: ConnectorVariableSetRow;
  secrets: readonly PromotionSecretsDto[];
  prune: boolean;
}

const key = (name: string) => name.toLowerCase();
const byName = (a: { name: string }, b: { name: string }) => {
  const [x, y] = [key(a.name), key(b.name)];
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
};
const isSecret = (field: string): field is SecretField => (SECRET_FIELDS as readonly string[]).includes(field);

/** The request's given value of a secret header (by name, case-insensitively). */
export const givenHeader = (given: PromotionSecretsDto | undefined, header: string): string | undefined =>
  given?.headers?.find((sent) => key(sent.header) === key(header))?.value;

/**
 * The plan of a promotion (docs/api-contract.md, "Promotions"): each source connector matched with the target's
 * active connector of the same name (case-insensitively), created, updated (the recorded fields that differ; a secret
 * by name when it is set or cleared, or given) or unchanged; with `prune`, each target connector the source has no
 * connector of that name for, deleted. Each secret a promoted connector uses is KEPT (the target stores one there and
 * where it goes in the TARGET environment is unchanged), GIVEN (the request gives it: a given value is always written)
 * or NEEDED. The source's sealed values are never read: only its records.
 */
export function planPromotion(input: PlanInput): PromotionPlan {
  const env = plainValuesOf(input.variables.variables);
  const targets = new Map(input.target.map((one) => [key(one.connector.name), one]));
  const given = givenSecrets(input.secrets, input.source);
  const sourceNames = new Set(input.source.map(({ snapshot }) => key(snapshot.name)));
  const connectors = [
    ...input.source.map((source) => promoted(source, targets.get(key(source.snapshot.name)) ?? null, given.get(key(source.snapshot.name)), env)),
    ...(input.prune
      ? input.target
          .filter(({ connector }) => !sourceNames.has(key(connector.name)))
          .map((target): PlannedConnector => ({
            name: target.connector.name,
            action: PromotionAction.DELETE,
            source: null,
            target,
            changedFields: [],
            secrets: [],
            given: undefined,
          }))
      : []),
  ].sort(byName);
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const { action } of connectors) counts[COUNTED[action]]++;
  const variables = variablesOf(input.source, input.variables);
  return { connectors, variables, counts, digest: digestOf(input, connectors) };
}

const COUNTED: Record<PromotionAction, keyof PromotionCounts> = {
  [PromotionAction.CREATE]: 'create',
  [PromotionAction.UPDATE]: 'update',
  [PromotionAction.DELETE]: 'delete',
  [PromotionAction.UNCHANGED]: 'unchanged',
};

function promoted(source: SourceRecord, target: ConnectorForWrite | null, given: PromotionSecretsDto | undefined, env: EnvValues): PlannedConnector {
  const record = source.snapshot;
  const secrets = secretsOf(record, target, given, env);
  const base = { name: record.name, source, target, secrets, given };
  if (target === null || target.snapshot === null) {
    return { ...base, action: target === null ? PromotionAction.CREATE : PromotionAction.UPDATE, changedFields: fieldsSetBy(record) };
  }
  const givenSecrets = new Set(secrets.filter(({ status }) => status === PromotionSecretStatus.GIVEN).map(({ secret }) => secret));
  const before = target.snapshot;
  const changedFields = RECORDED_FIELDS.filter((field) => {
    // A secret the promoted connector uses changes unless the target's is KEPT; one it does not use, when the target holds one.
    if (isSecret(field)) {
      const planned = secrets.find(({ secret }) => secret === field);
      return planned === undefined ? before[field] !== null : planned.status !== PromotionSecretStatus.KEPT;
    }
    if (field === 'headers' && [...givenSecrets].some((secret) => secret.startsWith('headers.'))) return true;
    return !isDeepStrictEqual(before[field], record[field]);
  });
  return { ...base, action: changedFields.length === 0 ? PromotionAction.UNCHANGED : PromotionAction.UPDATE, changedFields };
}

/**
 * The request's secrets by connector (lower-cased name): each entry must name a source connector once, and give only
 * the secrets it uses (its auth type's fields, its secret headers); else a 400 naming each entry, since a secret meant
 * for a connector would otherwise be dropped without a word (a typo in a name, a rotation that never lands).
 */
function givenSecrets(entries: readonly PromotionSecretsDto[], source: readonly SourceRecord[]): Map<string, PromotionSecretsDto> {
  const records = new Map(source.map(({ snapshot }) => [key(snapshot.name), snapshot]));
  const given = new Map<string, PromotionSecretsDto>();
  const first = new Map<string, number>();
  const problems: string[] = [];
  entries.forEach((entry, index) => {
    const name = JSON.stringify(entry.connector);
    const record = records.get(key(entry.connector));
    if (record === undefined) {
      problems.push(
        `secrets[${index}].connector ${name}: the source has no connector of that name (case-insensitively); give secrets for the connectors it promotes`,
      );
      return;
    }
    if (first.has(key(entry.connector))) {
      problems.push(
        `secrets[${index}].connector ${name}: its secrets are given already (secrets[${first.get(key(entry.connector))}]); give each connector's secrets in one entry`,
      );
      return;
    }
    first.set(key(entry.connector), index);
    given.set(key(entry.connector), entry);
    const used = secretsUsedBy(record.authType, record.grantType);
    for (const field of SECRET_FIELDS) {
      if (entry[field] !== undefined && !used.includes(field)) {
        problems.push(`secrets[${index}].${field}: ${JSON.stringify(record.name)} does not use it (authType ${record.authType}); leave it out`);
      }
    }
    const secretHeaders = new Set(record.headers.filter(isSecretHeader).map(({ header }) => key(header)));
    (entry.headers ?? []).forEach(({ header }, at) => {
      if (!secretHeaders.has(key(header))) {
        problems.push(
          `secrets[${index}].headers[${at}] ${JSON.stringify(header)}: ${JSON.stringify(record.name)} has no secret header of that name; leave it out`,
        );
      }
    });
  });
  if (problems.length > 0) throw new InvalidInputError(problems);
  return given;
}

/** Each secret the promoted record uses (its auth type's secret fields, then its secret headers), and where its value comes from. */
function secretsOf(
  record: RestConnectorSnapshotDto,
  target: ConnectorForWrite | null,
  given: PromotionSecretsDto | undefined,
  env: EnvValues,
): PlannedSecret[] {
  const stored = target?.connector;
  const sameDestination = (url: 'url' | 'oauthUrl') => {
    const destination = destinationIn(record[url], env);
    return destination !== null && destination === destinationIn(stored?.[url], env);
  };
  const fields = secretsUsedBy(record.authType, record.grantType).map((field): PlannedSecret => {
    if (given?.[field] !== undefined) return { secret: field, status: PromotionSecretStatus.GIVEN };
    const { destinations, placement = [] } = SECRETS[field];
    const kept =
      stored !== undefined &&
      stored[field] !== null &&
      destinations.every(sameDestination) &&
      placement.every((setting) => (record[setting] ?? null) === (stored[setting] ?? null));
    return { secret: field, status: kept ? PromotionSecretStatus.KEPT : PromotionSecretStatus.NEEDED };
  });
  const headers = record.headers.filter(isSecretHeader).map(({ header }: ConnectorHeader): PlannedSecret => {
    const secret = `headers.${header}`;
    if (givenHeader(given, header) !== undefined) return { secret, status: PromotionSecretStatus.GIVEN };
    const kept = stored !== undefined && storedSecretHeader(stored.headers, header) !== undefined && sameDestination('url');
    return { secret, status: kept ? PromotionSecretStatus.KEPT : PromotionSecretStatus.NEEDED };
  });
  return [...fields, ...headers];
}

/**
 * The connector variables the source's records use (`{{env.NAME}}` in url, oauthUrl, plain header values and body)
 * that the target environment does not define, and the secret ones it defines without a value; each sorted.
 */
function variablesOf(source: readonly SourceRecord[], { variables }: ConnectorVariableSetRow): PromotionPlan['variables'] {
  const used = new Set<string>();
  for (const { snapshot } of source) {
    for (const text of [
      snapshot.url,
      snapshot.oauthUrl,
      snapshot.body,
      ...snapshot.headers.filter((header) => !isSecretHeader(header)).map(({ value }) => value),
    ]) {
      for (const name of envNamesIn(text)) used.add(name);
    }
  }
  const defined = new Map(variables.map((variable) => [variable.name, variable]));
  const names = [...used].sort();
  return {
    missing: names.filter((name) => !defined.has(name)),
    withoutValue: names.filter((name) => defined.get(name)?.secret === true && defined.get(name)?.sealedValue === null),
  };
}

/**
 * `sha256:<hex>` of what the plan was made from and what it does: the bots, every connector of both sides (uuid and
 * version), the target environment's variable set version, prune, and each action by name. Any write to either
 * side, or to the target's variables, gives another digest.
 */
function digestOf(input: PlanInput, connectors: readonly PlannedConnector[]): string {
  const versions = (rows: Array<{ uuid: string; version: number }>) => rows.map(({ uuid, version }) => `${uuid}:${version}`).sort();
  const stated = {
    bots: [input.sourceBotUuid, input.targetBotUuid],
    source: versions([...input.source]),
    target: versions(input.target.map(({ connector }) => connector)),
    variables: input.variables.version,
    prune: input.prune,
    actions: connectors.map(({ name, action }) => [name, action]),
  };
  return `sha256:${createHash('sha256').update(JSON.stringify(stated)).digest('hex')}`;
}

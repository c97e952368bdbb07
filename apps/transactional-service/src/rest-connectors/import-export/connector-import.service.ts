import {
  AUTH_FIELDS,
  BASIC_PARTS,
  BasicPart,
  BotPath,
  ConnectorVariableRepository,
  ConsistencyScope,
  CREDENTIAL_FIELDS,
  givenSecretHeader,
  IMPORT_LIMITS,
  ImportConflict,
  ImportedConnectorDto,
  ImportCredentialField,
  ImportedCredentialDto,
  ImportEnvironmentVariableDto,
  ImportEnvironmentVariableStatus,
  ImportNameConflictDto,
  InvalidInputError,
  NamedConnector,
  ReadFrom,
  RestConnectorRepository,
  RestConnectorImportDto,
  RestConnectorImportResultDto,
  RestConnectorWriteDto,
  SECRET_HEADER_CREDENTIALS,
  SECRET_HEADER_PLACEHOLDER,
  SECRETS,
  SecretField,
  StoredAnswer,
} from '@app/domain';
import { AnswerHandle, PLATFORM_VALIDATION_OPTIONS, PlatformValidationPipe } from '@app/platform';
import { BadRequestException, Injectable } from '@nestjs/common';
import { Author } from '../author';
import { ConnectorEnvironments } from '../connector-environment';
import { ConnectorEnvironment } from '../env-destinations';
import { ConnectorBusyException, ImportNamesTakenException } from '../rest-connector.exceptions';
import { RestConnectorsService } from '../rest-connectors.service';
import { CreateConnectors, NewConnector } from '../use-cases/create-connectors.use-case';
import { PreparedUpdate, UpdateConnector } from '../use-cases/update-connector.use-case';
import { ConnectorDraft, CredentialDraft, CredentialField, DRAFT_FIELDS, DraftHeader, ImportDraft } from './connector-draft';
import { EnvironmentUser, ImportEnvironment, importEnvironment } from './import-environment';
import { ImportReader } from './import-reader';
import { ConnectorVariableWrites } from '../../connector-variables/use-cases/connector-variable-writes.use-case';
import { renameConflicts, suffixedPrefix, uniqueNames } from './unique-names';

/** What a missing credential is checked as while nothing is created: a value every rule of its field accepts. */
const STAND_IN = {
  ...Object.fromEntries(CREDENTIAL_FIELDS.map((field) => [field, field === 'basicToken' ? Buffer.from('user:password').toString('base64') : 'stand-in'])),
  basicUsername: 'user',
  basicPassword: 'password',
} as Record<ImportCredentialField, string>;

const isSecret = (field: string): field is SecretField => field in SECRETS;
const isBasicPart = (field: ImportCredentialField): field is BasicPart => (BASIC_PARTS as readonly string[]).includes(field);

type Given = Partial<Record<ImportCredentialField, string>>;

/** One connector of an import, planned: the connector to create, its create body as the answer shows it, and where each credential comes from. */
interface Planned {
  draft: ConnectorDraft;
  /** Its name before uniqueNames made it unique within the import. */
  base: string;
  /** The create body but its credentials, named uniquely within the import (a missing secret header as its stand-in). */
  fields: Record<string, unknown>;
  /** The same as the answer shows it: secret headers as their placeholder. */
  shownFields: Record<string, unknown>;
  /** The credential values the source or the request give (none stands in). */
  given: Partial<Record<CredentialField, string>>;
  /** The request's `credentials.headers`: the secret headers' values. */
  givenHeaders: Record<string, string> | undefined;
  /** The create body, validated, a missing credential as its stand-in. */
  body: RestConnectorWriteDto;
  /** The connector as it would be created, the create's write rules passed. */
  created: NewConnector;
  /** Each credential as the answer shows it: secrets as placeholders. */
  shownValues: Record<string, unknown>;
  credentials: ImportedCredentialDto[];
}

/** What the import does with a planned connector once the bot's names are known. */
interface Resolved {
  planned: Planned;
  /** Its final name. */
  name: string;
  conflict?: ImportNameConflictDto;
  /** Created (`created`, renamed when the conflict said so), left out, or written over the existing connector (`update`). */
  action: { create: NewConnector } | { skip: true } | { update: PreparedUpdate };
}

/** What an import answers for each connector, and stores for a retry with the same Idempotency-Key. */
interface Outcome {
  uuid?: string;
  name: string;
  conflict?: ImportNameConflictDto;
}

/** What an import request carries beside its body: its Idempotency-Key, consistency scope, answer and disconnect. */
export interface ImportRequest {
  retry?: { key: string; sentBody: unknown };
  consistency?: ConsistencyScope;
  answer?: AnswerHandle;
  callerGone?: AbortSignal;
}

/**
 * `POST …/rest-connectors/import` (docs/api-contract.md, "Import and export"): the format's importer reads the
 * source (no network, no file) in a worker thread (ImportReader), each connector it finds becomes a create body with the credentials the source or
 * the request gives, every body is validated exactly as a create would be (the pipe's rules, then the write's, once:
 * CreateConnectors.prepare). A name an active connector of the bot already has is a conflict, resolved as the request's
 * `onConflict` says (fail, skip, rename, or update through UpdateConnector's rules). A dry run answers the plan;
 * otherwise CreateConnectors creates (and updates) them all in one transaction, all or none.
 */
@Injectable()
export class ConnectorImportService {
  private readonly pipe = new PlatformValidationPipe(PLATFORM_VALIDATION_OPTIONS);

  constructor(
    private readonly create: CreateConnectors,
    private readonly update: UpdateConnector,
    private readonly reads: RestConnectorsService,
    private readonly connectors: RestConnectorRepository,
    private readonly reader: ImportReader,
    private readonly environments: ConnectorEnvironments,
    private readonly variables: ConnectorVariableRepository,
    private readonly variableWrites: ConnectorVariableWrites,
  ) {}

  async import(
    path: BotPath,
    dto: RestConnectorImportDto,
    author: Author,
    { retry, consistency, answer: sent, callerGone }: ImportRequest = {},
  ): Promise<RestConnectorImportResultDto> {
    const draft = await this.reader.read(author.caller.sub, dto.format, dto.source, dto.select, { answer: sent, callerGone });
    const now = new Date();
    // The path's environment, read once: every connector of the import is written in it.
    const env = await this.environments.of(path);
    const planned = await this.plan(path, draft, dto, author, now, env);
    const onConflict = dto.onConflict ?? ImportConflict.FAIL;
    if (dto.dryRun !== false) {
      const resolved = await this.resolve(path, planned, onConflict, author, now, env);
      const environment = await this.environmentOf(path, resolved, draft, dto, 'replica');
      return answer(
        true,
        planned,
        draft,
        resolved.map(({ name, conflict }) => ({ name, ...(conflict && { conflict }) })),
        environment,
      );
    }
    const stored = await this.create.batch({
      path,
      author,
      retry: retry && { ...retry, route: 'rest-connectors/import' },
      consistency,
      // Once the key is taken: a retry of a completed import is answered before its own connectors are taken for conflicts.
      batch: async () => {
        const resolved = await this.resolve(path, planned, onConflict, author, now, env);
        const failed = resolved.flatMap(({ name, conflict }) => (conflict?.resolution === ImportConflict.FAIL ? [{ name, uuid: conflict.uuid }] : []));
        if (failed.length > 0) throw new ImportNamesTakenException(failed);
        requireCredentials(resolved);
        const environment = await this.environmentOf(path, resolved, draft, dto, 'primary');
        const outcomes = resolved.map(({ name, conflict, action }): Outcome => ({
          ...('create' in action && { uuid: action.create.connector.uuid }),
          ...('update' in action && { uuid: action.update.current.uuid }),
          name,
          ...(conflict && { conflict }),
        }));
        const stored: StoredAnswer = {
          uuids: outcomes.map(({ uuid }) => uuid ?? '').join(','),
          outcomes: JSON.stringify(outcomes),
          environment: JSON.stringify({ environmentVariables: environment.environmentVariables, warnings: environment.warnings }),
        };
        return {
          connectors: resolved.flatMap(({ action }) => ('create' in action ? [action.create] : [])),
          // Checked against the environment read before: held so in the unit of work (a 409 to send the import again otherwise).
          environmentVersion: resolved.find(({ action }) => 'update' in action && action.update.environmentVersion !== null) ? env.version : null,
          within: async (tx) => {
            for (const { action } of resolved) {
              if ('update' in action && !(await this.update.apply(tx, path, action.update))) throw new ConnectorBusyException(action.update.current.uuid);
            }
            // Through the variables' own write path: the set's version, its history and its change event.
            const written = await this.variableWrites.addMissingInTransaction(tx, path, environment.variablesToFill, author);
            // A variable another write defined since the plan was read is kept: the answer says DEFINED.
            const environmentVariables = environment.environmentVariables.map((variable) =>
              variable.status === ImportEnvironmentVariableStatus.FILLED && !written.includes(variable.name)
                ? { name: variable.name, secret: variable.secret, status: ImportEnvironmentVariableStatus.DEFINED, usedBy: variable.usedBy }
                : variable,
            );
            stored.environment = JSON.stringify({ environmentVariables, warnings: environment.warnings });
          },
          answer: stored,
        };
      },
    });
    return answer(false, planned, draft, outcomesOf(stored, planned), environmentOfStored(stored));
  }

  /**
   * The connector variables of the environment the connectors the import writes (not those it skips) use, against
   * the environment of the path (read from `from`), with what the request's `postmanEnvironment` and the source fill
   * (importEnvironment); its problems are a 400.
   */
  private async environmentOf(
    path: BotPath,
    resolved: Resolved[],
    draft: ImportDraft,
    dto: RestConnectorImportDto,
    from: ReadFrom,
  ): Promise<ImportEnvironment> {
    const set = await this.variables.findSet(path, from);
    const users = resolved.flatMap(({ planned, action }, index): EnvironmentUser[] =>
      'skip' in action ? [] : [{ connector: planned.body as unknown as EnvironmentUser['connector'], label: `connectors.${index} (${planned.draft.where})` }],
    );
    const environment = importEnvironment(users, set.found ? set.value.variables : [], dto.postmanEnvironment, draft.environmentDefaults ?? []);
    if (environment.problems.length > 0) throw new InvalidInputError(environment.problems.slice(0, 50));
    return environment;
  }

  /** Every connector of the draft as a create body, validated and prepared as a create is: all problems of all connectors in one 400. */
  private async plan(path: BotPath, draft: ImportDraft, dto: RestConnectorImportDto, author: Author, now: Date, env: ConnectorEnvironment): Promise<Planned[]> {
    if (draft.connectors.length > IMPORT_LIMITS.connectors) {
      throw new InvalidInputError([
        `source holds ${draft.connectors.length} connectors; an import creates at most ${IMPORT_LIMITS.connectors}: choose some with select`,
      ]);
    }
    const names = uniqueNames(draft.connectors.map(({ name }) => name));
    const given = dto.credentials ?? {};
    const problems: string[] = [];
    const planned: Planned[] = [];
    for (const [index, connector] of draft.connectors.entries()) {
      const credentials = [
        ...connector.credentials.map((credential) => credentialOf(credential, given)),
        ...connector.headers.flatMap((header) => (header.secret === true ? [secretHeaderCredentialOf(header, given.headers)] : [])),
      ];
      const sent = credentialValues(connector.credentials, given, false);
      const values = credentialValues(connector.credentials, given, true);
      const shownValues = Object.fromEntries(Object.entries(values).map(([field, value]) => [field, isSecret(field) ? SECRETS[field].placeholder : value]));
      const fields = createBody({ ...connector, name: names[index] }, given.headers, false);
      const shownFields = createBody({ ...connector, name: names[index] }, given.headers, true);
      try {
        const body = await this.validated({ ...fields, ...values });
        const created = this.create.prepare(path, body, author, env, now);
        planned.push({
          draft: connector,
          base: connector.name,
          fields,
          shownFields,
          given: sent,
          givenHeaders: given.headers,
          body,
          created,
          shownValues,
          credentials,
        });
      } catch (error) {
        problems.push(...problemsOf(error).map((problem) => `connectors.${index} (${connector.where}): ${problem}`));
      }
    }
    if (problems.length > 0) throw new InvalidInputError(problems.slice(0, 50));
    return planned;
  }

  /**
   * The planned connectors against the bot's active names: each one whose name is taken is a conflict, resolved as
   * `onConflict` says (a rename numbered past the bot's names and the import's; an update prepared over the
   * connector as it is now, through UpdateConnector's rules). Every problem of an update in one 400.
   */
  private async resolve(
    path: BotPath,
    planned: Planned[],
    onConflict: ImportConflict,
    author: Author,
    now: Date,
    env: ConnectorEnvironment,
  ): Promise<Resolved[]> {
    const names = planned.map(({ fields }) => String(fields.name));
    const existing = new Map(
      (await this.connectors.activeWithNameKeys(path.botUUID, [...new Set(names.map((name) => name.toLowerCase()))])).map((named) => [named.nameKey, named]),
    );
    const conflicting = new Set(names.flatMap((name, index) => (existing.has(name.toLowerCase()) ? [index] : [])));
    const finalNames = onConflict === ImportConflict.RENAME && conflicting.size > 0 ? await this.renamed(path, planned, names, conflicting, existing) : names;
    const problems: string[] = [];
    const resolved: Resolved[] = [];
    for (const [index, one] of planned.entries()) {
      const taken = existing.get(names[index].toLowerCase());
      const name = finalNames[index];
      if (!taken || onConflict === ImportConflict.FAIL) {
        resolved.push({ planned: one, name, ...(taken && { conflict: conflictOf(taken, onConflict) }), action: { create: one.created } });
        continue;
      }
      const conflict = conflictOf(taken, onConflict);
      if (onConflict === ImportConflict.SKIP) resolved.push({ planned: one, name, conflict, action: { skip: true } });
      else if (onConflict === ImportConflict.RENAME) {
        resolved.push({ planned: one, name, conflict, action: { create: this.create.prepare(path, { ...one.body, name }, author, env, now) } });
      } else {
        try {
          const update = this.update.prepare(await this.reads.findForWrite({ ...path, serviceUUID: taken.uuid }), await this.updateBody(one), author, env, now);
          resolved.push({ planned: one, name, conflict, action: { update } });
        } catch (error) {
          problems.push(...problemsOf(error).map((problem) => `connectors.${index} (${one.draft.where}), updating ${taken.uuid}: ${problem}`));
        }
      }
    }
    if (problems.length > 0) throw new InvalidInputError(problems.slice(0, 50));
    return resolved;
  }

  /** `names` with each conflicting one numbered past every name the bot and the import hold (renameConflicts). */
  private async renamed(
    path: BotPath,
    planned: Planned[],
    names: string[],
    conflicting: Set<number>,
    existing: Map<string, NamedConnector>,
  ): Promise<string[]> {
    const bases = planned.map(({ base }) => base);
    const prefixes = [...new Set([...conflicting].map((index) => suffixedPrefix(bases[index])))];
    const taken = new Set([...existing.keys(), ...(await this.connectors.activeNameKeysStartingWith(path.botUUID, prefixes))]);
    return renameConflicts(names, bases, conflicting, taken);
  }

  /** The PUT body of an update: a secret neither the source nor the request gives is its placeholder, which keeps the stored one. */
  private updateBody({ fields, given, givenHeaders, draft }: Planned): Promise<RestConnectorWriteDto> {
    const kept = Object.fromEntries(
      draft.credentials.flatMap(({ field: asked }) => {
        // Basic auth asked for as a user and a password keeps the stored basicToken they make.
        const field: CredentialField = isBasicPart(asked) ? 'basicToken' : asked;
        return given[field] === undefined ? [[field, isSecret(field) ? SECRETS[field].placeholder : STAND_IN[field]]] : [];
      }),
    );
    // A secret header neither the source nor the request holds keeps the stored value: its placeholder.
    const headers = draft.headers.map((header, index) =>
      header.secret === true && header.value === '' && givenSecretHeader(givenHeaders, header.header) === undefined
        ? { header: header.header, value: SECRET_HEADER_PLACEHOLDER, secret: true }
        : (fields.headers as unknown[])[index],
    );
    return this.validated({ ...fields, headers, ...given, ...kept });
  }

  private async validated(body: Record<string, unknown>): Promise<RestConnectorWriteDto> {
    return (await this.pipe.transform(body, { type: 'body', metatype: RestConnectorWriteDto, data: '' })) as RestConnectorWriteDto;
  }
}

/** A create needs every credential: a 400 naming each one missing and where to send it (an update keeps a stored secret). */
function requireCredentials(resolved: Resolved[]): void {
  const missing = resolved.flatMap(({ planned: { draft, credentials }, action, conflict }, index) =>
    'skip' in action
      ? []
      : credentialsShown(credentials, conflict)
          .filter(({ from }) => from === 'MISSING')
          .map(({ field, header, variable }) => {
            const named = header === undefined ? field : `the secret header ${header}`;
            const given = header === undefined ? field : `headers[${JSON.stringify(header)}]`;
            return `connectors.${index} (${draft.where}): ${named} is not in the source${variable ? ` (it names the variable ${variable})` : ''}: send it in credentials.${given}`;
          }),
  );
  if (missing.length > 0) throw new InvalidInputError(missing);
}

/** Where each credential comes from as answered: a secret missing from an update is the stored one. */
function credentialsShown(credentials: ImportedCredentialDto[], conflict: ImportNameConflictDto | undefined): ImportedCredentialDto[] {
  if (conflict?.resolution !== ImportConflict.UPDATE) return credentials;
  const kept = ({ field }: ImportedCredentialDto) => field === SECRET_HEADER_CREDENTIALS || isSecret(field) || isBasicPart(field);
  return credentials.map((credential) => (credential.from === 'MISSING' && kept(credential) ? { ...credential, from: 'STORED' } : credential));
}

const conflictOf = ({ uuid, name }: NamedConnector, resolution: ImportConflict): ImportNameConflictDto => ({ uuid, name, resolution });

/** The outcomes a create stored (an answer stored before outcomes were: its uuids, the planned names). */
function outcomesOf(stored: StoredAnswer, planned: Planned[]): Outcome[] {
  if (typeof stored.outcomes === 'string') return JSON.parse(stored.outcomes) as Outcome[];
  const uuids = String(stored.uuids).split(',');
  return planned.map(({ fields }, index) => ({ uuid: uuids[index], name: String(fields.name) }));
}

/**
 * The create body of a draft, without its credentials: an auth setting the draft leaves null is left out. A secret
 * header holds its value from the source, else from `credentials.headers`, else a stand-in (a create is then refused
 * as MISSING); `shown` (the answer's body), the placeholder instead.
 */
function createBody(draft: ConnectorDraft, givenHeaders: Record<string, string> | undefined, shown: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(
    DRAFT_FIELDS.flatMap((field) => (draft[field] === null && (AUTH_FIELDS as string[]).includes(field) ? [] : [[field, draft[field]]])),
  );
  body.headers = draft.headers.map(({ header, value, secret }: DraftHeader) => {
    if (secret !== true) return { header, value };
    const sourced = value === '' ? undefined : value;
    const secretValue = shown ? SECRET_HEADER_PLACEHOLDER : (sourced ?? givenSecretHeader(givenHeaders, header) ?? STAND_IN.apiKey);
    return { header, value: secretValue, secret: true };
  });
  return body;
}

/**
 * The create body's credentials: each from the source, else the request's `credentials`, else (`standIn`: a dry run,
 * or a create that then stops at the missing one) its stand-in. basicToken is made of the parts basic auth is asked
 * for as (the Base64 of `basicUsername:basicPassword`, UTF-8, RFC 7617), unless a part is in neither and a basicToken is given.
 */
function credentialValues(credentials: CredentialDraft[], given: Given, standIn: boolean): Partial<Record<CredentialField, string>> {
  const values: Partial<Record<ImportCredentialField, string>> = {};
  for (const { field, value } of credentials) {
    const text = value ?? given[field] ?? (standIn ? STAND_IN[field] : undefined);
    if (text !== undefined) values[field] = text;
  }
  const parts = credentials.filter(({ field }) => isBasicPart(field));
  if (parts.length === 0) return values as Partial<Record<CredentialField, string>>;
  const { basicUsername = '', basicPassword = '', ...rest } = values;
  const partMissing = parts.some(({ field, value }) => value === undefined && given[field] === undefined);
  const others = rest as Partial<Record<CredentialField, string>>;
  if (partMissing && given.basicToken !== undefined) return { ...others, basicToken: given.basicToken };
  if (partMissing && !standIn) return others;
  return { ...others, basicToken: Buffer.from(`${basicUsername}:${basicPassword}`, 'utf8').toString('base64') };
}

function credentialOf({ field, value, variable, where }: CredentialDraft, given: Given): ImportedCredentialDto {
  const fromRequest = given[field] !== undefined || (isBasicPart(field) && given.basicToken !== undefined);
  const from = value !== undefined ? 'SOURCE' : fromRequest ? 'CREDENTIALS' : 'MISSING';
  return { field, from, ...(variable !== undefined && { variable }), where };
}

/** Where a secret header's value comes from, as a credential: `field: headers`, the header named. */
function secretHeaderCredentialOf(
  { header, value, variable, where = '' }: DraftHeader,
  givenHeaders: Record<string, string> | undefined,
): ImportedCredentialDto {
  const from = value !== '' ? 'SOURCE' : givenSecretHeader(givenHeaders, header) !== undefined ? 'CREDENTIALS' : 'MISSING';
  return { field: 'headers', header, from, ...(variable !== undefined && { variable }), where };
}

function problemsOf(error: unknown): string[] {
  if (error instanceof InvalidInputError) return error.problems;
  if (error instanceof BadRequestException) {
    const { message } = error.getResponse() as { message?: unknown };
    return Array.isArray(message) ? message.map(String) : [String(message)];
  }
  throw error;
}

/** What an import answers of the environment: the variables and the warnings about them (a dry run shows a secret's value never). */
type EnvironmentAnswer = Pick<ImportEnvironment, 'environmentVariables' | 'warnings'>;

/** The environment part of an import's stored answer (an answer stored before it had one: none). */
function environmentOfStored(stored: StoredAnswer): EnvironmentAnswer {
  return typeof stored.environment === 'string' ? (JSON.parse(stored.environment) as EnvironmentAnswer) : { environmentVariables: [], warnings: [] };
}

function answer(dryRun: boolean, planned: Planned[], draft: ImportDraft, outcomes: Outcome[], environment: EnvironmentAnswer): RestConnectorImportResultDto {
  return {
    dryRun,
    connectors: planned.map(({ draft: { where }, shownFields, shownValues, credentials }, index): ImportedConnectorDto => {
      const { uuid, name, conflict } = outcomes[index];
      return {
        ...(uuid && { uuid }),
        where,
        ...(conflict && { conflict }),
        connector: { ...shownFields, name, ...shownValues } as unknown as RestConnectorWriteDto,
        credentials: credentialsShown(credentials, conflict),
      };
    }),
    warnings: [...draft.warnings, ...environment.warnings],
    environmentVariables: environment.environmentVariables as ImportEnvironmentVariableDto[],
  };
}

import {
  AUTH_FIELDS,
  BotPath,
  ConsistencyScope,
  CREDENTIAL_FIELDS,
  givenSecretHeader,
  IMPORT_LIMITS,
  ImportedConnectorDto,
  ImportedCredentialDto,
  InvalidInputError,
  RestConnectorImportDto,
  RestConnectorImportResultDto,
  RestConnectorWriteDto,
  SECRET_HEADER_PLACEHOLDER,
  SECRETS,
  SecretField,
} from '@app/domain';
import { AnswerHandle, PLATFORM_VALIDATION_OPTIONS, PlatformValidationPipe } from '@app/platform';
import { BadRequestException, Injectable } from '@nestjs/common';
import { Author } from '../author';
import { CreateConnectors, NewConnector } from '../use-cases/create-connectors.use-case';
import { ConnectorDraft, CredentialDraft, CredentialField, DRAFT_FIELDS, DraftHeader, ImportDraft } from './connector-draft';
import { ImportReader } from './import-reader';
import { uniqueNames } from './unique-names';

/** What a missing credential is checked as while nothing is created: a value every rule of its field accepts. */
const STAND_IN = Object.fromEntries(
  CREDENTIAL_FIELDS.map((field) => [field, field === 'basicToken' ? Buffer.from('user:password').toString('base64') : 'stand-in']),
) as Record<CredentialField, string>;

const isSecret = (field: CredentialField): field is SecretField => field in SECRETS;

/** One connector of an import, planned: the connector to create, its create body as the answer shows it, and where each credential comes from. */
interface Planned {
  draft: ConnectorDraft;
  /** The connector as it would be created (a missing secret as its stand-in), the create's write rules passed. */
  created: NewConnector;
  /** The create body as the answer shows it: secrets as placeholders. */
  shown: RestConnectorWriteDto;
  credentials: ImportedCredentialDto[];
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
 * CreateConnectors.prepare), and a dry run answers the plan; otherwise CreateConnectors creates all the prepared
 * connectors in one transaction, all or none.
 */
@Injectable()
export class ConnectorImportService {
  private readonly pipe = new PlatformValidationPipe(PLATFORM_VALIDATION_OPTIONS);

  constructor(
    private readonly create: CreateConnectors,
    private readonly reader: ImportReader,
  ) {}

  async import(
    path: BotPath,
    dto: RestConnectorImportDto,
    author: Author,
    { retry, consistency, answer: sent, callerGone }: ImportRequest = {},
  ): Promise<RestConnectorImportResultDto> {
    const draft = await this.reader.read(author.caller.sub, dto.format, dto.source, dto.select, { answer: sent, callerGone });
    const planned = await this.plan(path, draft, dto, author);
    const dryRun = dto.dryRun !== false;
    if (!dryRun) {
      const missing = planned.flatMap(({ draft: { where }, credentials }, index) =>
        credentials
          .filter(({ from }) => from === 'MISSING')
          .map(({ field, header, variable }) => {
            const named = header === undefined ? field : `the secret header ${header}`;
            const given = header === undefined ? field : `headers[${JSON.stringify(header)}]`;
            return `connectors.${index} (${where}): ${named} is not in the source${variable ? ` (it names the variable ${variable})` : ''}: send it in credentials.${given}`;
          }),
      );
      if (missing.length > 0) throw new InvalidInputError(missing);
      const uuids = await this.create.many({
        path,
        connectors: planned.map(({ created }) => created),
        author,
        retry: retry && { ...retry, route: 'rest-connectors/import' },
        consistency,
      });
      return answer(false, planned, draft, uuids);
    }
    return answer(true, planned, draft);
  }

  /** Every connector of the draft as a create body, validated and prepared as a create is: all problems of all connectors in one 400. */
  private async plan(path: BotPath, draft: ImportDraft, dto: RestConnectorImportDto, author: Author): Promise<Planned[]> {
    if (draft.connectors.length > IMPORT_LIMITS.connectors) {
      throw new InvalidInputError([
        `source holds ${draft.connectors.length} connectors; an import creates at most ${IMPORT_LIMITS.connectors}: choose some with select`,
      ]);
    }
    const names = uniqueNames(draft.connectors.map(({ name }) => name));
    const given = dto.credentials ?? {};
    const problems: string[] = [];
    const planned: Planned[] = [];
    const now = new Date();
    for (const [index, connector] of draft.connectors.entries()) {
      const credentials = [
        ...connector.credentials.map((credential) => credentialOf(credential, given)),
        ...connector.headers.flatMap((header) => (header.secret === true ? [secretHeaderCredentialOf(header, given.headers)] : [])),
      ];
      const values = Object.fromEntries(connector.credentials.map(({ field, value }) => [field, value ?? given[field] ?? STAND_IN[field]])) as Partial<
        Record<CredentialField, string>
      >;
      const shownValues = Object.fromEntries(connector.credentials.map(({ field }) => [field, isSecret(field) ? SECRETS[field].placeholder : values[field]]));
      const fields = createBody({ ...connector, name: names[index] }, given.headers, false);
      const prefix = `connectors.${index} (${connector.where}):`;
      try {
        const body = (await this.pipe.transform(
          { ...fields, ...values },
          { type: 'body', metatype: RestConnectorWriteDto, data: '' },
        )) as RestConnectorWriteDto;
        const created = this.create.prepare(path, body, author, now);
        const shown = { ...createBody({ ...connector, name: names[index] }, given.headers, true), ...shownValues } as unknown as RestConnectorWriteDto;
        planned.push({ draft: connector, created, shown, credentials });
      } catch (error) {
        problems.push(...problemsOf(error).map((problem) => `${prefix} ${problem}`));
      }
    }
    if (problems.length > 0) throw new InvalidInputError(problems.slice(0, 50));
    return planned;
  }
}

/**
 * The create body of a draft, without its credentials: an auth setting the draft leaves null is left out. A secret
 * header holds its value from the source, else from `credentials.headers`, else a stand-in (a create is then refused
 * as MISSING); `shown` (the answer's body), the placeholder instead.
 */
function createBody(draft: ConnectorDraft, givenHeaders: Record<string, string> | undefined, shown: boolean): Record<string, unknown> {
  const body = Object.fromEntries(
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

function credentialOf({ field, value, variable, where }: CredentialDraft, given: Partial<Record<CredentialField, string>>): ImportedCredentialDto {
  const from = value !== undefined ? 'SOURCE' : given[field] !== undefined ? 'CREDENTIALS' : 'MISSING';
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

function answer(dryRun: boolean, planned: Planned[], draft: ImportDraft, uuids?: string[]): RestConnectorImportResultDto {
  return {
    dryRun,
    connectors: planned.map(({ draft: { where }, shown, credentials }, index): ImportedConnectorDto => ({
      ...(uuids && { uuid: uuids[index] }),
      where,
      connector: shown,
      credentials,
    })),
    warnings: draft.warnings,
  };
}

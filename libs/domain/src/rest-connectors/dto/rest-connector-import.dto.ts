import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsEnum, IsIn, IsOptional, IsString, MaxLength, registerDecorator } from 'class-validator';
import { MaxBytes } from '../../validation/max-bytes.validator';
import { CREDENTIAL_FIELDS, type CredentialField, SECRET_FIELDS } from '../connector-fields';
import { LIMITS } from './rest-connector-write.dto';
import { RestConnectorWriteDto } from './rest-connector-write.dto';

/** What an import reads (docs/api-contract.md, "Import and export"). */
export enum ImportFormat {
  CURL = 'curl',
  OPENAPI = 'openapi',
  POSTMAN = 'postman',
}

/**
 * Every limit of an import, in one place (docs/api-contract.md, "Import and export"). `sourceBytes`: the source, as
 * large as a whole real API description (OpenAI's is 3.4 MB, PagerDuty's 2.7 MB) with room to spare; its parsing
 * takes the import worker's heap, not the app's. `connectors`: what one import creates, in one transaction (a
 * description of about 1,000 operations, such as GitHub's, imports whole). `select`: selectors per request (a
 * Postman folder or a cURL line takes many). `connectorBytes`: the text all connectors of one import hold together
 * (UTF-8 in JSON, counted per connector: an example or a header that many operations share counts once for each);
 * the answer, the versions and the change events each hold about that much. `oneConnectorBytes`: one connector's,
 * what a create's JSON body may hold (256 KiB), so an import makes no connector a create could not, and a
 * connector's change event stays far below NATS's default max_payload (1 MiB) however its text escapes.
 */
const MiB = 1024 * 1024;
export const IMPORT_LIMITS = {
  sourceBytes: 8 * MiB,
  connectors: 1000,
  select: 200,
  selector: 1000,
  connectorBytes: 4 * MiB,
  oneConnectorBytes: 256 * 1024,
  /** A Postman environment (`postmanEnvironment`) as JSON: a real one holds a few dozen values (a form field's limit). */
  postmanEnvironmentBytes: 64 * 1024,
  /** Its values. */
  postmanEnvironmentValues: 500,
  /** One value's key (a Postman variable's name). */
  postmanEnvironmentKey: 200,
  /** One value: a connector variable's value is at most 8,192 characters (docs/api-contract.md, "Connector variables"). */
  environmentValueChars: 8192,
} as const;
/**
 * The request body of an import: the source written as a JSON string (escaping a quote, a backslash or a line break
 * doubles it; a real document grows by 5-20%), twice its limit, and 256 KiB for the rest (`select`, `credentials`).
 */
export const IMPORT_BODY_LIMIT_BYTES = 2 * IMPORT_LIMITS.sourceBytes + 256 * 1024;
/**
 * A `multipart/form-data` import: the file (the source, at most IMPORT_LIMITS.sourceBytes) and its option fields, each at
 * most `fieldBytes` (`credentials`, seven values of LIMITS.secret as JSON, fits), at most `fields` of them (`select` repeats).
 */
export const IMPORT_FORM_LIMITS = { fieldBytes: 64 * 1024, fields: IMPORT_LIMITS.select + 10 } as const;

/** What an import does with a connector whose name an active connector of the bot already has (docs/api-contract.md, "Re-import"). */
export enum ImportConflict {
  FAIL = 'fail',
  SKIP = 'skip',
  RENAME = 'rename',
  UPDATE = 'update',
}

/**
 * The user and password of basic auth, which an import takes apart where its source gives them apart (`-u $SID:$TOKEN`,
 * Postman's basic auth, an OpenAPI http basic scheme): the platform makes basicToken, the Base64 of `user:password`.
 */
export const BASIC_PARTS = ['basicUsername', 'basicPassword'] as const;
export type BasicPart = (typeof BASIC_PARTS)[number];

/**
 * The credentials an import may be given for what its source does not hold (CONNECTOR_FIELDS' `credential`, and the
 * parts of basicToken): each secret, then the others.
 */
export const IMPORT_CREDENTIAL_FIELDS: ReadonlyArray<CredentialField | BasicPart> = [
  ...SECRET_FIELDS,
  'basicPassword',
  ...CREDENTIAL_FIELDS.filter((field) => !(SECRET_FIELDS as string[]).includes(field)),
  'basicUsername',
];
export type ImportCredentialField = CredentialField | BasicPart;

/** Whether an import credential is written only, never answered: a secret, or basic auth's password. */
export function isWriteOnlyCredential(field: ImportCredentialField): boolean {
  return field === 'basicPassword' || (SECRET_FIELDS as string[]).includes(field);
}

/** What `credentials.headers` holds: the value of each secret header by its name (case-insensitively). */
export const SECRET_HEADER_CREDENTIALS = 'headers';

/** The value of `credentials.headers` given for the secret header `header` (names compared case-insensitively), if any. */
export function givenSecretHeader(headers: Readonly<Record<string, string>> | undefined, header: string): string | undefined {
  const name = Object.keys(headers ?? {}).find((given) => given.toLowerCase() === header.toLowerCase());
  return name === undefined ? undefined : headers![name];
}

/** Why one credential's value is refused, or null. */
function valueProblem(field: string, text: unknown): string | null {
  if (typeof text !== 'string' || text.trim() === '') return `${field} must be a non-blank string`;
  if (Buffer.byteLength(text, 'utf8') > LIMITS.secret) return `${field} must be at most ${LIMITS.secret} bytes (UTF-8)`;
  // RFC 7617: the user-id ends at the first colon.
  if (field === 'basicUsername' && text.includes(':')) return 'basicUsername must not hold a colon (RFC 7617)';
  return null;
}

/** Why `credentials` is refused, or null. */
function credentialsProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of string values';
  const problems: Array<string | null> = [];
  for (const [field, text] of Object.entries(value)) {
    if (field === SECRET_HEADER_CREDENTIALS) {
      if (typeof text !== 'object' || text === null || Array.isArray(text)) problems.push('headers must be an object of header names to string values');
      else if (Object.keys(text).length > LIMITS.headers) problems.push(`headers must name at most ${LIMITS.headers} headers`);
      else for (const [header, headerValue] of Object.entries(text)) problems.push(valueProblem(`headers.${header.slice(0, 40)}`, headerValue));
    } else if (!(IMPORT_CREDENTIAL_FIELDS as readonly string[]).includes(field))
      problems.push(`${JSON.stringify(field.slice(0, 40))} is not one of ${[...IMPORT_CREDENTIAL_FIELDS, SECRET_HEADER_CREDENTIALS].join(', ')}`);
    else problems.push(valueProblem(field, text));
  }
  const refused = problems.filter((problem) => problem !== null);
  return refused.length === 0 ? null : refused.join('; ');
}

function IsImportCredentials(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isImportCredentials',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => credentialsProblem(value) === null,
        defaultMessage: (args) => `${args?.property} ${credentialsProblem(args?.value)}`,
      },
    });
}

/** What `credentials` may hold, for the documents: every field optional, write-only, none other (IsImportCredentials checks). */
export class ImportCredentialsDto {
  @ApiPropertyOptional({ type: String, maxLength: LIMITS.secret, writeOnly: true }) basicToken?: string;
  @ApiPropertyOptional({ type: String, maxLength: LIMITS.secret, writeOnly: true }) bearerToken?: string;
  @ApiPropertyOptional({ type: String, maxLength: LIMITS.secret, writeOnly: true }) clientSecret?: string;
  @ApiPropertyOptional({ type: String, maxLength: LIMITS.secret, writeOnly: true }) authPassword?: string;
  @ApiPropertyOptional({ type: String, maxLength: LIMITS.secret, writeOnly: true }) apiKey?: string;
  @ApiPropertyOptional({ type: String, maxLength: LIMITS.secret }) clientId?: string;
  @ApiPropertyOptional({ type: String, maxLength: LIMITS.secret }) authUsername?: string;
  @ApiPropertyOptional({
    type: String,
    maxLength: LIMITS.secret,
    description: "Basic auth's user id, without a colon: with basicPassword, the platform makes basicToken (the Base64 of user:password).",
  })
  basicUsername?: string;
  @ApiPropertyOptional({
    type: String,
    maxLength: LIMITS.secret,
    writeOnly: true,
    description: "Basic auth's password: with basicUsername (or the source's user), the platform makes basicToken.",
  })
  basicPassword?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: LIMITS.secret },
    maxProperties: LIMITS.headers,
    writeOnly: true,
    example: { 'x-api-key': 'example-key-3b9d' },
    description: "The value of each secret header the source names but does not hold, by the header's name (case-insensitively).",
  })
  headers?: Record<string, string>;
}

/** The types of a Postman environment's value: `default` (older exports: `text`, `any`) or `secret`. */
export const POSTMAN_ENVIRONMENT_TYPES = ['default', 'secret', 'text', 'any'] as const;

/** A Postman environment export as an import takes it (`postmanEnvironment`): its values. */
export interface PostmanEnvironment {
  name?: string;
  values: Array<{ key: string; value?: string | number | boolean | null; type?: (typeof POSTMAN_ENVIRONMENT_TYPES)[number]; enabled?: boolean }>;
}

const POSTMAN_ENVIRONMENT_SHAPE = '{ "name", "values": [{ "key", "value", "type": "default" | "secret", "enabled" }] }';

/** Why one value of a Postman environment is refused, or null. */
function environmentValueProblem(value: unknown, index: number): string | null {
  const at = `postmanEnvironment.values[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} must be an object { "key", "value", "type", "enabled" }`;
  const { key, value: text, type, enabled } = value as Record<string, unknown>;
  if (typeof key !== 'string' || key.trim() === '') return `${at}.key must be a non-blank string`;
  if (key.length > IMPORT_LIMITS.postmanEnvironmentKey) return `${at}.key must be at most ${IMPORT_LIMITS.postmanEnvironmentKey} characters`;
  if (text !== undefined && text !== null && !['string', 'number', 'boolean'].includes(typeof text)) return `${at}.value must be a string`;
  if (String(text ?? '').length > IMPORT_LIMITS.environmentValueChars)
    return `${at}.value must be at most ${IMPORT_LIMITS.environmentValueChars} characters (a connector variable's value)`;
  if (type !== undefined && !(POSTMAN_ENVIRONMENT_TYPES as readonly unknown[]).includes(type)) return `${at}.type must be default or secret`;
  if (enabled !== undefined && typeof enabled !== 'boolean') return `${at}.enabled must be true or false`;
  return null;
}

/** Why `postmanEnvironment` is refused, or null. */
export function postmanEnvironmentProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `postmanEnvironment must be a Postman environment export, ${POSTMAN_ENVIRONMENT_SHAPE} (Postman: Environments, the environment's … menu, Export)`;
  }
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > IMPORT_LIMITS.postmanEnvironmentBytes)
    return `postmanEnvironment is ${bytes} bytes as JSON, at most ${IMPORT_LIMITS.postmanEnvironmentBytes / 1024} KiB: leave out the values the import does not need`;
  const { name, values } = value as Record<string, unknown>;
  if (name !== undefined && name !== null && (typeof name !== 'string' || name.length > 200))
    return 'postmanEnvironment.name must be a string of at most 200 characters';
  if (!Array.isArray(values)) return `postmanEnvironment.values must be a list: the export is ${POSTMAN_ENVIRONMENT_SHAPE}`;
  if (values.length > IMPORT_LIMITS.postmanEnvironmentValues)
    return `postmanEnvironment.values must hold at most ${IMPORT_LIMITS.postmanEnvironmentValues} values`;
  const problems = values.map(environmentValueProblem).filter((problem) => problem !== null);
  return problems.length === 0 ? null : problems.slice(0, 10).join('; ');
}

function IsPostmanEnvironment(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isPostmanEnvironment',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => postmanEnvironmentProblem(value) === null,
        defaultMessage: (args) => String(postmanEnvironmentProblem(args?.value)),
      },
    });
}

/** One value of a Postman environment, for the documents. */
export class PostmanEnvironmentValueDto {
  @ApiProperty({ type: String, maxLength: IMPORT_LIMITS.postmanEnvironmentKey, example: 'baseUrl', description: 'The Postman variable it gives a value to.' })
  key: string;

  @ApiPropertyOptional({ type: String, maxLength: IMPORT_LIMITS.environmentValueChars, writeOnly: true, example: 'https://api.example.com/v1' })
  value?: string;

  @ApiPropertyOptional({ enum: POSTMAN_ENVIRONMENT_TYPES, default: 'default', description: '`secret`: a secret connector variable (sealed, never answered).' })
  type?: (typeof POSTMAN_ENVIRONMENT_TYPES)[number];

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'false: ignored, as Postman ignores it.' })
  enabled?: boolean;
}

/** A Postman environment export, for the documents (IsPostmanEnvironment checks it). */
export class PostmanEnvironmentDto {
  @ApiPropertyOptional({ type: String, maxLength: 200, example: 'Shop staging' })
  name?: string;

  @ApiProperty({ type: [PostmanEnvironmentValueDto], maxItems: IMPORT_LIMITS.postmanEnvironmentValues })
  values: PostmanEnvironmentValueDto[];
}

const ON_CONFLICT_DESCRIPTION =
  'What a connector whose name an active connector of the bot already has (case-insensitively) does. `fail` (the default): the ' +
  'dry run lists each conflict, a create is a 409 naming every conflicting name. `skip`: it is left out. `rename`: it gets the first free ' +
  '` (2)`, ` (3)`, … suffix (within the name limit). `update`: it replaces the existing connector, as a PUT without If-Match would (a new ' +
  'version and its change event; nothing when nothing changed); a secret the import does not hold keeps the stored one while its ' +
  'destination is unchanged.';

/** Body of `POST …/rest-connectors/import`. */
export class RestConnectorImportDto {
  @ApiProperty({
    enum: ImportFormat,
    enumName: 'ImportFormat',
    description: 'What `source` is: a cURL command, an OpenAPI 3.x (or Swagger 2.0) document, or a Postman collection v2.1.',
  })
  @IsDefined()
  @IsEnum(ImportFormat)
  format: ImportFormat;

  @ApiProperty({
    type: String,
    maxLength: IMPORT_LIMITS.sourceBytes,
    example:
      "curl -X POST 'https://api.example.com/v1/orders' -H 'Content-Type: application/json' -H 'Authorization: Bearer $TOKEN' --data-raw '{\"sku\": 42}'",
    description:
      `The text to import, at most ${IMPORT_LIMITS.sourceBytes / MiB} MiB (UTF-8): a cURL command line (POSIX shell quoting), an OpenAPI document (JSON or YAML) or a ` +
      'Postman collection (JSON). Nothing it names is fetched or read: no URL, no file.',
  })
  @IsDefined()
  @IsString()
  @MaxBytes(IMPORT_LIMITS.sourceBytes)
  source: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: IMPORT_LIMITS.selector },
    maxItems: IMPORT_LIMITS.select,
    example: ['getPetById', 'POST /pets'],
    description:
      'Which parts to import: OpenAPI operationIds or `METHOD /path`s, Postman item paths (`Folder/Request`, or a folder for all under it), ' +
      'cURL commands by the line they start on (`line 3`). ' +
      `Without it, everything (at most ${IMPORT_LIMITS.connectors} connectors). A selector that matches nothing is a 400 naming it. ` +
      'Only the selected operations of an OpenAPI document are validated and have their `$ref`s expanded: the rest may be large or broken.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(IMPORT_LIMITS.select)
  @IsString({ each: true })
  @MaxLength(IMPORT_LIMITS.selector, { each: true })
  select?: string[];

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'true (the default): answer what would be created and create nothing. false: create every connector in one transaction, all or none.',
  })
  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === null ? true : value))
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({
    type: ImportCredentialsDto,
    example: { bearerToken: 'example-token-5f1c9e7a2b4d' },
    description:
      'Values for the credentials the source declares but does not hold (an OpenAPI security scheme, a `$TOKEN` or `{{token}}` variable), by ' +
      `field: ${IMPORT_CREDENTIAL_FIELDS.join(', ')}; and \`headers\`, the value of each secret header by its name. ` +
      'Each goes to every imported connector that needs it; a value the source holds wins. ' +
      'Basic auth is asked for as basicUsername and basicPassword where the source gives them apart (`-u $SID:$TOKEN`, a Postman or ' +
      'OpenAPI basic scheme), only the part the source does not hold; the platform makes basicToken from them (a basicToken given instead is taken as it is). ' +
      'Write-only: never answered or logged.',
  })
  @IsOptional()
  @IsImportCredentials()
  credentials?: Partial<Record<ImportCredentialField, string>> & { headers?: Record<string, string> };

  @ApiPropertyOptional({
    enum: ImportConflict,
    enumName: 'ImportConflict',
    default: ImportConflict.FAIL,
    description: ON_CONFLICT_DESCRIPTION,
  })
  @IsOptional()
  @IsEnum(ImportConflict)
  onConflict?: ImportConflict;

  @ApiPropertyOptional({
    type: PostmanEnvironmentDto,
    example: { name: 'Shop staging', values: [{ key: 'baseUrl', value: 'https://staging.example.com/v1', type: 'default', enabled: true }] },
    description:
      'A Postman environment export (its JSON, at most ' +
      `${IMPORT_LIMITS.postmanEnvironmentBytes / 1024} KiB) whose values fill the connector variables the imported connectors use (\`{{env.NAME}}\`) and ` +
      'the environment of the path does not define yet: a value of type `secret` becomes a secret variable bound to the hosts of the imported ' +
      'connectors that use it; a defined variable is never overwritten; a disabled or empty value is ignored. The answer lists each variable ' +
      '(`environmentVariables`); a dry run writes nothing. Write-only: never answered or logged.',
  })
  @IsOptional()
  @IsPostmanEnvironment()
  postmanEnvironment?: PostmanEnvironment;
}

const SOURCE_BODY_ONLY =
  'Only with the source as the body (text/plain, application/yaml, application/json of the document itself) or a multipart/form-data upload';

/**
 * The query string of an import whose body is the source itself or an upload: the JSON import request's options but
 * `credentials` (a query string is kept by proxies, access logs and browser histories). Validated as the strings
 * they are sent as; the body reader makes the import request of them (import-body.ts).
 */
export class RestConnectorImportQueryDto {
  @ApiPropertyOptional({
    enum: ImportFormat,
    enumName: 'ImportFormat',
    description: `${SOURCE_BODY_ONLY} (then required, here or as a form field): what the body is. With it, an application/json body is the document itself.`,
  })
  @IsOptional()
  @IsEnum(ImportFormat)
  format?: ImportFormat;

  @ApiPropertyOptional({ type: Boolean, default: true, description: `${SOURCE_BODY_ONLY}: as \`dryRun\` of the JSON import request.` })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'dryRun must be true or false' })
  dryRun?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: IMPORT_LIMITS.selector },
    maxItems: IMPORT_LIMITS.select,
    description: `${SOURCE_BODY_ONLY}: as \`select\` of the JSON import request, the parameter repeated (\`select=a&select=b\`).`,
  })
  @IsOptional()
  @IsString({ each: true })
  select?: string | string[];

  @ApiPropertyOptional({
    enum: ImportConflict,
    enumName: 'ImportConflict',
    default: ImportConflict.FAIL,
    description: `${SOURCE_BODY_ONLY}: as \`onConflict\` of the JSON import request.`,
  })
  @IsOptional()
  @IsEnum(ImportConflict)
  onConflict?: ImportConflict;
}

export class ImportWarningDto {
  @ApiProperty({
    example: 'IGNORED_OPTION',
    description: 'Stable, UPPER_SNAKE_CASE: clients may branch on it (docs/api-contract.md, "Import and export", says where each format lists them).',
  })
  code: string;

  @ApiProperty({ example: 'line 2, --compressed', description: 'Where in the source: a line, an operation, an item.' })
  where: string;

  @ApiProperty({ example: '--compressed is ignored: a connector does not ask for a compressed answer' })
  message: string;
}

export class ImportedCredentialDto {
  @ApiProperty({
    enum: [...IMPORT_CREDENTIAL_FIELDS, SECRET_HEADER_CREDENTIALS],
    example: 'bearerToken',
    description: '`headers` for a secret header (named by `header`), given in `credentials.headers`.',
  })
  field: ImportCredentialField | typeof SECRET_HEADER_CREDENTIALS;

  @ApiPropertyOptional({ type: String, example: 'x-api-key', description: 'With `field: headers`: the secret header.' })
  header?: string;

  @ApiProperty({
    enum: ['SOURCE', 'CREDENTIALS', 'STORED', 'MISSING'],
    example: 'SOURCE',
    description:
      "Where its value comes from: the source itself, the request's `credentials`, the connector it updates (`onConflict: update`: the " +
      'stored secret is kept), or nowhere yet (a create then is a 400).',
  })
  from: 'SOURCE' | 'CREDENTIALS' | 'STORED' | 'MISSING';

  @ApiPropertyOptional({ type: String, example: 'TOKEN', description: 'The variable the source names instead of a value (`$TOKEN`, `{{token}}`).' })
  variable?: string;

  @ApiProperty({ example: 'line 1, -H Authorization' })
  where: string;
}

export class ImportNameConflictDto {
  @ApiProperty({ format: 'uuid', description: 'The active connector of the bot that has the name.' })
  uuid: string;

  @ApiProperty({ example: 'Get order', description: 'Its name (the same case-insensitively).' })
  name: string;

  @ApiProperty({
    enum: ImportConflict,
    enumName: 'ImportConflict',
    description:
      'What the import does about it (`onConflict`): `fail` refuses the create (409), `skip` leaves the connector out, `rename` gives it the name in `connector.name`, `update` writes it over that connector.',
  })
  resolution: ImportConflict;
}

export class ImportedConnectorDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The created connector, or the one updated (`onConflict: update`); not in a dry run, nor for a connector skipped.',
  })
  uuid?: string;

  @ApiPropertyOptional({
    type: ImportNameConflictDto,
    description: 'Only when an active connector of the bot already has its name (before any rename): which, and what the import does about it.',
  })
  conflict?: ImportNameConflictDto;

  @ApiProperty({ example: 'line 1', description: 'Where in the source it comes from.' })
  where: string;

  @ApiProperty({
    type: RestConnectorWriteDto,
    description: 'The create body, valid as POST …/rest-connectors takes it, except that secrets show as their placeholders (`<BEARER_TOKEN>`, …).',
  })
  connector: RestConnectorWriteDto;

  @ApiProperty({ type: [ImportedCredentialDto], description: 'The credentials its auth settings need, by field, never by value.' })
  credentials: ImportedCredentialDto[];
}

/** Whether the environment of the path gives a connector variable the import uses a value. */
export enum ImportEnvironmentVariableStatus {
  DEFINED = 'DEFINED',
  MISSING = 'MISSING',
  FILLED = 'FILLED',
}

export class ImportEnvironmentVariableDto {
  @ApiProperty({ type: String, maxLength: 60, example: 'baseUrl', description: 'The connector variable (`{{env.baseUrl}}`), by its name without `env.`.' })
  name: string;

  @ApiProperty({ type: Boolean, description: 'A secret variable (sealed; its value never answered).' })
  secret: boolean;

  @ApiProperty({
    enum: ImportEnvironmentVariableStatus,
    enumName: 'ImportEnvironmentVariableStatus',
    description:
      '`DEFINED`: the environment has it (never overwritten). `MISSING`: it has none and the import gives none: set it with PUT …/connector-variables ' +
      'before a test run. `FILLED`: the import writes it (a dry run: would write it), from `source`.',
  })
  status: ImportEnvironmentVariableStatus;

  @ApiProperty({ type: Number, example: 3, description: 'How many of the imported connectors use it.' })
  usedBy: number;

  @ApiPropertyOptional({
    enum: ['POSTMAN_ENVIRONMENT', 'OPENAPI_SERVER'],
    description: "With `FILLED`: the request's postmanEnvironment, or the default of the OpenAPI server variable.",
  })
  source?: 'POSTMAN_ENVIRONMENT' | 'OPENAPI_SERVER';

  @ApiPropertyOptional({ type: String, maxLength: IMPORT_LIMITS.environmentValueChars, description: 'With `FILLED`, a plain variable: its value.' })
  value?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 300 },
    maxItems: 1000,
    example: ['https://api.example.com'],
    description: 'With `FILLED`, a secret variable: where it may be sent (`scheme://host:port`), the hosts of the imported connectors that use it.',
  })
  destinations?: string[];
}

/** Answer of an import: a dry run's plan, or what was created. */
export class RestConnectorImportResultDto {
  @ApiProperty({ example: true })
  dryRun: boolean;

  @ApiProperty({ type: [ImportedConnectorDto] })
  connectors: ImportedConnectorDto[];

  @ApiProperty({ type: [ImportWarningDto], description: 'What was imported differently from the source, or left out; never dropped silently.' })
  warnings: ImportWarningDto[];

  @ApiProperty({
    type: [ImportEnvironmentVariableDto],
    maxItems: 1000,
    description: 'The connector variables of the environment (`{{env.NAME}}`) the imported connectors use, against the environment of the path.',
  })
  environmentVariables: ImportEnvironmentVariableDto[];
}

/** `?format=` of `GET …/rest-connectors/{serviceUUID}/export`. */
export class RestConnectorExportQueryDto {
  @ApiProperty({ enum: ImportFormat, enumName: 'ImportFormat', description: 'curl (text/plain), openapi or postman (application/json).' })
  @IsDefined()
  @IsEnum(ImportFormat)
  @MaxLength(20)
  format: ImportFormat;
}

/** Import bodies for Swagger UI, each working as shown against the demo bot of `npm start` (test/openapi sends them). */
export const REST_CONNECTOR_IMPORT_EXAMPLES = {
  curl: {
    summary: 'A cURL command (dry run)',
    value: {
      format: ImportFormat.CURL,
      source:
        "curl -X POST 'https://api.example.com/v1/orders?source=bot' \\\n  -H 'Content-Type: application/json; charset=utf-8' \\\n" +
        '  -H "Authorization: Bearer $ORDERS_TOKEN" \\\n  --data-raw \'{"sku": 42, "quantity": 1}\'',
      dryRun: true,
    },
  },
  openapi: {
    summary: 'An OpenAPI document, one operation selected, created',
    value: {
      format: ImportFormat.OPENAPI,
      source: JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Parcels', version: '1.0.0' },
        servers: [{ url: 'https://parcels.example.com/v2' }],
        components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
        security: [{ key: [] }],
        paths: {
          '/track/{trackingNumber}': {
            get: {
              operationId: 'trackParcel',
              summary: 'Track a parcel',
              parameters: [{ name: 'trackingNumber', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { 200: { description: 'Where the parcel is' } },
            },
          },
        },
      }),
      select: ['trackParcel'],
      credentials: { apiKey: 'example-key-8d2f41c7b9e3' },
      dryRun: false,
    },
  },
} as const;

/** The sources of the import examples as they are, for the bodies that take a source as it is (text/plain, YAML, a file). */
export const REST_CONNECTOR_IMPORT_SOURCE_EXAMPLES = {
  curl: REST_CONNECTOR_IMPORT_EXAMPLES.curl.value.source,
  yaml: [
    'openapi: 3.0.3',
    'info: { title: Parcels, version: 1.0.0 }',
    'servers:',
    '  - url: https://parcels.example.com/v2',
    'paths:',
    '  /track/{trackingNumber}:',
    '    get:',
    '      operationId: trackParcel',
    '      parameters:',
    '        - { name: trackingNumber, in: path, required: true, schema: { type: string } }',
    '      responses:',
    "        '200': { description: Where the parcel is }",
    '',
  ].join('\n'),
} as const;

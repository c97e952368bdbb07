import {
  AUTH_FIELDS,
  type AuthField,
  AuthType,
  ContentType,
  CREDENTIAL_FIELDS,
  type CredentialField,
  EXPORTED_FIELDS,
  type ExportedField,
  type ImportCredentialField,
  InvalidInputError,
  RestConnectorDto,
  WHOLE_PLACEHOLDER,
  withEscapesAsSent,
} from '@app/domain';

/**
 * What an importer makes of a source (a cURL command, an OpenAPI document, a Postman collection), before the
 * service turns it into create bodies: plain data, no secret value outside `credentials`. Importers are pure
 * functions of their text: no network, no file system, no database.
 */
export interface ImportDraft {
  connectors: ConnectorDraft[];
  warnings: ImportWarning[];
  /**
   * Values the source gives the connector variables of the environment its connectors use (`{{env.NAME}}`): an OpenAPI
   * server variable's default. The import fills a variable the environment lacks with it (importEnvironment).
   */
  environmentDefaults?: Array<{ name: string; value: string; where: string }>;
}

/** The fields of a draft besides its credentials and where it comes from: an export's but the credentials, in the record's order. */
export type DraftField = Exclude<ExportedField, CredentialField>;
export const DRAFT_FIELDS = EXPORTED_FIELDS.filter((field): field is DraftField => !(CREDENTIAL_FIELDS as string[]).includes(field));

/** One connector the source describes: the fields of a create body an export writes, its credentials apart. */
export interface ConnectorDraft extends Pick<ExportedConnector, DraftField> {
  /** 1-100 characters; the service makes names unique within one import. */
  name: string;
  /** Absolute http(s) URL; `{{variable}}` placeholders allowed (not in scheme, user info, host or port with an auth type). */
  url: string;
  /**
   * Never `Authorization` or an API-key header that became the auth settings. A credential-looking header that is not
   * the auth type's is a secret header (`secret: true`), never a plain one: with its value when the source holds one,
   * else the variable the source names (`value` then empty), taken from the request's `credentials.headers`.
   */
  headers: DraftHeader[];
  /**
   * Every credential the auth settings need (`clientId` and `authUsername` included), each with its value when the
   * source holds one, or the variable the source names instead (`$TOKEN`, `{{token}}`), or neither (an OpenAPI
   * security scheme holds no value). The service takes a missing one from the request's `credentials`.
   */
  credentials: CredentialDraft[];
  /**
   * An export's own tags (its `# connector:` line, Postman block, `x-connector-name` operation), else what the source
   * groups it by (OpenAPI operation `tags`, the Postman folders it is in), under the connector tag rules
   * (connectorTags, draft-tags.ts).
   */
  tags: Array<{ name: string }>;
  /** Where in the source this connector comes from: `line 1`, `operation GET /pets`, `item "Users / Create"`. */
  where: string;
}

/** The auth settings of a draft (CONNECTOR_FIELDS' `auth`): what each importer makes of the credentials it finds. */
export type AuthSettings = Pick<ConnectorDraft, Extract<AuthField, DraftField> | 'credentials'>;

/** No authentication: every other auth setting null. */
export const NO_AUTH: AuthSettings = {
  ...(Object.fromEntries(DRAFT_FIELDS.filter((field) => (AUTH_FIELDS as string[]).includes(field)).map((field) => [field, null])) as Record<
    Exclude<keyof AuthSettings, 'authType' | 'credentials'>,
    null
  >),
  authType: AuthType.AUTH_NONE,
  credentials: [],
};

/** The secrets and the other credentials the auth settings need (CONNECTOR_FIELDS' `credential`). */
export type { CredentialField };

export interface CredentialDraft {
  /** A credential of the auth settings, or a part of basicToken (basicUsername, basicPassword) the service makes it from. */
  field: ImportCredentialField;
  /** The value the source holds; never logged, never answered. */
  value?: string;
  /** The variable the source names instead of a value (without `$` or braces). */
  variable?: string;
  /** Where the source declares it: `line 3, -H Authorization`, `security scheme bearerAuth`. */
  where: string;
}

export interface DraftHeader {
  header: string;
  value: string;
  secret?: boolean;
  /** A secret header's variable that the source names instead of a value (without `$` or braces). */
  variable?: string;
  /** A secret header's place in the source, as in CredentialDraft. */
  where?: string;
}

/**
 * A credential-looking header that is not the auth type's, as a secret header: its value when the source holds it
 * literally, else (a whole `{{variable}}`, or a value with a variable in it) asked for whole, with the variable named
 * when it is the whole value.
 */
export function secretHeaderOf(header: string, value: string, where: string): DraftHeader {
  const whole = WHOLE_PLACEHOLDER.exec(value.trim());
  if (whole) return { header, value: '', secret: true, variable: whole[1], where };
  if (/\{\{\s*[^{}\s]+\s*\}\}/.test(value)) return { header, value: '', secret: true, where };
  return { header, value, secret: true, where };
}

/**
 * The body as it is sent, but for its placeholders: an escaped one as the text it stands for. A multipart body is
 * its parts' JSON, whose escapes are the JSON's own: as stored.
 */
export function bodyAsSent(connector: ExportedConnector): string {
  return connector.contentType === ContentType.MULTIPART_FORM_DATA ? connector.body : withEscapesAsSent(connector.body);
}

/** The connector's own Content-Type header's value, if it has one. */
export function declaredType(connector: ExportedConnector): string | undefined {
  return connector.headers.find(({ header }) => header.toLowerCase() === 'content-type')?.value;
}

/**
 * The variable an export writes for a secret header (`SECRET_` and its name upper-cased, each run of other characters
 * an `_`: `x-api-key` is `SECRET_X_API_KEY`), which the importers read back as that secret header.
 */
export const secretHeaderVariable = (header: string) => `SECRET_${header.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;

/** Whether `value` is the exporter's variable for the secret header `header` (`{{SECRET_X_API_KEY}}` for `x-api-key`). */
export const isExportedSecretHeader = (header: string, value: string) => value.trim() === `{{${secretHeaderVariable(header)}}}`;

/** Something imported differently from the source, or left out: never dropped silently. */
export interface ImportWarning {
  /** UPPER_SNAKE_CASE, stable: clients branch on it (each importer documents its codes). */
  code: string;
  /** Where in the source, as in `ConnectorDraft.where`. */
  where: string;
  /** What happened and what to do, in words. */
  message: string;
}

/** What a format's importer is given besides the source. */
export interface ImportOptions {
  /**
   * Which parts to import, by the format's names: OpenAPI `operationId`s or `METHOD /path`s, Postman item paths
   * (`Folder/Request`); undefined imports everything. A selection that matches nothing is an ImportSourceError.
   */
  select?: string[];
}

export type Importer = (source: string, options: ImportOptions) => Promise<ImportDraft>;

/** A source that cannot be imported: a 400 that says what is wrong and where. */
export class ImportSourceError extends InvalidInputError {
  constructor(
    readonly where: string,
    reason: string,
  ) {
    super([`source ${where}: ${reason}`]);
  }
}

/**
 * A saved connector as an exporter sees it: the fields of its record an export writes (CONNECTOR_FIELDS' `exported`),
 * with the two credentials that are not secrets; its secrets never (only whether the auth settings use one).
 */
export type ExportedConnector = Pick<RestConnectorDto, ExportedField>;

/** A record as the exporters take it: its exported fields, each header a pair (a secret one marked, its value the placeholder), each tag its name. */
export function exportedOf(record: ExportedConnector): ExportedConnector {
  const connector = Object.fromEntries(EXPORTED_FIELDS.map((field) => [field, record[field]])) as ExportedConnector;
  connector.headers = record.headers.map(({ header, value, secret }) => (secret === true ? { header, value, secret } : { header, value }));
  connector.tags = record.tags.map(({ name }) => ({ name }));
  return connector;
}

export type Exporter = (connector: ExportedConnector) => string;

/**
 * FROZEN: never change this file. It is what ConnectorVersions1795564800000 used when it was written (commit 1d99b91):
 * the row converter of libs/domain/src/database/table-rows.ts, the column lists of rest_connectors,
 * rest_connector_tags and rest_connector_versions then, and `bindable` of libs/domain/src/database/database.ts,
 * copied and trimmed to what the migration calls. A migration carries its own copy so that what it reads and writes
 * never follows later changes to the entities or the database helpers; change the live code, never this.
 */

/** How a column's value is stored: DATETIME(3) in UTC, a JSON document in a text column, a number, or text as is. */
type ColumnKind = 'text' | 'int' | 'date' | 'json';

type ColumnsOf<T, K extends keyof T> = { readonly [P in K]: readonly [column: string, kind: ColumnKind] };

/**
 * SQLite's text of a DATETIME, read as TypeORM's SQLite driver reads it: `YYYY-MM-DD HH:MM:SS.mmm` is UTC; an ISO
 * text with its own zone keeps it.
 */
function utcDateOf(text: string): Date {
  let iso = /^\d{4}-\d\d-\d\d \d\d:\d\d/.test(text) ? text.replace(' ', 'T') : text;
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(iso)) iso += 'Z';
  return new Date(iso);
}

function fromStored(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'int':
      return Number(value);
    case 'date':
      return value instanceof Date ? value : utcDateOf(String(value));
    case 'json':
      return typeof value === 'string' ? JSON.parse(value) : value;
    default:
      return value;
  }
}

function toStored(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'json') return JSON.stringify(value);
  return value;
}

/** The row converter of one table: which property is which column, and how its value is stored. */
class TableRows<T, K extends keyof T & string> {
  private readonly entries: Array<[K, string, ColumnKind]>;
  /** `column, column, ...`: the column list of a SELECT or an INSERT. */
  readonly names: string;
  private readonly placeholders: string;

  constructor(
    readonly table: string,
    columns: ColumnsOf<T, K>,
  ) {
    this.entries = (Object.keys(columns) as K[]).map((property) => [property, columns[property][0], columns[property][1]]);
    this.names = this.entries.map(([, column]) => column).join(', ');
    this.placeholders = this.entries.map(() => '?').join(', ');
  }

  /** `INSERT INTO table (columns) VALUES (?, …), …`: `count` rows. */
  insertSql(count: number): string {
    return `INSERT INTO ${this.table} (${this.names}) VALUES ${Array.from({ length: count }, () => `(${this.placeholders})`).join(', ')}`;
  }

  /** The values of the columns, in `names` order, as they are stored. */
  values(value: Pick<T, K>): unknown[] {
    return this.entries.map(([property, , kind]) => toStored(kind, value[property]));
  }

  /** A row the database answered, converted back. */
  from(row: Record<string, unknown>): Pick<T, K> {
    const value: Record<string, unknown> = {};
    for (const [property, column, kind] of this.entries) value[property] = fromStored(kind, row[column]);
    return value as Pick<T, K>;
  }
}

const tableRows =
  <T>() =>
  <K extends keyof T & string>(table: string, columns: ColumnsOf<T, K>): TableRows<T, K> =>
    new TableRows<T, K>(table, columns);

/** A row of rest_connectors as it was then. */
export interface ConnectorRow {
  uuid: string;
  botUuid: string;
  name: string;
  nameKey: string;
  activeNameKey: string | null;
  description: string | null;
  requestType: string;
  url: string;
  headers: Array<{ header: string; value: string }>;
  contentType: string;
  authType: string;
  grantType: string | null;
  basicToken: string | null;
  bearerToken: string | null;
  clientId: string | null;
  clientSecret: string | null;
  oauthUrl: string | null;
  authUsername: string | null;
  authPassword: string | null;
  body: string;
  output: string;
  createdAt: Date;
  createdBy: string;
  updatedAt: Date;
  updatedBy: string;
  updatedByImage: string | null;
  deletedAt: Date | null;
  deletedBy: string | null;
  version: number;
}

export const CONNECTOR_ROWS = tableRows<ConnectorRow>()('rest_connectors', {
  uuid: ['uuid', 'text'],
  botUuid: ['bot_uuid', 'text'],
  name: ['name', 'text'],
  nameKey: ['name_key', 'text'],
  activeNameKey: ['active_name_key', 'text'],
  description: ['description', 'text'],
  requestType: ['request_type', 'text'],
  url: ['url', 'text'],
  headers: ['headers', 'json'],
  contentType: ['content_type', 'text'],
  authType: ['auth_type', 'text'],
  grantType: ['grant_type', 'text'],
  basicToken: ['basic_token', 'text'],
  bearerToken: ['bearer_token', 'text'],
  clientId: ['client_id', 'text'],
  clientSecret: ['client_secret', 'text'],
  oauthUrl: ['oauth_url', 'text'],
  authUsername: ['auth_username', 'text'],
  authPassword: ['auth_password', 'text'],
  body: ['body', 'text'],
  output: ['output', 'text'],
  createdAt: ['created_at', 'date'],
  createdBy: ['created_by', 'text'],
  updatedAt: ['updated_at', 'date'],
  updatedBy: ['updated_by', 'text'],
  updatedByImage: ['updated_by_image', 'text'],
  deletedAt: ['deleted_at', 'date'],
  deletedBy: ['deleted_by', 'text'],
  version: ['version', 'int'],
});

/** A row of rest_connector_tags. */
export interface TagRow {
  connectorUuid: string;
  nameKey: string;
  name: string;
  position: number;
}

export const TAG_ROWS = tableRows<TagRow>()('rest_connector_tags', {
  connectorUuid: ['connector_uuid', 'text'],
  nameKey: ['name_key', 'text'],
  name: ['name', 'text'],
  position: ['position', 'int'],
});

/** A row of rest_connector_versions as this migration creates the table. */
export interface VersionRow {
  connectorUuid: string;
  version: number;
  operation: 'CREATED' | 'UPDATED' | 'DELETED';
  updatedAt: Date;
  updatedBy: string;
  updatedByImage: string | null;
  changedFields: string[];
  snapshot: unknown;
}

export const VERSION_ROWS = tableRows<VersionRow>()('rest_connector_versions', {
  connectorUuid: ['connector_uuid', 'text'],
  version: ['version', 'int'],
  operation: ['operation', 'text'],
  updatedAt: ['updated_at', 'date'],
  updatedBy: ['updated_by', 'text'],
  updatedByImage: ['updated_by_image', 'text'],
  changedFields: ['changed_fields', 'json'],
  snapshot: ['snapshot', 'json'],
});

/**
 * Parameters as the engine stores them, as TypeORM binds them: a Date is a DATETIME(3) in UTC (mysql2 writes it in
 * the connection's time zone, `Z`; SQLite keeps the text `YYYY-MM-DD HH:MM:SS.mmm`), a boolean 1 or 0.
 */
export function bindable(params: readonly unknown[], sqlite: boolean): unknown[] {
  return params.map((value) => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (sqlite && value instanceof Date) return value.toISOString().slice(0, 23).replace('T', ' ');
    return value;
  });
}

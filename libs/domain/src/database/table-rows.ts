import { getMetadataArgsStorage } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/**
 * How a column's value is stored. `date`: DATETIME(3) in UTC (mysql2 reads a Date, SQLite text);
 * `json`: a JSON document in a text column; `bool`: 1 or 0; `int`: a number (MySQL's COUNT and BIGINT
 * arrive as text); `text`: as is.
 */
export type ColumnKind = 'text' | 'int' | 'bool' | 'date' | 'json';

export type ColumnsOf<T, K extends keyof T> = { readonly [P in K]: readonly [column: string, kind: ColumnKind] };

/**
 * SQLite's text of a DATETIME, read as TypeORM's SQLite driver reads it: `YYYY-MM-DD HH:MM:SS.mmm` (what the
 * platform writes) is UTC; an ISO text with its own zone keeps it.
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
    case 'bool':
      return Number(value) !== 0;
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

/**
 * The row converter of one table: which property is which column, and how its value is stored. Each entity's is
 * derived from its TypeORM decorators once, at module load (`entityRows`, beside the entity class), and
 * test/database/table-rows.e2e-spec.ts holds it equal to what TypeORM's DataSource makes of the entity on both
 * engines. It writes the SQL fragments of column lists and converts in both directions, so repositories never
 * hydrate entities. Column names are written unquoted (one text for both engines): a column may not be named like an
 * SQL keyword (the e2e test checks the names).
 */
export class TableRows<T, K extends keyof T & string = keyof T & string> {
  private readonly entries: Array<[K, string, ColumnKind]>;
  /** `column, column, ...`: the column list of an INSERT. */
  readonly names: string;
  /** `?, ?, ...`: one placeholder per column. */
  readonly placeholders: string;
  /** `:property, ...`: the named placeholders of its values, in `names` order (a Statement binds them by property). */
  readonly parameters: string;
  /** `column = :property, ...`: the SET list of an UPDATE of these columns (a Statement binds them by property). */
  readonly assignments: string;
  private readonly selects = new Map<string, string>();

  constructor(
    readonly table: string,
    private readonly columns: ColumnsOf<T, K>,
  ) {
    this.entries = (Object.keys(columns) as K[]).map((property) => [property, columns[property][0], columns[property][1]]);
    this.names = this.entries.map(([, column]) => column).join(', ');
    this.placeholders = this.entries.map(() => '?').join(', ');
    this.parameters = this.entries.map(([property]) => `:${property}`).join(', ');
    this.assignments = this.entries.map(([property, column]) => `${column} = :${property}`).join(', ');
  }

  /** `INSERT INTO table (columns) VALUES (?, …), …`: `count` rows. */
  insertSql(count: number): string {
    return `INSERT INTO ${this.table} (${this.names}) VALUES ${Array.from({ length: count }, () => `(${this.placeholders})`).join(', ')}`;
  }

  /** The same table, some of its columns. */
  pick<P extends K>(...properties: P[]): TableRows<T, P> {
    const picked = Object.fromEntries(properties.map((property) => [property, this.columns[property]])) as ColumnsOf<T, P>;
    return new TableRows<T, P>(this.table, picked);
  }

  /** The same table without some of its columns. */
  omit<O extends K>(...properties: O[]): TableRows<T, Exclude<K, O>> {
    return this.pick(...this.entries.map(([property]) => property).filter((property): property is Exclude<K, O> => !properties.includes(property as O)));
  }

  /** Each property, its column and kind, in column order. */
  get layout(): Array<{ property: K; column: string; kind: ColumnKind }> {
    return this.entries.map(([property, column, kind]) => ({ property, column, kind }));
  }

  /** The column that stores a property. */
  column(property: K): string {
    return this.columns[property][0];
  }

  /** `alias.column AS column, ...`, built once per alias: it is part of every request's SQL. */
  select(alias: string): string {
    let list = this.selects.get(alias);
    if (list === undefined) {
      list = this.entries.map(([, column]) => `${alias}.${column} AS ${column}`).join(', ');
      this.selects.set(alias, list);
    }
    return list;
  }

  /** The values of the columns, in `names` order, as they are stored. */
  values(value: Pick<T, K>): unknown[] {
    return this.entries.map(([property, , kind]) => toStored(kind, value[property]));
  }

  /** A row the database answered (columns named as in `select`), converted back. */
  from(row: Record<string, unknown>): Pick<T, K> {
    const value: Record<string, unknown> = {};
    for (const [property, column, kind] of this.entries) value[property] = fromStored(kind, row[column]);
    return value as Pick<T, K>;
  }
}

/**
 * The properties of an entity that are columns: its required ones. A relation (`bot?: Bot`) is optional, a column
 * never is (a nullable one is `| null`).
 */
export type ColumnProperties<T> = { [P in keyof T & string]-?: undefined extends T[P] ? never : P }[keyof T & string];

const NAMING = new SnakeNamingStrategy();

/** The kind of a column, from its decorator's options: a transformer is the JSON text one (columns.ts). */
function kindOf(options: { type?: unknown; transformer?: unknown }): ColumnKind {
  if (options.transformer) return 'json';
  switch (options.type) {
    case 'datetime':
      return 'date';
    case 'boolean':
      return 'bool';
    case 'int':
    case 'integer':
    case 'bigint':
      return 'int';
    default:
      return 'text';
  }
}

/**
 * The row converter of an entity class, read from its TypeORM decorators (`getMetadataArgsStorage()`): its table,
 * each column's name as the platform's naming strategy makes it, and each column's kind from its type.
 */
export function entityRows<T>(entity: new () => T): TableRows<T, ColumnProperties<T>> {
  const storage = getMetadataArgsStorage();
  const table = storage.tables.find((candidate) => candidate.target === entity)?.name;
  if (table === undefined) throw new Error(`${entity.name} is not an @Entity with a table name`);
  const columns: Record<string, readonly [string, ColumnKind]> = {};
  for (const { propertyName, options } of storage.filterColumns(entity))
    columns[propertyName] = [NAMING.columnName(propertyName, options.name, []), kindOf(options)];
  return new TableRows(table, columns as ColumnsOf<T, ColumnProperties<T>>);
}

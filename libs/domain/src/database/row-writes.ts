import { bindableValue, Statement } from './statement';
import { TableRows } from './table-rows';

/** A text with `?` placeholders and the values the driver binds to them. */
export interface BoundStatement {
  sql: string;
  params: unknown[];
}

/** Parameters as the engine stores them (bindableValue). Exported for the migrations, which write on their own query runner. */
export function bindable(params: readonly unknown[], sqlite: boolean): unknown[] {
  return params.map((value) => bindableValue(value, sqlite));
}

/** What the driver gets: a Statement's `?` text, bound from its parameter object, or a text and an array's values, in order. */
export function bound(sql: string | Statement<unknown>, params: unknown, sqlite: boolean): BoundStatement {
  return typeof sql === 'string'
    ? { sql, params: bindable((params ?? []) as readonly unknown[], sqlite) }
    : { sql: sql.text, params: sql.bind(params, sqlite) };
}

/** One multi-row INSERT of the rows; with `key`, an upsert on it; nothing for no rows. */
export function rowsWrite<T, K extends keyof T & string>(
  table: TableRows<T, K>,
  rows: ReadonlyArray<Pick<T, K>>,
  sqlite: boolean,
  key?: readonly K[],
): BoundStatement | undefined {
  if (rows.length === 0) return undefined;
  const insert = table.insertSql(rows.length);
  return {
    sql: key ? upsertSql(insert, table, key, sqlite) : insert,
    params: bindable(
      rows.flatMap((row) => table.values(row)),
      sqlite,
    ),
  };
}

function upsertSql<T, K extends keyof T & string>(insert: string, table: TableRows<T, K>, key: readonly K[], sqlite: boolean): string {
  const keyColumns = key.map((property) => table.column(property));
  const others = table.layout.map(({ column }) => column).filter((column) => !keyColumns.includes(column));
  if (others.length === 0) {
    // Nothing to overwrite: an existing row stays as it is.
    return sqlite ? `${insert} ON CONFLICT (${keyColumns.join(', ')}) DO NOTHING` : `${insert} ON DUPLICATE KEY UPDATE ${keyColumns[0]} = ${keyColumns[0]}`;
  }
  return sqlite
    ? `${insert} ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${others.map((column) => `${column} = excluded.${column}`).join(', ')}`
    : `${insert} ON DUPLICATE KEY UPDATE ${others.map((column) => `${column} = VALUES(${column})`).join(', ')}`;
}

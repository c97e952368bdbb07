import { bound, rowsWrite } from './row-writes';
import { Statement } from './statement';
import { DeferredWrites, ERRORS_LATER, Transaction } from './statements';

/** One engine's open transaction, as a Transaction drives it: texts with `?` placeholders and bound values. */
export interface TransactionSession {
  /** The rows of a statement, sent with every write deferred before it; its error, or theirs, thrown here. */
  rows<R>(sql: string, params: readonly unknown[]): Promise<R[]>;
  /** How many rows a write changed, sent as `rows` is. */
  affected(sql: string, params: readonly unknown[]): Promise<number>;
  /** Queues a write: sent later, its error thrown by the next `rows`, `affected` or the commit. */
  defer(sql: string, params: readonly unknown[]): void;
}

/** The Transaction a unit of work gets over an engine's session (ServerTransaction, SqliteTransaction), its parameters bound as `sqlite` stores them. */
export function transactionOn(session: TransactionSession, sqlite: boolean): Transaction {
  const later = (write: { sql: string; params: unknown[] } | undefined) => {
    if (write) session.defer(write.sql, write.params);
    return ERRORS_LATER;
  };
  const defer: DeferredWrites = {
    write: (statement, params) => later(bound(statement as Statement<unknown>, params, sqlite)),
    insert: (table, rows) => later(rowsWrite(table, rows, sqlite)),
    upsert: (table, rows, key) => later(rowsWrite(table, rows, sqlite, key)),
  };
  return {
    rows: (sql: string | Statement<unknown>, params?: unknown) => {
      const statement = bound(sql, params, sqlite);
      return session.rows(statement.sql, statement.params);
    },
    run: (sql: string | Statement<unknown>, params?: unknown) => {
      const statement = bound(sql, params, sqlite);
      return session.affected(statement.sql, statement.params);
    },
    defer,
  } as Transaction;
}

import { compareKeys } from './key-order';
import { ConsistencyScope } from './replicas/read-consistency';
import { bound, rowsWrite } from './row-writes';
import { Statement } from './statement';
import { ReadFrom, Row, Statements, Transaction } from './statements';
import { TableRows } from './table-rows';
import { retryTransient } from './transient-retry';

export type { DeferredWrites, ErrorsLater, ReadFrom, Row, Statements, Transaction } from './statements';
export { ERRORS_LATER } from './statements';
export { bindable } from './row-writes';

/**
 * The one way the platform reads and writes its data: hand-written SQL (docs/decisions.md, "Data access"), rows
 * converted by the entity's TableRows, transactions opened by the service layer. TypeORM keeps the schema, the
 * migrations and the connections. One implementation per engine, chosen once by `openDatabase`: SqliteDatabase (the
 * embedded default) and ServerDatabase (a MySQL or MariaDB server, with its replicas). Outside a transaction every
 * statement is immediate: it answers, and throws its own error. In one (`transaction`), writes whose answer nobody
 * reads are deferred (`tx.defer`): their errors come later (ErrorsLater).
 */
export abstract class Database implements Statements {
  constructor(
    /** Whether the engine is the embedded SQLite (for the few statements the engines spell differently). */
    readonly isSqlite: boolean,
  ) {}

  /**
   * A unit of work: `work` runs in one transaction on the primary, and runs again whole (at most three times) when the
   * database aborts it for a lock conflict, so it must only read and write through `tx`. Its deferred writes' errors
   * are thrown here at the latest. With replicas, where it committed goes to `scope` (the request's: its later reads,
   * the caller's next ones and the Consistency-Token see it).
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, scope?: ConsistencyScope): Promise<T> {
    return retryTransient(() => this.attempt(work, scope));
  }

  /** One run of a unit of work in one transaction: committed when `work` resolves, rolled back when it throws. */
  protected abstract attempt<T>(work: (tx: Transaction) => Promise<T>, scope?: ConsistencyScope): Promise<T>;

  /** The rows of one statement, from `from` (ReadFrom). */
  protected abstract read<R>(sql: string, params: unknown[], from: ReadFrom): Promise<R[]>;

  /** One write on the primary; how many rows it changed. */
  protected abstract execute(sql: string, params: unknown[]): Promise<number>;

  rows<P, R>(statement: Statement<P, R>, params: NoInfer<P>, from?: ReadFrom): Promise<R[]>;
  rows<R = Row>(sql: string, params?: readonly unknown[], from?: ReadFrom): Promise<R[]>;
  async rows<R = Row>(sql: string | Statement<unknown>, params?: unknown, from: ReadFrom = 'replica'): Promise<R[]> {
    const statement = bound(sql, params, this.isSqlite);
    return this.read<R>(statement.sql, statement.params, from);
  }

  run<P>(statement: Statement<P>, params: NoInfer<P>): Promise<number>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  async run(sql: string | Statement<unknown>, params?: unknown): Promise<number> {
    const statement = bound(sql, params, this.isSqlite);
    return this.execute(statement.sql, statement.params);
  }

  /** Inserts the rows in one statement (nothing for none), at once; throws the driver's duplicate-key error as `run` does. */
  async insert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>): Promise<void> {
    const write = rowsWrite(table, rows, this.isSqlite);
    if (write) await this.execute(write.sql, write.params);
  }

  /**
   * Inserts the rows, or where a row with the same `key` exists, overwrites its other columns: one statement
   * (`ON DUPLICATE KEY UPDATE` on MySQL, `ON CONFLICT … DO UPDATE` on SQLite), at once.
   */
  async upsert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>, key: readonly K[]): Promise<void> {
    const write = rowsWrite(table, rows, this.isSqlite, key);
    if (write) await this.execute(write.sql, write.params);
  }

  /** Compares two values of a BinaryKeyColumn as `ORDER BY` does on this engine: for rows put in order in code (compareKeys). */
  compareKeys(a: string, b: string): number {
    return compareKeys(a, b, !this.isSqlite);
  }
}

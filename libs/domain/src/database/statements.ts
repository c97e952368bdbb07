import { ConsistencyScope } from './replicas/read-consistency';
import { Statement } from './statement';
import { TableRows } from './table-rows';

/**
 * Where a read goes when DATABASE_READ_URLS lists replicas. Plain reads go to a replica: 'replica' when they
 * need nothing in particular, the request's ConsistencyScope when they must see what it requires (the caller's
 * last write, a Consistency-Token), so a replica that has it is picked (ReadReplicas). The reads a write depends on
 * (does the bot exist, which version is current, is the key taken) go to the primary, which always has the latest
 * committed state. Without replicas all are the one database.
 */
export type ReadFrom = 'replica' | 'primary' | ConsistencyScope;

export type Row = Record<string, unknown>;

/**
 * Immediate statements: each is sent when called and answers (rows, or how many rows it changed), and its error is
 * thrown by that call. A repository's statements are `Statement`s, written with named placeholders and bound from one
 * object; a text with `?` placeholders and an array serves the rest (a probe, the import's lists). Both engines get
 * `?` and an array; Dates and booleans are bound as each engine stores them (bindableValue).
 */
export interface Statements {
  /** The rows of one statement. Outside a transaction, from a replica unless `from` says the primary. */
  rows<P, R>(statement: Statement<P, R>, params: NoInfer<P>, from?: ReadFrom): Promise<R[]>;
  rows<R = Row>(sql: string, params?: readonly unknown[], from?: ReadFrom): Promise<R[]>;
  /** Runs one INSERT, UPDATE or DELETE on the primary and answers how many rows it affected. */
  run<P>(statement: Statement<P>, params: NoInfer<P>): Promise<number>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/**
 * What a deferred write answers: nothing yet, and nothing to wait for. Its error (a duplicate key, a NULL refused)
 * is thrown later, by the transaction's next immediate statement or by its commit (so by `Database.transaction`),
 * never at the call. The type keeps a caller from writing the opposite: `await` refuses it (TS1320: the optional
 * `then` takes nothing a caller could give), it has no `catch`, and an async function cannot return it (TS1058).
 * No value has the `then` member: awaited anyway, it would settle at once.
 */
export interface ErrorsLater {
  readonly then?: (nothing: never) => never;
}

/** The one value a deferred write answers. */
export const ERRORS_LATER: ErrorsLater = Object.freeze({});

/**
 * A transaction's writes whose answer nobody reads: each is queued and sent with the transaction's next immediate
 * statement or its commit (on a MySQL server in one multi-statement text: ServerTransaction; on SQLite one after the
 * other), in the order they were made, and so is its error (ErrorsLater). A value missing from a Statement's
 * parameters is a bug, thrown at the call.
 */
export interface DeferredWrites {
  /** One INSERT, UPDATE or DELETE whose count nobody reads. */
  write<P>(statement: Statement<P>, params: NoInfer<P>): ErrorsLater;
  /** The rows in one INSERT (nothing for none). */
  insert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>): ErrorsLater;
  /**
   * The rows, or where a row with the same `key` exists, its other columns overwritten: one statement
   * (`ON DUPLICATE KEY UPDATE` on MySQL, `ON CONFLICT … DO UPDATE` on SQLite).
   */
  upsert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>, key: readonly K[]): ErrorsLater;
}

/**
 * A unit of work's transaction (`Database.transaction`): every statement on it commits together or not at all.
 * `rows` and `run` are immediate (they answer, and throw their own error and that of every deferred write before
 * them); `defer` holds the writes whose answer nobody reads, whose errors come later.
 */
export interface Transaction extends Statements {
  readonly defer: DeferredWrites;
}

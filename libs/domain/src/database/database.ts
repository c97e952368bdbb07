import { DataSource, QueryRunner } from 'typeorm';
import type { Pool } from 'mysql2';
import { isDatabaseUnavailable } from './database-errors';
import { compareKeys } from './key-order';
import { GtidPosition } from './replicas/gtid-position';
import { ConsistencyScope } from './replicas/read-consistency';
import { ReadReplicas } from './replicas/read-replicas';
import { DEFAULT_STATEMENT_TIMEOUT_MS, ServerConnection, ServerPool } from './server-pool';
import { ResultHeader, ServerTransaction } from './server-transaction';
import { bindableValue, Statement } from './statement';
import { TableRows } from './table-rows';
import { retryTransient } from './transient-retry';

/**
 * Where a read goes when DATABASE_READ_URLS lists replicas. Plain reads go to a replica: 'replica' when they
 * need nothing in particular, the request's ConsistencyScope when they must see what it requires (the caller's
 * last write, a Consistency-Token), so a replica that has it is picked (ReadReplicas). The reads a write depends on
 * (does the bot exist, which version is current, is the key taken) go to the primary, which always has the latest
 * committed state. Without replicas all are the one database.
 */
export type ReadFrom = 'replica' | 'primary' | ConsistencyScope;

export type Row = Record<string, unknown>;

/** Per SQLite DataSource (one connection), the end of the last transaction queued on it (see sqliteTransaction). */
const SQLITE_TURNS = new WeakMap<DataSource, Promise<unknown>>();

/**
 * What a repository runs statements on: the database, each statement on its own, or the transaction of a
 * unit of work (`Database.transaction`). A repository's statements are `Statement`s, written with named
 * placeholders and bound from one object; a text with `?` placeholders and an array serves the rest (a probe, the
 * import's lists). Both engines get `?` and an array; Dates and booleans are bound as each engine stores them
 * (see bindableValue).
 */
export interface Statements {
  /** The rows of one statement. Outside a transaction, from a replica unless `from` says the primary. */
  rows<P, R>(statement: Statement<P, R>, params: NoInfer<P>, from?: ReadFrom): Promise<R[]>;
  rows<R = Row>(sql: string, params?: readonly unknown[], from?: ReadFrom): Promise<R[]>;
  /** Runs one INSERT, UPDATE or DELETE on the primary and answers how many rows it affected. */
  run<P>(statement: Statement<P>, params: NoInfer<P>): Promise<number>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs one INSERT, UPDATE or DELETE whose count nobody reads. In a transaction on a MySQL server it goes with the
   * transaction's next statement (ServerTransaction), and so does its error; elsewhere it runs at once.
   */
  write<P>(statement: Statement<P>, params: NoInfer<P>): Promise<void>;
  /**
   * Inserts the rows in one statement (nothing for none); throws the driver's duplicate-key error as `run` does. In a
   * transaction on a MySQL server the statement goes with the transaction's next one (ServerTransaction), and so
   * does its error: the work must not expect to catch it here.
   */
  insert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>): Promise<void>;
  /**
   * Inserts the rows, or where a row with the same `key` exists, overwrites its other columns: one statement
   * (`ON DUPLICATE KEY UPDATE` on MySQL, `ON CONFLICT … DO UPDATE` on SQLite).
   */
  upsert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>, key: readonly K[]): Promise<void>;
}

/** A unit of work's transaction: every statement on it commits together or not at all. */
export type Transaction = Statements;

export interface DatabaseOptions {
  /** DATABASE_STATEMENT_TIMEOUT_MS: each statement, and the wait for a free connection, on a MySQL server. */
  statementTimeoutMs?: number;
  /** DATABASE_READ_URLS, probed and ready: plain reads go there. */
  replicas?: ReadReplicas;
}

/**
 * The one way the platform reads and writes its data: hand-written SQL (docs/decisions.md, "Data access"),
 * rows converted by the entity's TableRows, transactions opened by the service layer. TypeORM keeps the
 * schema, the migrations and the primary's connection pool. On a MySQL server the statements run on that
 * pool directly, each within the statement deadline (ServerPool), and plain reads go to the replicas
 * (ReadReplicas, docs/operations.md "Read replicas").
 */
export class Database implements Statements {
  private readonly sqlite: boolean;
  private readonly statementTimeoutMs: number;
  private readonly replicas: ReadReplicas | undefined;
  private primaryPool: ServerPool | undefined;

  constructor(
    private readonly dataSource: DataSource,
    options: DatabaseOptions = {},
  ) {
    this.sqlite = dataSource.options.type === 'better-sqlite3';
    this.statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    this.replicas = options.replicas;
  }

  /** Whether the engine is the embedded SQLite (for the few statements the engines spell differently). */
  get isSqlite(): boolean {
    return this.sqlite;
  }

  /** Compares two values of a BinaryKeyColumn as `ORDER BY` does on this engine: for rows put in order in code (compareKeys). */
  compareKeys(a: string, b: string): number {
    return compareKeys(a, b, !this.sqlite);
  }

  /** The primary's pool within the statement deadline (MySQL only): TypeORM's own, made at initialize. */
  get primary(): ServerPool {
    this.primaryPool ??= primaryPoolOf(this.dataSource, this.statementTimeoutMs);
    return this.primaryPool;
  }

  rows<P, R>(statement: Statement<P, R>, params: NoInfer<P>, from?: ReadFrom): Promise<R[]>;
  rows<R = Row>(sql: string, params?: readonly unknown[], from?: ReadFrom): Promise<R[]>;
  async rows<R = Row>(sql: string | Statement<unknown>, params?: unknown, from: ReadFrom = 'replica'): Promise<R[]> {
    const text = textOf(sql);
    const bound = this.bound(sql, params);
    if (this.sqlite) return this.onSqlite((runner) => runner.query(text, bound) as Promise<R[]>);
    if (from !== 'primary' && this.replicas) return this.fromReplica<R>(this.replicas, text, bound, from === 'replica' ? undefined : from);
    return this.primary.query<R[]>(text, bound);
  }

  run<P>(statement: Statement<P>, params: NoInfer<P>): Promise<number>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  async run(sql: string | Statement<unknown>, params?: unknown): Promise<number> {
    const text = textOf(sql);
    const bound = this.bound(sql, params);
    if (this.sqlite) return this.onSqlite(async (runner) => (await runner.query(text, bound, true)).affected ?? 0);
    return this.primary.session(async (connection) => (await connection.query<ResultHeader>(text, bound)).affectedRows ?? 0);
  }

  /**
   * A unit of work: `work` runs in one transaction on the primary, and runs again whole (at most three times)
   * when the database aborts it for a lock conflict, so it must only read and write through `tx`. With replicas,
   * where it committed goes to `scope` (the request's: its later reads, the caller's next ones and the
   * Consistency-Token see it).
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, scope?: ConsistencyScope): Promise<T> {
    if (this.sqlite) return retryTransient(() => this.sqliteTransaction(work));
    const noted = this.replicas ? scope : undefined;
    return this.recorded(
      noted,
      retryTransient(() =>
        this.primary.session(async (connection) => {
          const tx = new ServerTransaction(connection);
          try {
            const result = await work(
              this.statementsOf(
                (sql, params) => tx.answer(sql, params),
                (sql, params) => tx.affected(sql, params),
                (sql, params) => tx.defer(sql, params),
              ),
            );
            await tx.commit();
            if (noted) await this.noteWrite(connection, noted);
            return result;
          } catch (error) {
            await tx.rollback();
            throw error;
          }
        }),
      ),
    );
  }

  /**
   * `write`'s answer once `scope` has recorded what it wrote (the caller's position stored, the Consistency-Token
   * set), after its connection went back to the pool; its error as soon as it fails.
   */
  private async recorded<T>(scope: ConsistencyScope | undefined, write: Promise<T>): Promise<T> {
    const result = await write;
    if (scope) await scope.recorded();
    return result;
  }

  /**
   * A plain read on a replica that has what the request must see, else on the primary. A replica that fails
   * for its connection (or its deadline) is marked down and the read moves on to the next; one that refuses the
   * statement (a table a migration has just added, not replicated yet) leaves it to the primary, whose answer,
   * error or not, is the read's. A replica is never the reason a read fails while the primary answers.
   */
  private async fromReplica<R>(replicas: ReadReplicas, sql: string, params: unknown[], scope: ConsistencyScope | undefined): Promise<R[]> {
    const requirement = scope ? scope.requirement() : GtidPosition.EMPTY;
    const required = requirement instanceof GtidPosition ? requirement : await requirement;
    const { replicas: candidates, fallback } = scope?.primaryOnly ? { replicas: [], fallback: 'read_your_writes' as const } : replicas.candidates(required);
    for (const replica of candidates) {
      try {
        return await replica.pool.query<R[]>(sql, params);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) break;
        replicas.failed(replica, error);
      }
    }
    replicas.fellBack(fallback ?? 'replica_failed');
    return this.primary.query<R[]>(sql, params);
  }

  /**
   * With replicas, where the write just committed (`@@last_gtid`: this session's last transaction) goes to the
   * request's scope: its later reads, the caller's next ones and the Consistency-Token answer see it. The write
   * has committed whatever happens here: when the session cannot tell, the primary's whole position (a fresh
   * connection) stands in for it, and when neither answers, the request's own later reads go to the primary
   * and nothing fails.
   */
  private async noteWrite(connection: ServerConnection, scope: ConsistencyScope): Promise<void> {
    const position = await connection
      .query<Array<{ gtid: string | null }>>('SELECT @@last_gtid AS gtid')
      .then(([row]) => GtidPosition.parse(row?.gtid ?? ''))
      .catch(() =>
        this.primary
          .query<Array<{ gtid: string | null }>>('SELECT @@gtid_binlog_pos AS gtid', [], Math.min(this.statementTimeoutMs, 1_000))
          .then(([row]) => GtidPosition.parse(row?.gtid ?? ''))
          .catch(() => undefined),
      );
    if (position === undefined) scope.writtenSomewhere();
    else if (!position.isEmpty) scope.written(position);
  }

  private async onSqlite<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner('master');
    try {
      return await work(runner);
    } finally {
      await runner.release();
    }
  }

  /**
   * SQLite's transactions run one after another. TypeORM's SQLite driver has one connection: a transaction begun while
   * another is open would run inside it, and the first to commit would end both (a background job's and a request's,
   * or two requests'). SQLite takes one writer at a time anyway. The queue is the DataSource's (its connection's), not
   * this object's: the importer and the demo seeder make Databases of their own on the app's DataSource.
   */
  private sqliteTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const run = (SQLITE_TURNS.get(this.dataSource) ?? Promise.resolve()).then(() =>
      this.dataSource.transaction((manager) => {
        const runner = manager.queryRunner!;
        return work(
          this.statementsOf(
            (sql, params) => runner.query(sql, params),
            async (sql, params) => (await runner.query(sql, params, true)).affected ?? 0,
          ),
        );
      }),
    );
    SQLITE_TURNS.set(
      this.dataSource,
      run.catch(() => undefined),
    );
    return run;
  }

  /**
   * A transaction's Statements over its connection's `query` (rows) and `execute` (affected rows), parameters bound.
   * Writes, inserts and upserts, whose answer nobody reads, go through `write`: on a MySQL server they wait for the next
   * statement or the commit (ServerTransaction); on SQLite they run at once.
   */
  private statementsOf(
    query: (sql: string, params: unknown[]) => Promise<unknown>,
    execute: (sql: string, params: unknown[]) => Promise<number>,
    write: (sql: string, params: unknown[]) => Promise<unknown> = execute,
  ): Transaction {
    const run = (sql: string | Statement<unknown>, params?: unknown) => execute(textOf(sql), this.bound(sql, params));
    const later = (sql: string | Statement<unknown>, params?: unknown) => write(textOf(sql), this.bound(sql, params));
    return {
      rows: async <R>(sql: string | Statement<unknown>, params?: unknown) => (await query(textOf(sql), this.bound(sql, params))) as R[],
      run,
      write: async (sql: Statement<unknown>, params: unknown) => {
        await later(sql, params);
      },
      insert: (table, rows) => this.writeRows(later, table, rows),
      upsert: (table, rows, key) => this.writeRows(later, table, rows, key),
    } as Transaction;
  }

  async write<P>(statement: Statement<P>, params: NoInfer<P>): Promise<void> {
    await this.run(statement, params);
  }

  insert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>): Promise<void> {
    return this.writeRows((sql, params) => this.run(sql, params), table, rows);
  }

  upsert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>, key: readonly K[]): Promise<void> {
    return this.writeRows((sql, params) => this.run(sql, params), table, rows, key);
  }

  /** One multi-row INSERT of the rows through `send`; with `key`, an upsert on it. */
  private async writeRows<T, K extends keyof T & string>(
    send: (sql: string, params: unknown[]) => Promise<unknown>,
    table: TableRows<T, K>,
    rows: ReadonlyArray<Pick<T, K>>,
    key?: readonly K[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const insert = table.insertSql(rows.length);
    await send(
      key ? this.upsertSql(insert, table, key) : insert,
      rows.flatMap((row) => table.values(row)),
    );
  }

  private upsertSql<T, K extends keyof T & string>(insert: string, table: TableRows<T, K>, key: readonly K[]): string {
    const keyColumns = key.map((property) => table.column(property));
    const others = table.layout.map(({ column }) => column).filter((column) => !keyColumns.includes(column));
    if (others.length === 0) {
      // Nothing to overwrite: an existing row stays as it is.
      return this.sqlite
        ? `${insert} ON CONFLICT (${keyColumns.join(', ')}) DO NOTHING`
        : `${insert} ON DUPLICATE KEY UPDATE ${keyColumns[0]} = ${keyColumns[0]}`;
    }
    return this.sqlite
      ? `${insert} ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${others.map((column) => `${column} = excluded.${column}`).join(', ')}`
      : `${insert} ON DUPLICATE KEY UPDATE ${others.map((column) => `${column} = VALUES(${column})`).join(', ')}`;
  }

  /** The values the driver gets: a Statement's, bound from its parameter object, or an array's, in its order. */
  private bound(sql: string | Statement<unknown>, params: unknown): unknown[] {
    return typeof sql === 'string' ? bindable((params ?? []) as readonly unknown[], this.sqlite) : sql.bind(params, this.sqlite);
  }
}

const textOf = (sql: string | Statement<unknown>): string => (typeof sql === 'string' ? sql : sql.text);

/** Parameters as the engine stores them (bindableValue). Exported for the migrations, which write on their own query runner. */
export function bindable(params: readonly unknown[], sqlite: boolean): unknown[] {
  return params.map((value) => bindableValue(value, sqlite));
}

/** TypeORM's pool of the primary (MysqlDriver keeps it as `pool`), within the deadline. */
function primaryPoolOf(dataSource: DataSource, deadlineMs: number): ServerPool {
  const pool = (dataSource.driver as unknown as { pool?: Pool }).pool;
  if (!pool) throw new Error('The database is not initialized (it has no connection pool)');
  return new ServerPool(pool, deadlineMs);
}

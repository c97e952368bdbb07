import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryRunner } from 'typeorm';
import { compareKeys } from './key-order';
import { TableRows } from './table-rows';
import { retryTransient } from './transient-retry';

/**
 * Where a read goes when DATABASE_READ_URLS lists replicas. Plain reads go to a replica; the reads a
 * write depends on (does the bot exist, which version is current, is the key taken) go to the primary,
 * which always has the latest committed state. Without replicas both are the one database.
 */
export type ReadFrom = 'replica' | 'primary';

export type Row = Record<string, unknown>;

/**
 * What a repository runs statements on: the database, each statement on its own, or the transaction of a
 * unit of work (`Database.transaction`). `?` placeholders work on MySQL and SQLite; Dates and booleans are
 * bound as each engine stores them (see bindable).
 */
export interface Statements {
  /** The rows of one statement. Outside a transaction, from a replica unless `from` says the primary. */
  rows<R = Row>(sql: string, params?: readonly unknown[], from?: ReadFrom): Promise<R[]>;
  /** Runs one INSERT, UPDATE or DELETE on the primary and answers how many rows it affected. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Inserts the rows in one statement (nothing for none); throws the driver's duplicate-key error as `run` does. */
  insert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>): Promise<void>;
  /**
   * Inserts the rows, or where a row with the same `key` exists, overwrites its other columns: one statement
   * (`ON DUPLICATE KEY UPDATE` on MySQL, `ON CONFLICT … DO UPDATE` on SQLite).
   */
  upsert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>, key: readonly K[]): Promise<void>;
}

/** A unit of work's transaction: every statement on it commits together or not at all. */
export type Transaction = Statements;

/**
 * The one way the platform reads and writes its data: hand-written SQL (docs/decisions.md, "Data access"),
 * rows converted by the entity's TableRows, transactions opened by the service layer. TypeORM keeps the
 * connection pool, the replicas, the migrations and the schema.
 */
@Injectable()
export class Database implements Statements {
  private readonly sqlite: boolean;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sqlite = dataSource.options.type === 'better-sqlite3';
  }

  /** Whether the engine is the embedded SQLite (for the few statements the engines spell differently). */
  get isSqlite(): boolean {
    return this.sqlite;
  }

  /** Compares two values of a BinaryKeyColumn as `ORDER BY` does on this engine: for rows put in order in code (compareKeys). */
  compareKeys(a: string, b: string): number {
    return compareKeys(a, b, !this.sqlite);
  }

  async rows<R = Row>(sql: string, params: readonly unknown[] = [], from: ReadFrom = 'replica'): Promise<R[]> {
    const runner = this.dataSource.createQueryRunner(from === 'primary' ? 'master' : 'slave');
    try {
      return (await runner.query(sql, this.bindable(params))) as R[];
    } finally {
      await runner.release();
    }
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    const runner = this.dataSource.createQueryRunner('master');
    try {
      return await this.affected(runner, sql, params);
    } finally {
      await runner.release();
    }
  }

  /**
   * A unit of work: `work` runs in one transaction on the primary, and runs again whole (at most three times)
   * when the database aborts it for a lock conflict, so it must only read and write through `tx`.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return retryTransient(() =>
      this.dataSource.transaction((manager) => {
        const runner = manager.queryRunner!;
        const run = (sql: string, params: readonly unknown[] = []) => this.affected(runner, sql, params);
        return work({
          rows: async <R>(sql: string, params: readonly unknown[] = []) => (await runner.query(sql, this.bindable(params))) as R[],
          run,
          insert: (table, rows) => this.writeRows(run, table, rows),
          upsert: (table, rows, key) => this.writeRows(run, table, rows, key),
        });
      }),
    );
  }

  insert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>): Promise<void> {
    return this.writeRows((sql, params) => this.run(sql, params), table, rows);
  }

  upsert<T, K extends keyof T & string>(table: TableRows<T, K>, rows: ReadonlyArray<Pick<T, K>>, key: readonly K[]): Promise<void> {
    return this.writeRows((sql, params) => this.run(sql, params), table, rows, key);
  }

  /** One multi-row INSERT of the rows through `run`; with `key`, an upsert on it. */
  private async writeRows<T, K extends keyof T & string>(
    run: (sql: string, params: readonly unknown[]) => Promise<number>,
    table: TableRows<T, K>,
    rows: ReadonlyArray<Pick<T, K>>,
    key?: readonly K[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const insert = table.insertSql(rows.length);
    await run(key ? this.upsertSql(insert, table, key) : insert, rows.flatMap((row) => table.values(row)));
  }

  private upsertSql<T, K extends keyof T & string>(insert: string, table: TableRows<T, K>, key: readonly K[]): string {
    const keyColumns = key.map((property) => table.column(property));
    const others = table.layout.map(({ column }) => column).filter((column) => !keyColumns.includes(column));
    if (others.length === 0) {
      // Nothing to overwrite: an existing row stays as it is.
      return this.sqlite ? `${insert} ON CONFLICT (${keyColumns.join(', ')}) DO NOTHING` : `${insert} ON DUPLICATE KEY UPDATE ${keyColumns[0]} = ${keyColumns[0]}`;
    }
    return this.sqlite
      ? `${insert} ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${others.map((column) => `${column} = excluded.${column}`).join(', ')}`
      : `${insert} ON DUPLICATE KEY UPDATE ${others.map((column) => `${column} = VALUES(${column})`).join(', ')}`;
  }

  private async affected(runner: QueryRunner, sql: string, params: readonly unknown[]): Promise<number> {
    const result = await runner.query(sql, this.bindable(params), true);
    return result.affected ?? 0;
  }

  private bindable(params: readonly unknown[]): unknown[] {
    return bindable(params, this.sqlite);
  }
}

/**
 * Parameters as the engine stores them, as TypeORM binds them: a Date is a DATETIME(3) in UTC (mysql2 writes
 * it in the connection's time zone, `Z`; SQLite keeps the text `YYYY-MM-DD HH:MM:SS.mmm`), a boolean 1 or 0.
 * Exported for the migrations, which write on their own query runner.
 */
export function bindable(params: readonly unknown[], sqlite: boolean): unknown[] {
  return params.map((value) => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (sqlite && value instanceof Date) return value.toISOString().slice(0, 23).replace('T', ' ');
    return value;
  });
}

import type { QueryRunner } from 'typeorm';
import type { TransactionSession } from './transaction-statements';

/**
 * One transaction on SQLite's query runner. SQLite is in-process, so there is no round trip to save: a deferred write
 * runs as soon as the statements before it have, one after another. Its error is kept for the transaction's next
 * statement that answers, or its end (`settled`), as on a MySQL server (ServerTransaction): code that passes on one
 * engine passes on the other. Once a statement has failed, every later one, and the commit, fail with its error.
 */
export class SqliteTransaction implements TransactionSession {
  /** The statements so far, one after another: settled when the last has run, rejected when one failed. */
  private done: Promise<unknown> = Promise.resolve();

  constructor(private readonly runner: QueryRunner) {}

  rows<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    return this.after(() => this.runner.query(sql, params as unknown[]) as Promise<R[]>);
  }

  affected(sql: string, params: readonly unknown[]): Promise<number> {
    return this.after(async () => (await this.runner.query(sql, params as unknown[], true)).affected ?? 0);
  }

  defer(sql: string, params: readonly unknown[]): void {
    this.after(() => this.runner.query(sql, params as unknown[])).catch(() => undefined);
  }

  /** Settles when every statement has run; rejected with the first failure: the transaction must not commit then. */
  async settled(): Promise<void> {
    await this.done;
  }

  /** Settles when every statement has run, whatever each answered. */
  async idle(): Promise<void> {
    await this.done.catch(() => undefined);
  }

  private after<T>(statement: () => Promise<T>): Promise<T> {
    const result = this.done.then(statement);
    this.done = result;
    // Awaited by the next statement or the end: not unhandled in between.
    this.done.catch(() => undefined);
    return result;
  }
}

import { DataSource, QueryRunner } from 'typeorm';
import { Database } from './database';
import { SqliteTransaction } from './sqlite-transaction';
import { Transaction } from './statements';
import { transactionOn } from './transaction-statements';

/** Per SQLite DataSource (one connection), the end of the last transaction queued on it (see `attempt`). */
const SQLITE_TURNS = new WeakMap<DataSource, Promise<unknown>>();

/** The embedded SQLite (DATABASE_URL unset, or `sqlite:`): one in-process connection, TypeORM's query runner. */
export class SqliteDatabase extends Database {
  constructor(private readonly dataSource: DataSource) {
    super(true);
  }

  protected read<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.onRunner((runner) => runner.query(sql, params) as Promise<R[]>);
  }

  protected execute(sql: string, params: unknown[]): Promise<number> {
    return this.onRunner(async (runner) => (await runner.query(sql, params, true)).affected ?? 0);
  }

  /**
   * SQLite's transactions run one after another. TypeORM's SQLite driver has one connection: a transaction begun while another
   * is open would run inside it, and the first to commit would end both (a background job's and a request's, or two
   * requests'). SQLite takes one writer at a time anyway. The queue is the DataSource's (its connection's), not this
   * object's: the importer and the demo seeder make Databases of their own on the app's DataSource.
   */
  protected attempt<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const run = (SQLITE_TURNS.get(this.dataSource) ?? Promise.resolve()).then(() =>
      this.dataSource.transaction(async (manager) => {
        const session = new SqliteTransaction(manager.queryRunner!);
        try {
          const result = await work(transactionOn(session, true));
          await session.settled();
          return result;
        } finally {
          // Nothing of the work runs after its COMMIT or ROLLBACK, which would write outside the transaction.
          await session.idle();
        }
      }),
    );
    SQLITE_TURNS.set(
      this.dataSource,
      run.catch(() => undefined),
    );
    return run;
  }

  private async onRunner<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner('master');
    try {
      return await work(runner);
    } finally {
      await runner.release();
    }
  }
}

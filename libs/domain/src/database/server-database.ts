import type { Pool } from 'mysql2';
import { DataSource } from 'typeorm';
import { Database } from './database';
import { ConsistencyScope } from './replicas/read-consistency';
import { ReadReplicas } from './replicas/read-replicas';
import { ReplicaRouting } from './replicas/replica-routing';
import { DEFAULT_STATEMENT_TIMEOUT_MS, ServerPool } from './server-pool';
import { ResultHeader, ServerTransaction } from './server-transaction';
import { ReadFrom, Transaction } from './statements';
import { transactionOn } from './transaction-statements';

export interface ServerDatabaseOptions {
  /** DATABASE_STATEMENT_TIMEOUT_MS: each statement, and the wait for a free connection. */
  statementTimeoutMs?: number;
  /** DATABASE_READ_URLS, probed and ready: plain reads go there. */
  replicas?: ReadReplicas;
}

/**
 * A MySQL or MariaDB server (DATABASE_URL `mysql:`/`mariadb:`): statements on TypeORM's pool of the primary, each
 * within the statement deadline (ServerPool); plain reads on the replicas when there are (ReplicaRouting); a unit of
 * work's writes batched with its next answering statement (ServerTransaction).
 */
export class ServerDatabase extends Database {
  private readonly statementTimeoutMs: number;
  private readonly routing: ReplicaRouting | undefined;
  private primaryPool: ServerPool | undefined;

  constructor(
    private readonly dataSource: DataSource,
    options: ServerDatabaseOptions = {},
  ) {
    super(false);
    this.statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    this.routing = options.replicas && new ReplicaRouting(options.replicas, () => this.primary);
  }

  /** The primary's pool within the statement deadline: TypeORM's own (MysqlDriver keeps it as `pool`), made at initialize. */
  private get primary(): ServerPool {
    if (!this.primaryPool) {
      const pool = (this.dataSource.driver as unknown as { pool?: Pool }).pool;
      if (!pool) throw new Error('The database is not initialized (it has no connection pool)');
      this.primaryPool = new ServerPool(pool, this.statementTimeoutMs);
    }
    return this.primaryPool;
  }

  protected read<R>(sql: string, params: unknown[], from: ReadFrom): Promise<R[]> {
    if (from !== 'primary' && this.routing) return this.routing.read<R>(sql, params, from === 'replica' ? undefined : from);
    return this.primary.query<R[]>(sql, params);
  }

  protected execute(sql: string, params: unknown[]): Promise<number> {
    return this.primary.session(async (connection) => (await connection.query<ResultHeader>(sql, params)).affectedRows ?? 0);
  }

  /**
   * A unit of work on one connection of the primary. With replicas, where it committed goes to `scope` (the
   * request's: its later reads, the caller's next ones and the Consistency-Token see it); its answer once the scope
   * has recorded that, after its connection went back to the pool; its error as soon as it fails.
   */
  protected async attempt<T>(work: (tx: Transaction) => Promise<T>, scope?: ConsistencyScope): Promise<T> {
    const noted = this.routing ? scope : undefined;
    const result = await this.primary.session(async (connection) => {
      const tx = new ServerTransaction(connection);
      try {
        const answer = await work(transactionOn(tx, false));
        await tx.commit();
        if (noted) await this.routing!.noteWrite(connection, noted);
        return answer;
      } catch (error) {
        await tx.rollback();
        throw error;
      }
    });
    if (noted) await noted.recorded();
    return result;
  }
}

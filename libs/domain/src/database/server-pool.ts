import { Connection, type Pool, type PoolConnection } from 'mysql2';

/** DATABASE_STATEMENT_TIMEOUT_MS by default: well below the ingress's 60 s and the app's own request timeouts. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/**
 * A database that did not answer in time: counted as unavailable (`isDatabaseUnavailable`, 503 with
 * Retry-After), under the code mysql2 gives its own timeouts.
 */
export class DatabaseDeadlineError extends Error {
  readonly code = 'PROTOCOL_SEQUENCE_TIMEOUT';

  constructor(what: string, ms: number) {
    super(`The database did not answer ${what} within ${ms} ms`);
  }
}

/** What ServerPool reads of mysql2's pool: the settings its own connections are made with. */
interface PoolWithConfig {
  config: { connectionConfig: unknown };
}

/**
 * A mysql2 pool whose every wait is bounded: a connection within the deadline, each statement within the
 * deadline. mysql2's own query `timeout` only fails the callback and leaves the connection busy with the
 * unanswered statement (the next statement on it would queue behind it for as long as the server stalls), and
 * its pool has no acquire timeout: so a statement past its deadline destroys its connection, and a connection
 * handed over after its caller gave up goes straight back. The server is told too: closing the socket does not
 * stop a statement waiting for a lock, and a transaction's batch (ServerTransaction) would go on to its COMMIT
 * once it got the lock, after the caller was answered that it failed. So the connection's thread is killed
 * (`KILL`, on a connection of its own: the pool may be full of stuck ones), which stops the statement and rolls
 * the transaction back.
 */
export class ServerPool {
  constructor(
    readonly pool: Pool,
    readonly deadlineMs: number,
  ) {}

  /** `work` on one connection of the pool, released after (destroyed if a statement on it failed the connection). */
  async session<T>(work: (connection: ServerConnection) => Promise<T>, deadlineMs = this.deadlineMs): Promise<T> {
    const connection = await this.acquire(deadlineMs);
    try {
      return await work(connection);
    } finally {
      connection.release();
    }
  }

  /** One statement on a connection of its own. */
  query<R>(sql: string, params: readonly unknown[] = [], deadlineMs = this.deadlineMs): Promise<R> {
    return this.session((connection) => connection.query<R>(sql, params, deadlineMs), deadlineMs);
  }

  end(): Promise<void> {
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }

  /** Kills a server thread from a connection of its own, within the deadline; a server that does not answer is left to notice the closed socket. */
  private kill(threadId: number): void {
    const killer = new Connection({ config: (this.pool as unknown as PoolWithConfig).config.connectionConfig } as never);
    const timer = setTimeout(() => killer.destroy(), this.deadlineMs);
    killer.on('error', () => undefined);
    killer.query('KILL ?', [threadId], () => {
      clearTimeout(timer);
      killer.destroy();
    });
  }

  private acquire(deadlineMs: number): Promise<ServerConnection> {
    return new Promise((resolve, reject) => {
      let expired = false;
      const timer = setTimeout(() => {
        expired = true;
        reject(new DatabaseDeadlineError('with a free connection', deadlineMs));
      }, deadlineMs);
      this.pool.getConnection((error, connection) => {
        if (expired) {
          connection?.release();
          return;
        }
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(new ServerConnection(connection, this.deadlineMs, (threadId) => this.kill(threadId)));
      });
    });
  }
}

/** One connection of a ServerPool. */
export class ServerConnection {
  private broken = false;

  constructor(
    private readonly connection: PoolConnection,
    private readonly deadlineMs: number,
    /** Stops the connection's thread on the server (ServerPool.kill). */
    private readonly kill: (threadId: number) => void,
  ) {}

  /** The rows of a SELECT, or mysql2's result header (`affectedRows`) of a write. */
  query<R>(sql: string, params: readonly unknown[] = [], deadlineMs = this.deadlineMs): Promise<R> {
    if (this.broken) return Promise.reject(new DatabaseDeadlineError('on a connection it had stopped answering', deadlineMs));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const threadId = this.connection.threadId;
        this.discard();
        if (threadId !== null) this.kill(threadId);
        reject(new DatabaseDeadlineError('a statement', deadlineMs));
      }, deadlineMs);
      this.connection.query(sql, params as unknown[], (error, result) => {
        clearTimeout(timer);
        if (error) {
          if ((error as { fatal?: boolean }).fatal) this.discard();
          reject(error);
        } else {
          resolve(result as R);
        }
      });
    });
  }

  /** Closes the connection and takes it out of the pool: it is waiting for a server that stopped answering. */
  discard(): void {
    if (this.broken) return;
    this.broken = true;
    this.connection.destroy();
  }

  release(): void {
    if (!this.broken) this.connection.release();
  }
}

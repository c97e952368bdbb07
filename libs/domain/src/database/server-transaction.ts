import type { ServerConnection } from './server-pool';

/**
 * Past this many characters of SQL and string parameters, deferred writes go to the server at once: a batch stays
 * far below MariaDB's max_allowed_packet (16 MiB by default) however large the rows (the seed's multi-row upserts).
 */
export const BATCH_FLUSH_CHARS = 1 << 20;

/** mysql2's answer to a write. */
interface ResultHeader {
  affectedRows?: number;
}

/**
 * One transaction on a MySQL server connection, in as few round trips as its statements allow (the connection is
 * opened with `multipleStatements`). A write whose answer nobody reads (`defer`: the INSERTs of a unit of work) is
 * not sent alone: it goes with the next statement that answers (`rows`, `run`) or with the COMMIT, as one
 * multi-statement text, in the order they were made. `START TRANSACTION` goes with the first. A create (the
 * connector, its tags, its version, its change event) is two round trips, not six.
 *
 * What changes for the work: a deferred write's error (a duplicate key) is thrown by the transaction's next
 * statement that answers, or by its commit, not by `defer` itself; the transaction fails and rolls back as before.
 * The server runs a batch's statements in order and stops at the first error, so nothing after a failed write
 * runs, and the COMMIT behind it neither.
 */
export class ServerTransaction {
  private readonly pending: Array<{ sql: string; params: readonly unknown[] }> = [{ sql: 'START TRANSACTION', params: [] }];
  private pendingChars = 0;
  /** Whether anything went to the server: only then is there a transaction to roll back. */
  private sent = false;

  constructor(private readonly connection: ServerConnection) {}

  /** The rows of a statement, or its result header: sent with every write deferred before it. */
  answer<R>(sql: string, params: readonly unknown[]): Promise<R> {
    return this.send<R>({ sql, params });
  }

  async affected(sql: string, params: readonly unknown[]): Promise<number> {
    return (await this.answer<ResultHeader>(sql, params)).affectedRows ?? 0;
  }

  /** A write sent later, with the next statement that answers or the commit (sooner when the batch grows large). */
  async defer(sql: string, params: readonly unknown[]): Promise<void> {
    this.pending.push({ sql, params });
    this.pendingChars += sql.length + params.reduce<number>((sum, value) => sum + charsOf(value), 0);
    if (this.pendingChars >= BATCH_FLUSH_CHARS) await this.send();
  }

  async commit(): Promise<void> {
    await this.send({ sql: 'COMMIT', params: [] });
  }

  /** Undoes what was sent; closes the connection when even that fails (the pool must not get it back mid-transaction). */
  async rollback(): Promise<void> {
    this.pending.length = 0;
    if (this.sent) await this.connection.query('ROLLBACK').catch(() => this.connection.discard());
  }

  /** The pending statements and `last`, one text, one round trip; `last`'s result (or the last pending one's). */
  private async send<R>(last?: { sql: string; params: readonly unknown[] }): Promise<R> {
    const batch = last ? [...this.pending, last] : [...this.pending];
    this.pending.length = 0;
    this.pendingChars = 0;
    this.sent = true;
    const result = await this.connection.query<unknown[]>(
      batch.map(({ sql }) => sql).join(';\n'),
      batch.flatMap(({ params }) => params),
    );
    // mysql2 answers one statement's result alone, several as an array of each one's.
    return (batch.length === 1 ? result : result[batch.length - 1]) as R;
  }
}

/** About how many characters a bound value adds to the statement's text. */
function charsOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Buffer.isBuffer(value)) return value.length * 2;
  return 8;
}

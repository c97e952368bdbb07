import type { ServerConnection } from './server-pool';

/**
 * At most this many bytes of SQL go in one batch, counted before escaping as twice the UTF-8 bytes of each bound
 * value (escaping at most doubles a string, hex doubles a Buffer): a batch stays far below MariaDB's
 * max_allowed_packet (16 MiB by default, 4 MiB at the lowest an operator would set) however large the rows (the
 * seed's multi-row upserts). A statement larger than this goes alone, as every statement did before batching.
 */
export const BATCH_LIMIT_BYTES = 1 << 20;

/** mysql2's answer to a write. */
export interface ResultHeader {
  affectedRows?: number;
}

interface Pending {
  sql: string;
  params: readonly unknown[];
  bytes: number;
}

const pending = (sql: string, params: readonly unknown[] = []): Pending => ({ sql, params, bytes: bytesOf(sql, params) });

/**
 * One transaction on a MySQL server connection, in as few round trips as its statements allow (the primary's pool is
 * opened with `multipleStatements`). A write whose answer nobody reads (`defer`: the INSERTs of a unit of work) is
 * not sent alone: it goes with the next statement that answers (`answer`) or with the COMMIT, as one multi-statement
 * text, in the order they were made. `START TRANSACTION` goes with the first. A create (the connector, its tags, its
 * version, its change event) is one round trip, not six.
 *
 * What changes for the work: a deferred write's error (a duplicate key) is thrown by the transaction's next
 * statement that answers, or by its commit, not by `defer` itself. The server runs a batch's statements in order and
 * stops at the first error, so nothing after a failed write runs, the COMMIT behind it neither; and once a batch has
 * failed, every later statement of the transaction, and its commit, fail with that same error (work that caught it
 * must not commit the writes before it without those after). A batch whose deadline passes is stopped on the server
 * (ServerPool kills the connection's thread), so a COMMIT in it does not run after the caller was told it failed.
 */
export class ServerTransaction {
  private readonly pending: Pending[] = [pending('START TRANSACTION')];
  private pendingBytes = 0;
  /** Whether anything went to the server: only then is there a transaction to roll back. */
  private sent = false;
  private failure: { error: unknown } | undefined;

  constructor(private readonly connection: ServerConnection) {}

  /** The rows of a statement, or its result header: sent with every write deferred before it. */
  answer<R>(sql: string, params: readonly unknown[]): Promise<R> {
    return this.sendWith<R>(pending(sql, params));
  }

  async affected(sql: string, params: readonly unknown[]): Promise<number> {
    return (await this.answer<ResultHeader>(sql, params)).affectedRows ?? 0;
  }

  /** A write sent later, with the next statement that answers or the commit (sooner when the batch would grow too large). */
  async defer(sql: string, params: readonly unknown[]): Promise<void> {
    this.throwIfFailed();
    const write = pending(sql, params);
    // Nothing pending (a statement that answered just took it): an empty batch would be an empty query.
    if (this.pending.length > 0 && this.pendingBytes + write.bytes > BATCH_LIMIT_BYTES) await this.send(this.takePending());
    this.pending.push(write);
    this.pendingBytes += write.bytes;
    if (this.pendingBytes >= BATCH_LIMIT_BYTES) await this.send(this.takePending());
  }

  async commit(): Promise<void> {
    await this.sendWith(pending('COMMIT'));
  }

  /** Undoes what was sent; closes the connection when even that fails (the pool must not get it back mid-transaction). */
  async rollback(): Promise<void> {
    this.takePending();
    if (this.sent) await this.connection.query('ROLLBACK').catch(() => this.connection.discard());
  }

  /** The pending statements and `last`, `last`'s result; the pending ones first on their own when both would be too large. */
  private async sendWith<R>(last: Pending): Promise<R> {
    this.throwIfFailed();
    if (this.pending.length > 0 && this.pendingBytes + last.bytes > BATCH_LIMIT_BYTES) await this.send(this.takePending());
    return this.send<R>([...this.takePending(), last]);
  }

  /** One text, one round trip: the last statement's result. */
  private async send<R>(batch: Pending[]): Promise<R> {
    this.throwIfFailed();
    this.sent = true;
    try {
      const result = await this.connection.query<unknown[]>(
        batch.map(({ sql }) => sql).join(';\n'),
        batch.flatMap(({ params }) => params),
      );
      // mysql2 answers one statement's result alone, several as an array of each one's.
      return (batch.length === 1 ? result : result[batch.length - 1]) as R;
    } catch (error) {
      this.failure = { error };
      throw error;
    }
  }

  private takePending(): Pending[] {
    const taken = this.pending.splice(0);
    this.pendingBytes = 0;
    return taken;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}

/** An upper bound of the bytes a statement takes once its values are escaped into it. */
function bytesOf(sql: string, params: readonly unknown[]): number {
  let bytes = Buffer.byteLength(sql);
  for (const value of params) {
    if (typeof value === 'string') bytes += 2 * Buffer.byteLength(value) + 2;
    else if (Buffer.isBuffer(value)) bytes += 2 * value.length + 3;
    else bytes += 32;
  }
  return bytes;
}

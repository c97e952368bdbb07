import type { ServerConnection } from './server-pool';
import type { TransactionSession } from './transaction-statements';

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
 * not sent alone: it goes with the next statement that answers (`rows`, `affected`) or with the COMMIT, as one
 * multi-statement text, in the order they were made. `START TRANSACTION` goes with the first. A create (the
 * connector, its tags, its version, its change event) is one round trip, not six.
 *
 * A deferred write's error (a duplicate key) is thrown by the transaction's next statement that answers, or by its
 * commit, never by `defer` (which returns at once: a batch that grew past the limit is sent in the background, and
 * its failure waits for the next answering statement too). The server runs a batch's statements in order and stops
 * at the first error, so nothing after a failed write runs, the COMMIT behind it neither; and once a batch has
 * failed, every later statement of the transaction, and its commit, fail with that same error (work that caught it
 * must not commit the writes before it without those after). A batch whose deadline passes is stopped on the server
 * (ServerPool kills the connection's thread), so a COMMIT in it does not run after the caller was told it failed.
 */
export class ServerTransaction implements TransactionSession {
  private readonly pending: Pending[] = [pending('START TRANSACTION')];
  private pendingBytes = 0;
  /** Whether anything went to the server: only then is there a transaction to roll back. */
  private sent = false;
  private failure: { error: unknown } | undefined;
  /** The batches sent so far, one after another: settled when the last has answered, rejected when one failed. */
  private sending: Promise<void> = Promise.resolve();

  constructor(private readonly connection: ServerConnection) {}

  /** The rows of a statement: sent with every write deferred before it. */
  rows<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    return this.sendWith<R[]>(pending(sql, params));
  }

  async affected(sql: string, params: readonly unknown[]): Promise<number> {
    return (await this.sendWith<ResultHeader>(pending(sql, params))).affectedRows ?? 0;
  }

  /** A write sent later, with the next statement that answers or the commit (sooner, in the background, when the batch would grow too large). */
  defer(sql: string, params: readonly unknown[]): void {
    const write = pending(sql, params);
    if (this.pendingBytes + write.bytes > BATCH_LIMIT_BYTES) this.flushInBackground();
    this.pending.push(write);
    this.pendingBytes += write.bytes;
    if (this.pendingBytes >= BATCH_LIMIT_BYTES) this.flushInBackground();
  }

  async commit(): Promise<void> {
    await this.sendWith(pending('COMMIT'));
  }

  /** Undoes what was sent; closes the connection when even that fails (the pool must not get it back mid-transaction). */
  async rollback(): Promise<void> {
    this.takePending();
    await this.sending.catch(() => undefined);
    if (this.sent) await this.connection.query('ROLLBACK').catch(() => this.connection.discard());
  }

  /** The pending statements and `last`, `last`'s result; the pending ones first on their own when both would be too large. */
  private sendWith<R>(last: Pending): Promise<R> {
    if (this.pendingBytes + last.bytes > BATCH_LIMIT_BYTES) this.flushInBackground();
    return this.sendAfter<R>([...this.takePending(), last]);
  }

  /** Sends what is pending on its own, when anything is (an empty text is a server error, ER_EMPTY_QUERY); its error is the next statement's. */
  private flushInBackground(): void {
    if (this.pending.length > 0) this.sendAfter(this.takePending()).catch(() => undefined);
  }

  /** `batch`, once every batch before it has answered (one statement at a time on the connection); not after one that failed. */
  private sendAfter<R>(batch: Pending[]): Promise<R> {
    const result = this.sending.then(() => this.send<R>(batch));
    this.sending = result.then(() => undefined);
    // Awaited by the next batch, or by the rollback: not unhandled in between.
    this.sending.catch(() => undefined);
    return result;
  }

  /** One text, one round trip: the last statement's result. */
  private async send<R>(batch: Pending[]): Promise<R> {
    if (this.failure) throw this.failure.error;
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

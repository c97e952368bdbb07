import { Injectable } from '@nestjs/common';
import { Database, Transaction } from '../database/database';
import { IDEMPOTENCY_KEY_ROWS, IdempotencyKey, StoredAnswer } from './idempotency-key.entity';

type KeyId = Pick<IdempotencyKey, 'callerSub' | 'idempotencyKey'>;

const ROWS = IDEMPOTENCY_KEY_ROWS;
const ANSWER_ROWS = ROWS.pick('state', 'responseStatus', 'responseBody');
const BY_ID = 'caller_sub = ? AND idempotency_key = ?';
const idOf = (id: KeyId) => [id.callerSub, id.idempotencyKey];

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /** Takes the key; throws the driver's duplicate-key error when someone holds it. */
  async insert(row: IdempotencyKey): Promise<void> {
    await this.db.insert(ROWS, [row]);
  }

  /** From the primary: the key may have been taken a moment ago. */
  async find(id: KeyId): Promise<IdempotencyKey | null> {
    const [row] = await this.db.rows(`SELECT ${ROWS.select('k')} FROM idempotency_keys k WHERE ${BY_ID}`, idOf(id), 'primary');
    return row ? ROWS.from(row) : null;
  }

  /** Deletes the row only if it is still the one read (compare-and-set on lockedAt). */
  async deleteIfUnchanged(row: IdempotencyKey): Promise<void> {
    await this.db.run(`DELETE FROM idempotency_keys WHERE ${BY_ID} AND locked_at = ?`, [...idOf(row), row.lockedAt]);
  }

  /** Takes over a request that never finished; false if another retry took it first. */
  async takeOver(row: IdempotencyKey, lockedAt: Date): Promise<boolean> {
    const taken = await this.db.run(`UPDATE idempotency_keys SET locked_at = ? WHERE ${BY_ID} AND state = 'in_progress' AND locked_at = ?`, [
      lockedAt,
      ...idOf(row),
      row.lockedAt,
    ]);
    return taken > 0;
  }

  /** Records the answer, in the transaction of the write it answers for. */
  async complete(tx: Transaction, id: KeyId, responseStatus: number, responseBody: StoredAnswer): Promise<void> {
    await tx.run(`UPDATE idempotency_keys SET ${ANSWER_ROWS.assignments} WHERE ${BY_ID}`, [
      ...ANSWER_ROWS.values({ state: 'completed', responseStatus, responseBody }),
      ...idOf(id),
    ]);
  }

  /** Frees a key whose request failed, so that it may be retried. */
  async release(id: KeyId): Promise<void> {
    await this.db.run(`DELETE FROM idempotency_keys WHERE ${BY_ID} AND state = 'in_progress'`, idOf(id));
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.run('DELETE FROM idempotency_keys WHERE expires_at < ?', [now]);
  }
}

import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, Transaction } from '../database/database';
import { statement, writeStatement } from '../database/statement';
import { IDEMPOTENCY_KEY_ROWS, IdempotencyKey, StoredAnswer } from './idempotency-key.entity';

type KeyId = Pick<IdempotencyKey, 'callerSub' | 'idempotencyKey'>;

const ROWS = IDEMPOTENCY_KEY_ROWS;
const ANSWER_ROWS = ROWS.pick('state', 'responseStatus', 'responseBody');
const BY_ID = 'caller_sub = :callerSub AND idempotency_key = :idempotencyKey';
const FIND = statement(`SELECT ${ROWS.select('k')} FROM idempotency_keys k WHERE ${BY_ID}`);
const DELETE_IF_UNCHANGED = statement(`DELETE FROM idempotency_keys WHERE ${BY_ID} AND locked_at = :lockedAt`);
const TAKE_OVER = statement(`UPDATE idempotency_keys SET locked_at = :takenAt WHERE ${BY_ID} AND state = 'in_progress' AND locked_at = :lockedAt`);
const COMPLETE = writeStatement(ANSWER_ROWS, `UPDATE idempotency_keys SET ${ANSWER_ROWS.assignments} WHERE ${BY_ID}`);
const RELEASE = statement(`DELETE FROM idempotency_keys WHERE ${BY_ID} AND state = 'in_progress'`);
const DELETE_EXPIRED = statement('DELETE FROM idempotency_keys WHERE expires_at < :now');

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /** Takes the key; throws the driver's duplicate-key error when someone holds it. */
  @GenerateSql({ params: [{}] })
  async insert(row: IdempotencyKey): Promise<void> {
    await this.db.insert(ROWS, [row]);
  }

  /** From the primary: the key may have been taken a moment ago. */
  @GenerateSql({ params: [DummyValue.KEY_ID] })
  async find(id: KeyId): Promise<IdempotencyKey | null> {
    const [row] = await this.db.rows(FIND, id, 'primary');
    return row ? ROWS.from(row) : null;
  }

  /** Deletes the row only if it is still the one read (compare-and-set on lockedAt). */
  @GenerateSql({ params: [{ ...DummyValue.KEY_ID, lockedAt: DummyValue.DATE }] })
  async deleteIfUnchanged(row: IdempotencyKey): Promise<void> {
    await this.db.run(DELETE_IF_UNCHANGED, row);
  }

  /** Takes over a request that never finished; false if another retry took it first. */
  @GenerateSql({ params: [{ ...DummyValue.KEY_ID, lockedAt: DummyValue.DATE }, DummyValue.DATE] })
  async takeOver(row: IdempotencyKey, lockedAt: Date): Promise<boolean> {
    const taken = await this.db.run(TAKE_OVER, { ...row, takenAt: lockedAt });
    return taken > 0;
  }

  /** Records the answer, in the transaction of the write it answers for. */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.KEY_ID, 201, { uuid: DummyValue.UUID }] })
  async complete(tx: Transaction, id: KeyId, responseStatus: number, responseBody: StoredAnswer): Promise<void> {
    await tx.run(COMPLETE, { callerSub: id.callerSub, idempotencyKey: id.idempotencyKey, state: 'completed', responseStatus, responseBody });
  }

  /** Frees a key whose request failed, so that it may be retried. */
  @GenerateSql({ params: [DummyValue.KEY_ID] })
  async release(id: KeyId): Promise<void> {
    await this.db.run(RELEASE, id);
  }

  @GenerateSql({ params: [DummyValue.DATE] })
  async deleteExpired(now: Date): Promise<void> {
    await this.db.run(DELETE_EXPIRED, { now });
  }
}

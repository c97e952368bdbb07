import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { readFrom } from '../database/read-from';
import { IdempotencyKey, StoredAnswer } from './idempotency-key.entity';

type KeyId = Pick<IdempotencyKey, 'callerSub' | 'idempotencyKey'>;

@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get keys() {
    return this.dataSource.getRepository(IdempotencyKey);
  }

  /** Takes the key; throws the driver's duplicate-key error when someone holds it. */
  async insert(row: IdempotencyKey): Promise<void> {
    await this.keys.insert(row);
  }

  /** From the primary: the key may have been taken a moment ago. */
  find(id: KeyId): Promise<IdempotencyKey | null> {
    return readFrom(this.dataSource, 'primary', (manager) => manager.findOneBy(IdempotencyKey, id));
  }

  /** Deletes the row only if it is still the one read (compare-and-set on lockedAt). */
  async deleteIfUnchanged(row: IdempotencyKey): Promise<void> {
    await this.keys.delete({ callerSub: row.callerSub, idempotencyKey: row.idempotencyKey, lockedAt: row.lockedAt });
  }

  /** Takes over a request that never finished; false if another retry took it first. */
  async takeOver(row: IdempotencyKey, lockedAt: Date): Promise<boolean> {
    const result = await this.keys.update(
      { callerSub: row.callerSub, idempotencyKey: row.idempotencyKey, state: 'in_progress', lockedAt: row.lockedAt },
      { lockedAt },
    );
    return Boolean(result.affected);
  }

  /** Records the answer, in the transaction of the write it answers for. */
  async complete(manager: EntityManager, id: KeyId, responseStatus: number, responseBody: StoredAnswer): Promise<void> {
    await manager.update(IdempotencyKey, id, { state: 'completed', responseStatus, responseBody });
  }

  /** Frees a key whose request failed, so that it may be retried. */
  async release(id: KeyId): Promise<void> {
    await this.keys.delete({ ...id, state: 'in_progress' });
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.keys.delete({ expiresAt: LessThan(now) });
  }
}

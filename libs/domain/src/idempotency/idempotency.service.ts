import { Injectable } from '@nestjs/common';
import { Transaction } from '../database/database';
import { isDuplicateKey } from '../database/database-errors';
import { StoredAnswer } from './idempotency-key.entity';
import { IdempotencyKeyReusedException, IdempotentRequestInProgressException } from './idempotency.exceptions';
import { IdempotencyRepository } from './idempotency.repository';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request holding its key this long without finishing has died; a retry may take the key over. */
export const ABANDONED_AFTER_MS = 60 * 1000;
/** Expired keys are swept by one request in this many. */
const SWEEP_ONE_IN = 100;

export interface IdempotentRequest {
  callerSub: string;
  key: string;
  fingerprint: string;
}

export interface StoredResponse {
  status: number;
  body: StoredAnswer;
}

/**
 * Idempotency-Key semantics for creates: the first request with a key runs and its answer is stored with
 * the write it made (one transaction); a retry with the same request gets that answer again; the same
 * key with another request is a 422; a retry while the first still runs is a 409 and creates nothing.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyRepository) {}

  /**
   * Runs `write` once per request: without one (no Idempotency-Key) it simply runs; with one, a retry of a request
   * that completed gets its stored answer back (read by `replayed`) and runs nothing, and a write that fails frees
   * the key for the corrected retry. `write` stores its answer with `complete`, in the unit of work it makes.
   */
  async once<T>(
    request: IdempotentRequest | undefined,
    write: (request: IdempotentRequest | undefined) => Promise<T>,
    replayed: (stored: StoredResponse) => T,
  ): Promise<T> {
    if (!request) return write(undefined);
    const stored = await this.begin(request);
    if (stored) return replayed(stored);
    try {
      return await write(request);
    } catch (error) {
      await this.release(request);
      throw error;
    }
  }

  /** Takes the key and returns undefined (go ahead), or returns the stored answer to replay. */
  private async begin(request: IdempotentRequest, now = new Date()): Promise<StoredResponse | undefined> {
    const id = { callerSub: request.callerSub, idempotencyKey: request.key };
    if (Math.floor(Math.random() * SWEEP_ONE_IN) === 0) await this.keys.deleteExpired(now);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.keys.insert({
          ...id,
          fingerprint: request.fingerprint,
          state: 'in_progress',
          responseStatus: null,
          responseBody: null,
          lockedAt: now,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        });
        return undefined;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const held = await this.keys.find(id);
      if (!held) continue;
      if (held.expiresAt <= now) {
        await this.keys.deleteIfUnchanged(held);
        continue;
      }
      if (held.fingerprint !== request.fingerprint) throw new IdempotencyKeyReusedException();
      if (held.state === 'completed') return { status: held.responseStatus ?? 200, body: held.responseBody ?? {} };
      const abandoned = now.getTime() - held.lockedAt.getTime() > ABANDONED_AFTER_MS;
      if (abandoned && (await this.keys.takeOver(held, now))) return undefined;
      throw new IdempotentRequestInProgressException();
    }
    throw new IdempotentRequestInProgressException();
  }

  /** Stores the answer in the unit of work that made the write it answers for. */
  complete(tx: Transaction, request: IdempotentRequest, response: StoredResponse): Promise<void> {
    return this.keys.complete(tx, { callerSub: request.callerSub, idempotencyKey: request.key }, response.status, response.body);
  }

  private release(request: IdempotentRequest): Promise<void> {
    return this.keys.release({ callerSub: request.callerSub, idempotencyKey: request.key });
  }
}

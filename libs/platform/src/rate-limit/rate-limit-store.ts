/** What a store answers for one request it was asked to count. */
export interface RateLimitHit {
  totalHits: number;
  /** Seconds until the oldest counted hit leaves the window. */
  timeToExpire: number;
  isBlocked: boolean;
  /** Seconds until a blocked caller may send again (0 when not blocked). */
  timeToBlockExpire: number;
  /** The store could not count (Redis unreachable): the request is let through and nothing about the limit is known. */
  unenforced?: true;
}

/**
 * Where the rate limits are counted: in each process (RateLimitCounters, the embedded default) or, with
 * REDIS_URL, in Redis for every replica at once (RedisRateLimitStore). The guards and AddressRateLimit ask
 * this and nothing else, so both limits (the per-caller one and the test-run one) count the same way.
 */
export abstract class RateLimitStore {
  /** One request of `key`: counted unless the last minute already holds `limit`. The memory store answers at once. */
  abstract hit(key: string, limit: number): RateLimitHit | Promise<RateLimitHit>;

  /** Seconds until `key` may be counted again (0: it may now), counting nothing and without a round trip. */
  abstract blockedFor(key: string, limit: number): number;

  /** The line of `/health/ready`'s details, for a store outside the process (undefined: none). */
  health(): Promise<'up' | 'down'> | undefined {
    return undefined;
  }
}

/** `then` applied to a store's answer, without a promise when the store answered at once (the memory store). */
export function whenCounted<T>(hit: RateLimitHit | Promise<RateLimitHit>, then: (answer: RateLimitHit) => T): T | Promise<T> {
  return hit instanceof Promise ? hit.then(then) : then(hit);
}

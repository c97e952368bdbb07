import pino from 'pino';
import { Registry } from 'prom-client';
import { randomUUID } from 'node:crypto';
import { RateLimitCounters } from '../../libs/platform/src/performance/rate-limit-counters';
import { RateLimitHit } from '../../libs/platform/src/rate-limit/rate-limit-store';
import { connectRateLimitRedis, RedisRateLimitStore } from '../../libs/platform/src/rate-limit/redis-rate-limit-store';
import { TEST_REDIS_URL } from '../support/test-redis';

/**
 * A window of two seconds (ten 200 ms buckets and the one filling), so that expiry shows within a test, with
 * 750 ms of margin where a hit must still be counted.
 */
const WINDOW_MS = 2_000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The Redis store's script counts exactly as the memory store does: the same sequence of hits gives the same
 * answers from both, on the real Redis, including when hits leave the window.
 */
describe('Rate-limit stores: Redis counts as memory does', () => {
  let redis: RedisRateLimitStore;
  let memory: RateLimitCounters;
  let key: string;

  beforeAll(async () => {
    redis = new RedisRateLimitStore(
      await connectRateLimitRedis(TEST_REDIS_URL),
      `rate-limit-test:${randomUUID()}`,
      WINDOW_MS,
      pino({ level: 'silent' }),
      new Registry(),
    );
    memory = new RateLimitCounters(WINDOW_MS);
    while ((await redis.health()) !== 'up') await sleep(20);
  });
  afterAll(async () => {
    await redis.onApplicationShutdown();
    memory.onApplicationShutdown();
  });
  beforeEach(() => (key = `sub:${randomUUID()}`));

  const both = async (limit: number): Promise<[RateLimitHit, RateLimitHit]> => [await redis.hit(key, limit), memory.hit(key, limit)];
  const comparable = ({ totalHits, isBlocked }: RateLimitHit) => ({ totalHits, isBlocked });

  it('counts up to the limit, refuses beyond it without counting, and says when the caller may send again', async () => {
    for (let i = 1; i <= 3; i++) {
      const [fromRedis, fromMemory] = await both(3);
      expect(comparable(fromRedis)).toEqual({ totalHits: i, isBlocked: false });
      expect(comparable(fromRedis)).toEqual(comparable(fromMemory));
    }
    for (let i = 0; i < 2; i++) {
      const [fromRedis, fromMemory] = await both(3);
      expect(comparable(fromRedis)).toEqual({ totalHits: 4, isBlocked: true });
      expect(comparable(fromRedis)).toEqual(comparable(fromMemory));
      // A hit counts for 2.0-2.2 s here: Retry-After is the whole seconds until the oldest bucket leaves.
      expect([2, 3]).toContain(fromRedis.timeToBlockExpire);
      expect([2, 3]).toContain(fromMemory.timeToBlockExpire);
    }
    expect(redis.blockedFor(key)).toBeGreaterThan(0);
    expect(memory.blockedFor(key, 3)).toBeGreaterThan(0);
  });

  it('lets the caller in again once its hits have left the window, and counts afresh', async () => {
    for (let i = 0; i < 2; i++) await both(2);
    const [refused] = await both(2);
    expect(refused.isBlocked).toBe(true);

    await sleep(WINDOW_MS + WINDOW_MS / 10 + 50);
    const [fromRedis, fromMemory] = await both(2);

    expect(comparable(fromRedis)).toEqual({ totalHits: 1, isBlocked: false });
    expect(comparable(fromMemory)).toEqual({ totalHits: 1, isBlocked: false });
    expect(redis.blockedFor(key)).toBe(0);
  });

  it('keeps the hits of the older buckets while they are in the window', async () => {
    await both(3);
    await sleep(WINDOW_MS / 2);
    await both(3);
    const [third] = await both(3);
    const [fourth, fourthInMemory] = await both(3);
    await sleep(WINDOW_MS / 2 + WINDOW_MS / 10 + 50);
    // The first hit has left; the two of half a second later have not.
    const [afterFirstLeft, inMemory] = await both(3);

    expect(third.isBlocked).toBe(false);
    expect(comparable(fourth)).toEqual(comparable(fourthInMemory));
    expect(fourth.isBlocked).toBe(true);
    expect(comparable(afterFirstLeft)).toEqual({ totalHits: 3, isBlocked: false });
    expect(comparable(inMemory)).toEqual({ totalHits: 3, isBlocked: false });
  });
});

import { RateLimitCounters } from './rate-limit-counters';

const MINUTE = 60_000;

describe('RateLimitCounters', () => {
  let now: number;
  let storage: RateLimitCounters;

  beforeEach(() => {
    now = 1_800_000_000_000;
    storage = new RateLimitCounters(MINUTE, () => now);
  });
  afterEach(() => storage.onApplicationShutdown());

  it('lets `limit` hits through, refuses the next with the seconds until a hit expires, and does not count refusals', () => {
    for (let i = 1; i <= 3; i++) expect(storage.hit('alice', 3)).toMatchObject({ totalHits: i, isBlocked: false, timeToBlockExpire: 0 });
    const refused = storage.hit('alice', 3);
    expect(refused).toMatchObject({ totalHits: 4, isBlocked: true });
    expect(refused.timeToBlockExpire).toBeGreaterThan(60);
    expect(refused.timeToBlockExpire).toBeLessThanOrEqual(66);

    // Refusals do not extend the wait: once the first hits expire, the caller is in again.
    for (let i = 0; i < 100; i++) expect(storage.hit('alice', 3).isBlocked).toBe(true);
    now += refused.timeToBlockExpire * 1000;
    expect(storage.hit('alice', 3)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('counts every hit for at least the ttl: no rolling minute lets more than `limit` through', () => {
    const limit = 20;
    const admitted: number[] = [];
    // A request every 700 ms for five minutes.
    for (let t = 0; t < 5 * MINUTE; t += 700) {
      if (!storage.hit('bob', limit).isBlocked) admitted.push(now);
      now += 700;
    }
    for (const start of admitted) {
      expect(admitted.filter((at) => at >= start && at < start + MINUTE).length).toBeLessThanOrEqual(limit);
    }
    // And it is not stingy: over five minutes it admits more than four minutes' worth.
    expect(admitted.length).toBeGreaterThan(4 * limit);
  });

  it('tells how long a caller is refused for without counting a hit', () => {
    expect(storage.blockedFor('alice', 2)).toBe(0);
    expect(storage.size).toBe(0);
    storage.hit('alice', 2);
    expect(storage.blockedFor('alice', 2)).toBe(0);
    storage.hit('alice', 2);
    const seconds = storage.blockedFor('alice', 2);

    expect(seconds).toBe(storage.hit('alice', 2).timeToBlockExpire);
    now += seconds * 1000;
    expect(storage.blockedFor('alice', 2)).toBe(0);
    expect(storage.hit('alice', 2)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps callers apart', () => {
    storage.hit('alice', 1);
    expect(storage.hit('alice', 1).isBlocked).toBe(true);
    expect(storage.hit('bob', 1).isBlocked).toBe(false);
  });

  it('answers a caller far above 120,000 hits a minute, where the memory store of @nestjs/throttler throws (Math.min(...hits))', () => {
    const hits = 200_000;
    let last = storage.hit('busy', 10_000_000);
    for (let i = 1; i < hits; i++) last = storage.hit('busy', 10_000_000);
    expect(last).toMatchObject({ totalHits: hits, isBlocked: false });
  });

  it('forgets callers whose hits have all expired', () => {
    storage.hit('alice', 5);
    now += 30_000;
    storage.hit('bob', 5);
    now += 40_000;
    storage.sweep();
    expect(storage.size).toBe(1);
    now += 40_000;
    storage.sweep();
    expect(storage.size).toBe(0);
  });
});

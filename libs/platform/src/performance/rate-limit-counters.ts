import { OnApplicationShutdown } from '@nestjs/common';
import { RateLimitHit, RateLimitStore } from '../rate-limit/rate-limit-store';

/** Buckets a window is counted in: a hit expires between `window` and `window + window / BUCKETS` after it was made. */
export const BUCKETS = 10;
/** One more slot than buckets: the newest bucket fills while the ten before it are still counted. */
export const SLOTS = BUCKETS + 1;

interface CallerWindow {
  /** Hits per bucket, a ring indexed by the bucket number modulo SLOTS. */
  counts: Uint32Array;
  /** Hits in the window: the sum of `counts`. */
  total: number;
  /** Bucket number (time / bucket width) of the newest bucket. */
  newest: number;
}

/**
 * The rate limit's counters (CallerRateLimitGuard): per caller, the hits of the last `windowMs` in
 * BUCKETS buckets, so a request costs a constant time and a caller a constant 80 bytes however high the
 * limit. (@nestjs/throttler's memory store keeps one timestamp per hit and takes `Math.min(...hits)`: past
 * ~120,000 hits a minute that throws a RangeError and the request answers 500.)
 *
 * A caller is refused while the window holds `limit` hits; refused requests are not counted, so the
 * caller gets in again as soon as its oldest bucket expires (Retry-After says when). A hit is counted
 * for at least `windowMs`: no rolling `windowMs` ever lets more than `limit` through.
 */
export class RateLimitCounters extends RateLimitStore implements OnApplicationShutdown {
  private readonly windows = new Map<string, CallerWindow>();
  private readonly width: number;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.width = bucketWidth(windowMs);
  }

  /** One request of the caller `key`: counted unless the last `windowMs` already hold `limit`. */
  hit(key: string, limit: number): RateLimitHit {
    const now = this.now();
    const bucket = Math.floor(now / this.width);
    let window = this.windows.get(key);
    if (!window) {
      window = { counts: new Uint32Array(SLOTS), total: 0, newest: bucket };
      this.windows.set(key, window);
      this.startSweeping();
    }
    advance(window, bucket);
    const isBlocked = window.total >= limit;
    if (!isBlocked) {
      window.counts[bucket % SLOTS]++;
      window.total++;
    }
    const untilFree = secondsUntilFree(window, this.width, now);
    return {
      totalHits: window.total + (isBlocked ? 1 : 0),
      timeToExpire: untilFree,
      isBlocked,
      timeToBlockExpire: isBlocked ? untilFree : 0,
    };
  }

  /**
   * Seconds until the caller `key` may be counted again (0: it may now), counting nothing: whether a
   * request would be refused, asked before the request is known to count (AddressRateLimit).
   */
  blockedFor(key: string, limit: number): number {
    const window = this.windows.get(key);
    if (!window) return 0;
    const now = this.now();
    advance(window, Math.floor(now / this.width));
    if (window.total < limit) return 0;
    return secondsUntilFree(window, this.width, now);
  }

  /** Callers with a window (tests: idle ones are forgotten). */
  get size(): number {
    return this.windows.size;
  }

  /** Forgets callers whose every hit has expired. */
  sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (Math.floor(now / this.width) - window.newest >= SLOTS) this.windows.delete(key);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.windows.clear();
  }

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), Math.max(1_000, this.windowMs));
    this.sweeper.unref();
  }
}

/** Milliseconds of one bucket of a `windowMs` window (the Redis store counts in the same buckets). */
export const bucketWidth = (windowMs: number): number => Math.max(1, Math.ceil(windowMs / BUCKETS));

/** Moves the window to `bucket`, emptying the buckets that fell out of it. */
function advance(window: CallerWindow, bucket: number): void {
  const steps = bucket - window.newest;
  if (steps <= 0) return;
  if (steps >= SLOTS) {
    window.counts.fill(0);
    window.total = 0;
  } else {
    for (let b = window.newest + 1; b <= bucket; b++) {
      window.total -= window.counts[b % SLOTS];
      window.counts[b % SLOTS] = 0;
    }
  }
  window.newest = bucket;
}

/** The oldest bucket with hits leaves the window when bucket `oldest + SLOTS` begins. */
function secondsUntilFree(window: CallerWindow, width: number, now: number): number {
  const oldest = oldestWithHits(window);
  return oldest === undefined ? 0 : Math.max(1, Math.ceil(((oldest + SLOTS) * width - now) / 1000));
}

function oldestWithHits(window: CallerWindow): number | undefined {
  for (let b = window.newest - SLOTS + 1; b <= window.newest; b++) {
    if (window.counts[((b % SLOTS) + SLOTS) % SLOTS] > 0) return b;
  }
  return undefined;
}

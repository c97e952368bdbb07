import { OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { Logger } from 'pino';
import { Counter, Gauge, Registry } from 'prom-client';
import { bucketWidth, SLOTS } from '../performance/rate-limit-counters';
import { RateLimitHit, RateLimitStore } from './rate-limit-store';

/**
 * One request of a caller, atomically, in one round trip: the caller's hash maps bucket numbers to hits.
 * Buckets that left the window are dropped, the window's hits summed, and the request counted unless they
 * already reach the limit, exactly as RateLimitCounters counts in memory. The time is Redis's own (TIME),
 * so replicas whose clocks differ still share one window. Answers { hits, seconds until free, blocked, ms until free }.
 */
const HIT_SCRIPT = `
local limit = tonumber(ARGV[1])
local width = tonumber(ARGV[2])
local slots = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucket = math.floor(now / width)
local first = bucket - slots + 1
local total = 0
local oldest = nil
local stored = redis.call('HGETALL', KEYS[1])
for i = 1, #stored, 2 do
  local b = tonumber(stored[i])
  if b < first then
    redis.call('HDEL', KEYS[1], stored[i])
  else
    total = total + tonumber(stored[i + 1])
    if oldest == nil or b < oldest then oldest = b end
  end
end
local blocked = 0
if total >= limit then
  blocked = 1
else
  redis.call('HINCRBY', KEYS[1], string.format('%d', bucket), 1)
  redis.call('PEXPIRE', KEYS[1], slots * width)
  total = total + 1
  if oldest == nil then oldest = bucket end
end
local untilFree = (oldest + slots) * width - now
return { total, math.max(1, math.ceil(untilFree / 1000)), blocked, untilFree }
`;

/** A command Redis has not answered in this time fails, and the request goes on without the limit. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/**
 * After a failed count, requests go on without the limit at once for this long instead of each waiting for Redis
 * (a Redis that stopped answering would otherwise hold every request for the command timeout).
 */
export const PAUSE_AFTER_FAILURE_MS = 1_000;

interface RateLimitRedis extends Redis {
  rateLimitHit(key: string, limit: number, width: number, slots: number): Promise<[number, number, number, number]>;
}

/**
 * ioredis as the limits need it: a command fails at once while Redis is away (no queue, no retry), and
 * reconnection never stops. A connection that stops answering without closing (a vanished pod, a failover) is
 * dropped after a second without an answer to a sent command (`socketTimeout`) and opened again, rather than kept
 * until TCP gives up. Loaded only with REDIS_URL: without it the module's source is not held in memory.
 */
export async function connectRateLimitRedis(url: string): Promise<Redis> {
  const { default: Client } = await import('ioredis');
  return new Client(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    socketTimeout: 2 * REDIS_COMMAND_TIMEOUT_MS,
    keepAlive: 10_000,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
}

const UNENFORCED: RateLimitHit = { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0, unenforced: true };

/**
 * The rate limits counted in Redis (REDIS_URL), so that N replicas enforce one limit. One EVALSHA per
 * counted request (HIT_SCRIPT). When Redis is unreachable the request is let through uncounted
 * (`rate_limit_unenforced_total`), the change is logged once each way, and the next command after ioredis
 * reconnects counts again: a rate limiter must not take the API down (docs/decisions.md, "Limits across replicas").
 *
 * `blockedFor` answers without a round trip, from the blocks this replica has seen in Redis's answers: an
 * address that used up its refusals on another replica is refused here after its first refusal here.
 */
export class RedisRateLimitStore extends RateLimitStore implements OnApplicationShutdown {
  private readonly redis: RateLimitRedis;
  private readonly width: number;
  /** Keys this replica has seen reach their limit, with the time (ms) they may send again. */
  private readonly blocks = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly up: Gauge;
  private readonly unenforced: Counter;
  /** Undefined until the first answer or failure: each change is logged once. */
  private reachable?: boolean;
  private closing = false;
  /** Until this time (ms) requests go on uncounted without asking Redis (PAUSE_AFTER_FAILURE_MS). */
  private pausedUntil = 0;

  constructor(
    redis: Redis,
    /** Keys are `<prefix>:<key>`: the app's label, so that each app keeps its own limit. */
    private readonly prefix: string,
    windowMs: number,
    private readonly logger: Logger,
    registry: Registry,
    private readonly now: () => number = Date.now,
  ) {
    super();
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RateLimitRedis;
    this.width = bucketWidth(windowMs);
    this.up = new Gauge({
      name: 'rate_limit_redis_up',
      help: 'Whether Redis, where the rate limits are counted, answers (1) or not (0)',
      registers: [registry],
    });
    this.unenforced = new Counter({
      name: 'rate_limit_unenforced_total',
      help: 'Counts skipped because Redis did not answer: requests let through without a limit (a test run is counted by two limits)',
      registers: [registry],
    });
    this.up.set(0);
    redis.on('ready', () => {
      this.pausedUntil = 0;
      this.markReachable();
    });
    redis.on('error', (error: Error) => this.markUnreachable(error));
    redis.on('close', () => this.markUnreachable(new Error('connection closed')));
    this.sweeper = setInterval(() => this.sweep(), windowMs);
    this.sweeper.unref();
  }

  hit(key: string, limit: number): RateLimitHit | Promise<RateLimitHit> {
    if (this.now() < this.pausedUntil) {
      this.unenforced.inc();
      return UNENFORCED;
    }
    return this.redis.rateLimitHit(`${this.prefix}:${key}`, limit, this.width, SLOTS).then(
      ([total, untilFree, blocked, untilFreeMs]) => {
        this.markReachable();
        const isBlocked = blocked === 1;
        if (isBlocked || total >= limit) this.blocks.set(key, this.now() + untilFreeMs);
        return { totalHits: total + blocked, timeToExpire: untilFree, isBlocked, timeToBlockExpire: isBlocked ? untilFree : 0 };
      },
      (error: Error) => {
        this.pausedUntil = this.now() + PAUSE_AFTER_FAILURE_MS;
        this.markUnreachable(error);
        this.unenforced.inc();
        return UNENFORCED;
      },
    );
  }

  blockedFor(key: string): number {
    const until = this.blocks.get(key);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.blocks.delete(key);
    return 0;
  }

  /** Down while counts fail (a script Redis refuses, say, though it answers PING), else what PING says. */
  override health(): Promise<'up' | 'down'> {
    if (this.reachable === false) return Promise.resolve('down');
    return this.redis.ping().then(
      () => 'up',
      () => 'down',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    this.blocks.clear();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, until] of this.blocks) if (until <= now) this.blocks.delete(key);
  }

  private markReachable(): void {
    if (this.reachable === true) return;
    this.reachable = true;
    this.up.set(1);
    this.logger.info({ store: 'redis' }, 'rate limits: Redis is reachable, the limits are counted across replicas');
  }

  private markUnreachable(error: Error): void {
    if (this.reachable === false || this.closing) return;
    this.reachable = false;
    this.up.set(0);
    this.logger.warn(
      { store: 'redis', err: { message: error.message } },
      'rate limits: Redis is unreachable, requests are served without the limits until it returns',
    );
  }
}

import { GtidPosition } from '@app/domain';
import type Redis from 'ioredis';
import { Logger } from 'pino';
import { connectRateLimitRedis } from '../rate-limit/redis-rate-limit-store';

/** How long an app's start waits for Redis before it serves (the first writes are then shared too). */
const CONNECT_WAIT_MS = 2_000;

/**
 * Merges a caller's new write position into the stored one, atomically: the later sequence number of each
 * replication domain wins (two writes of one caller answered by two replicas in either order), compared as
 * decimal strings (64-bit numbers do not fit Lua's doubles). The key expires `ttl` ms after the last write.
 */
const MERGE_SCRIPT = `
local function later(a, b)
  if #a ~= #b then return #a > #b end
  return a > b
end
local merged = {}
local function add(text)
  if not text then return end
  for domain, server, seq in string.gmatch(text, '(%d+)-(%d+)-(%d+)') do
    local current = merged[domain]
    if current == nil or later(seq, current[2]) then merged[domain] = { server, seq } end
  end
end
add(redis.call('GET', KEYS[1]))
add(ARGV[1])
local parts = {}
for domain, gtid in pairs(merged) do table.insert(parts, domain .. '-' .. gtid[1] .. '-' .. gtid[2]) end
table.sort(parts)
redis.call('SET', KEYS[1], table.concat(parts, ','), 'PX', ARGV[2])
return 1
`;

/** Callers remembered in memory at most; the oldest write is forgotten first. */
const MAX_LOCAL_CALLERS = 100_000;

interface PositionsRedis extends Redis {
  mergeWritePosition(key: string, position: string, ttlMs: number): Promise<number>;
}

/**
 * Where each caller's last write committed (a GTID position), for as long as a replica may lag behind it
 * (`ttlMs`: the lag bound and a margin), so that the caller's next reads wait for it: read-your-writes.
 * In this process always; in Redis too with REDIS_URL, so a read on another replica of the app finds it.
 * Redis failing never fails a request: the position is then this process's own knowledge (the
 * Consistency-Token still holds whatever replica answers). docs/decisions.md, "Read-your-writes".
 */
export class WritePositions {
  private readonly local = new Map<string, { position: GtidPosition; until: number }>();
  private readonly redis: PositionsRedis | undefined;
  /** Undefined until Redis first answers or fails: each change is logged once, not each failed write. */
  private reachable: boolean | undefined;

  constructor(
    private readonly ttlMs: number,
    redis: Redis | undefined,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    redis?.defineCommand('mergeWritePosition', { numberOfKeys: 1, lua: MERGE_SCRIPT });
    this.redis = redis as PositionsRedis | undefined;
    // ioredis prints an 'error' nobody listens to on stderr, outside the JSON log: told here, once per change.
    redis?.on('error', (error: Error) => this.markReachable(false, error));
    redis?.on('ready', () => this.markReachable(true));
  }

  /**
   * With `redisUrl`, connected to it (waiting for the connection up to two seconds: a Redis that is away does
   * not hold the app's start, its commands then fail fast until it answers), else in this process only.
   */
  static async connect(ttlMs: number, redisUrl: string | undefined, logger: Logger): Promise<WritePositions> {
    if (!redisUrl) return new WritePositions(ttlMs, undefined, logger);
    const redis = await connectRateLimitRedis(redisUrl);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CONNECT_WAIT_MS);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return new WritePositions(ttlMs, redis, logger);
  }

  /**
   * The caller's last write, from this process and Redis; undefined when none is recent. Without Redis it answers
   * at once (no promise on the path of every read).
   */
  lastWrite(caller: string): GtidPosition | undefined | Promise<GtidPosition | undefined> {
    const local = this.fromLocal(caller);
    if (!this.redis) return local;
    return this.redis.get(this.key(caller)).then(
      (text) => {
        const shared = text ? GtidPosition.parse(text) : undefined;
        if (!shared) return local;
        return local ? local.merge(shared) : shared;
      },
      () => local,
    );
  }

  /** Remembers that the caller wrote at `position`; answers once Redis has it (or has failed). */
  async wrote(caller: string, position: GtidPosition): Promise<void> {
    const earlier = this.fromLocal(caller);
    this.local.delete(caller);
    this.local.set(caller, { position: earlier ? earlier.merge(position) : position, until: this.now() + this.ttlMs });
    if (this.local.size > MAX_LOCAL_CALLERS) this.local.delete(this.local.keys().next().value!);
    if (!this.redis) return;
    await this.redis.mergeWritePosition(this.key(caller), position.toString(), this.ttlMs).then(
      () => this.markReachable(true),
      (error: Error) => this.markReachable(false, error),
    );
  }

  private markReachable(reachable: boolean, error?: Error): void {
    if (this.reachable === reachable) return;
    const before = this.reachable;
    this.reachable = reachable;
    if (!reachable)
      this.logger.warn(
        { err: { message: error?.message } },
        "read-your-writes: Redis is unreachable; a caller's writes are known to the replica of the app that took them only, until it answers",
      );
    else if (before === false) this.logger.info('read-your-writes: Redis is reachable again');
  }

  async close(): Promise<void> {
    this.local.clear();
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }

  private fromLocal(caller: string): GtidPosition | undefined {
    const entry = this.local.get(caller);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.position;
    this.local.delete(caller);
    return undefined;
  }

  private key(caller: string): string {
    return `read-your-writes:${caller}`;
  }
}

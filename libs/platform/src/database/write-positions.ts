import { GtidPosition, LastWrite, ReadReplicas } from '@app/domain';
import type Redis from 'ioredis';
import { Logger } from 'pino';
import { connectRateLimitRedis, PAUSE_AFTER_FAILURE_MS } from '../rate-limit/redis-rate-limit-store';

/** How long an app's start waits for Redis before it serves (the first writes are then shared too). */
const CONNECT_WAIT_MS = 2_000;
/** How often a process checks Redis's epoch on its own, requests or not (a failover behind a proxy closes no connection). */
const CHECK_INTERVAL_MS = 1_000;
/**
 * Which data set holds the positions, and since when: `<replication id>_<evicted keys>:<ms>` (EPOCH_SCRIPT). Not under
 * `read-your-writes:`, where a caller named `epoch` would write.
 */
const EPOCH_KEY = 'read-your-writes-epoch';

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

/**
 * The data set this Redis serves as the master: its replication id (new at each start and each promotion of a replica;
 * a replica takes its master's), or nil on a replica, whose data may lag its master's and which may have been the
 * master before a failover. A run id would not do: a master demoted, fully synced from the new one and promoted back
 * keeps its run id and the epoch it stamped, without the positions it held. With the count of keys it evicted (a
 * maxmemory policy: volatile-lru takes keys that expire, as the positions do, first): a key evicted is a position
 * that may be lost.
 */
const LINEAGE = `
local function lineage()
  local info = redis.call('INFO', 'replication')
  if not string.find(info, 'role:master', 1, true) then return nil end
  local replid = string.match(info, 'master_replid:(%w+)')
  local evicted = string.match(redis.call('INFO', 'stats'), 'evicted_keys:(%d+)')
  if not replid or not evicted then return nil end
  return replid .. '_' .. evicted
end
`;

/**
 * The epoch of the positions Redis holds, and its age in ms (Redis's own clock, so no process's clock matters). It is
 * stamped anew when it is missing or was stamped on another data set (LINEAGE): Redis restarted (empty, or from a
 * snapshot older than the last positions), failed over to a replica, evicted keys, or was flushed. A new epoch is a
 * loss of positions. On a replica it fails: nothing it holds is trusted.
 */
const EPOCH_SCRIPT = `${LINEAGE}
local run = lineage()
if not run then return redis.error_reply('read-your-writes: this Redis is a replica') end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local epoch = redis.call('GET', KEYS[1])
local stamped = epoch and string.match(epoch, '^' .. run .. ':(%d+)$')
if not stamped then
  stamped = now
  epoch = run .. ':' .. string.format('%d', now)
  redis.call('SET', KEYS[1], epoch)
end
return { epoch, now - tonumber(stamped) }
`;

/**
 * The epoch (nil unless stamped on the data set served now, LINEAGE) and a caller's position, in one round trip: a
 * Redis that lost the positions since the last check is seen at once, also when the connection stayed open through a
 * failover.
 */
const LOOKUP_SCRIPT = `${LINEAGE}
local run = lineage()
local epoch = redis.call('GET', KEYS[1])
if not run or not epoch or string.sub(epoch, 1, #run + 1) ~= run .. ':' then epoch = false end
return { epoch, redis.call('GET', KEYS[2]) }
`;

/** Callers remembered in memory at most; the oldest write is forgotten first. */
const MAX_LOCAL_CALLERS = 100_000;

interface PositionsRedis extends Redis {
  mergeWritePosition(key: string, position: string, ttlMs: number): Promise<number>;
  writePositionsEpoch(key: string): Promise<[string, number]>;
  lookupWritePosition(epochKey: string, key: string): Promise<[string | null, string | null]>;
}

/** What the positions need of the read replicas. */
export type ReplicaPositions = Pick<ReadReplicas, 'settleMs' | 'primaryPosition' | 'applied'>;

/**
 * Where each caller's last write committed (a GTID position), for as long as a replica may lag behind it
 * (`ttlMs`: the lag bound and a margin), so that the caller's next reads wait for it: read-your-writes.
 * In this process always; in Redis too with REDIS_URL, so a read on another replica of the app finds it.
 *
 * With Redis, what cannot be shared never fails a request and never makes a read stale (docs/decisions.md,
 * "Read-your-writes"): a write whose position Redis does not take answers once no process can read it from a replica
 * that lacks it (ReadReplicas.applied); a lookup Redis does not answer, or that this process cannot trust yet (the
 * connection not checked since it opened), is `'unknown'` and the read goes to the primary; and when Redis lost the
 * positions it held (a new epoch, EPOCH_SCRIPT), every read must see what the primary held then (the floor), so a
 * replica serves again once it has that.
 */
export class WritePositions {
  private readonly local = new Map<string, { position: GtidPosition; until: number }>();
  private readonly redis: PositionsRedis | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  /** Undefined until Redis first answers or fails: each change is logged once, not each failed write. */
  private reachable: boolean | undefined;
  private closing = false;
  /** Until this time (ms) Redis is not asked (PAUSE_AFTER_FAILURE_MS): lookups are `'unknown'`, writes wait. */
  private pausedUntil = 0;
  /** The epoch this process last checked, and whether it checked it on the connection open now. */
  private epoch: string | undefined;
  private checked = false;
  /** Counts the connection's closes: a check that spans one says nothing of the connection open now. */
  private closes = 0;
  private checking: Promise<void> | undefined;
  /** What every read must see: where the primary was when Redis was last found to have lost positions. */
  private floor = GtidPosition.EMPTY;

  constructor(
    private readonly ttlMs: number,
    redis: Redis | undefined,
    private readonly replicas: ReplicaPositions,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    redis?.defineCommand('mergeWritePosition', { numberOfKeys: 1, lua: MERGE_SCRIPT });
    redis?.defineCommand('writePositionsEpoch', { numberOfKeys: 1, lua: EPOCH_SCRIPT });
    redis?.defineCommand('lookupWritePosition', { numberOfKeys: 2, lua: LOOKUP_SCRIPT });
    this.redis = redis as PositionsRedis | undefined;
    // ioredis prints an 'error' nobody listens to on stderr, outside the JSON log: told here, once per change.
    redis?.on('error', (error: Error) => this.markReachable(false, error));
    redis?.on('close', () => {
      this.checked = false;
      this.closes++;
      this.markReachable(false, new Error('connection closed'));
    });
    redis?.on('ready', () => void this.check());
    if (redis) {
      this.timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /**
   * With `redisUrl`, connected to it (waiting for the connection and its first check up to about two seconds: a Redis
   * that is away does not hold the app's start, its commands then fail fast until it answers), else in this process only.
   */
  static async connect(ttlMs: number, redisUrl: string | undefined, replicas: ReplicaPositions, logger: Logger): Promise<WritePositions> {
    if (!redisUrl) return new WritePositions(ttlMs, undefined, replicas, logger);
    const redis = await connectRateLimitRedis(redisUrl);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CONNECT_WAIT_MS);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const positions = new WritePositions(ttlMs, redis, replicas, logger);
    await positions.check();
    return positions;
  }

  /**
   * The caller's last write, from this process and Redis (EMPTY when none is recent), or `'unknown'` when Redis cannot
   * tell. Without Redis it answers at once (no promise on the path of every read).
   */
  lastWrite(caller: string): LastWrite | Promise<LastWrite> {
    const local = this.fromLocal(caller) ?? GtidPosition.EMPTY;
    if (!this.redis) return local;
    if (!this.checked) {
      void this.check();
      return 'unknown';
    }
    if (this.now() < this.pausedUntil) return 'unknown';
    // The epoch in the same round trip: a Redis that lost its keys without closing the connection is seen at once.
    return this.redis.lookupWritePosition(EPOCH_KEY, this.key(caller)).then(
      ([epoch, text]): LastWrite => {
        if (epoch !== this.epoch) {
          this.checked = false;
          void this.check();
          return 'unknown';
        }
        const shared = text ? GtidPosition.parse(text) : GtidPosition.EMPTY;
        return shared ? this.floor.merge(local).merge(shared) : 'unknown';
      },
      (error: Error) => {
        this.failed(error);
        return 'unknown';
      },
    );
  }

  /**
   * Remembers that the caller wrote at `position`; answers once Redis has it, or, when Redis does not take it, once
   * no process can read the write from a replica that lacks it.
   */
  async wrote(caller: string, position: GtidPosition): Promise<void> {
    const since = this.now();
    const earlier = this.fromLocal(caller);
    this.local.delete(caller);
    this.local.set(caller, { position: earlier ? earlier.merge(position) : position, until: since + this.ttlMs });
    if (this.local.size > MAX_LOCAL_CALLERS) this.local.delete(this.local.keys().next().value!);
    if (!this.redis || (await this.share(caller, position))) return;
    await this.replicas.applied(position, since);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    this.local.clear();
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }

  /** Whether Redis took the position (merged into the caller's). */
  private share(caller: string, position: GtidPosition): Promise<boolean> {
    if (this.now() < this.pausedUntil) return Promise.resolve(false);
    return this.redis!.mergeWritePosition(this.key(caller), position.toString(), this.ttlMs).then(
      () => {
        this.markReachable(true);
        return true;
      },
      (error: Error) => {
        this.failed(error);
        return false;
      },
    );
  }

  /** Checks Redis's epoch (one at a time), when the connection is open. */
  private check(): Promise<void> {
    if (!this.redis || this.redis.status !== 'ready') return Promise.resolve();
    this.checking ??= this.checkEpoch().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /**
   * Reads Redis's epoch. A new one (or the first this process sees) stamped less than `settleMs` ago may have lost
   * positions of writes some replica still lacks: every read must then see the primary's position read now, which holds
   * them all. An older epoch lost nothing a serving replica lacks. Lookups are trusted once this has answered on the
   * connection open now.
   */
  private async checkEpoch(): Promise<void> {
    const closes = this.closes;
    let epoch: string;
    let ageMs: number;
    try {
      [epoch, ageMs] = await this.redis!.writePositionsEpoch(EPOCH_KEY);
    } catch (error) {
      return this.failed(error as Error);
    }
    this.markReachable(true);
    if (epoch !== this.epoch) {
      if (ageMs < this.replicas.settleMs) {
        const primary = await this.replicas.primaryPosition();
        // Not known yet: lookups stay `'unknown'` (reads go to the primary) until a check reads it.
        if (primary === undefined) return;
        this.floor = this.floor.merge(primary);
      }
      if (this.epoch !== undefined)
        this.logger.warn(
          { epoch, ageMs, floor: this.floor.toString() },
          "read-your-writes: Redis no longer holds the callers' positions it held (it restarted, failed over, evicted keys or was flushed); " +
            "every read now waits for the primary's position when this was seen, a replica serves it once it has that",
        );
      this.epoch = epoch;
    }
    if (closes === this.closes) this.checked = true;
  }

  private failed(error: Error): void {
    this.pausedUntil = this.now() + PAUSE_AFTER_FAILURE_MS;
    this.markReachable(false, error);
  }

  private markReachable(reachable: boolean, error?: Error): void {
    if (this.reachable === reachable || this.closing) return;
    const before = this.reachable;
    this.reachable = reachable;
    if (!reachable)
      this.logger.warn(
        { err: { message: error?.message } },
        "read-your-writes: Redis is unreachable; callers' reads go to the primary, and a write answers once every " +
          `replica has it (at most ${this.replicas.settleMs} ms), until it answers`,
      );
    else if (before === false) this.logger.info('read-your-writes: Redis is reachable again');
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

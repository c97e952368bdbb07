import { isDatabaseUnavailable } from '../database-errors';
import { DatabaseDeadlineError, ServerPool } from '../server-pool';
import { GtidPosition } from './gtid-position';
import { lagAt, ReplicationLag } from './replication-lag';

/** DATABASE_REPLICA_MAX_LAG_MS by default: a replica further behind serves no reads until it catches up. */
export const DEFAULT_REPLICA_MAX_LAG_MS = 5_000;

/** How often `applied` probes a replica that still lacks the position it waits for. */
const APPLIED_RECHECK_MS = 100;

/**
 * - `starting`: not probed yet.
 * - `up`: answers, and is at most the lag bound behind: serves reads.
 * - `lagging`: answers, but is further behind than the bound (or the primary's position is not known yet).
 * - `stalled`: accepts connections but did not answer a probe in time.
 * - `down`: unreachable, or a read on it failed for the connection.
 */
export type ReplicaState = 'starting' | 'up' | 'lagging' | 'stalled' | 'down';

export interface ReplicaStatus {
  /** `replica-1`, … in the order of DATABASE_READ_URLS: what health and metrics show (never the address). */
  name: string;
  state: ReplicaState;
  /** How far behind the primary (ms) at the last probe that answered; null when never measured. */
  lagMs: number | null;
}

/** Why a plain read went to the primary. */
export type PrimaryFallback = 'no_healthy_replica' | 'read_your_writes' | 'replica_failed' | 'replicas_unusable';

/** What the platform logs and counts of the replicas (libs/platform implements it; the domain has no logger). */
export interface ReplicaEvents {
  /** Once per change of a replica's state, with the server's address for the log. */
  stateChanged(status: ReplicaStatus, previous: ReplicaState, address: string, reason: string): void;
  /**
   * Once per change: the replicas cannot be used at all (`reason`: the primary writes no binary log, or is not
   * MariaDB), or can again (undefined).
   */
  usability(reason: string | undefined): void;
  /** A plain read was served by the primary instead of a replica. */
  fellBack(reason: PrimaryFallback): void;
}

export interface ReadReplicaOptions {
  maxLagMs?: number;
  /** How often each replica, and the primary, is probed (position, lag, state), each on its own timer. */
  probeIntervalMs?: number;
  /** A probe not answered in this time makes the replica `stalled`. */
  probeTimeoutMs?: number;
  now?: () => number;
}

/** One replica of DATABASE_READ_URLS and what its last probe learnt. */
export class Replica {
  /** What the last probe found, before the lag: `up` means it answered as a replica of the primary. */
  probed: 'starting' | 'up' | 'stalled' | 'down' = 'starting';
  /** The state last told (logged once per change). */
  told: ReplicaState = 'starting';
  /** The position it had applied at the last probe: it has applied at least this much since. */
  position = GtidPosition.EMPTY;
  /** Since when it has been missing writes of the primary (ReplicationLag.missingSince). */
  missingSince: number | undefined | null = null;

  constructor(
    readonly name: string,
    /** host:port, for the log only. */
    readonly address: string,
    readonly pool: ServerPool,
  ) {}
}

/**
 * The read replicas of DATABASE_READ_URLS (docs/operations.md, "Read replicas"): which replica a read may
 * go to, kept current by background probes of every replica and of the primary, each on its own timer (a
 * stalled replica delays no other probe), the primary's on a connection of its own (a busy pool cannot starve it).
 *
 * - A replica serves reads while it answers as a replica of the primary (it holds no transaction the primary
 *   does not) and is, at the moment of the read, no further behind than `maxLagMs` (ReplicationLag).
 * - A read that must see a position (the caller's last write, a Consistency-Token) goes to a serving replica
 *   whose last probed position covers it, else to the primary: no extra round trip either way.
 * - A replica whose read fails for the connection is marked down at once, and the read is retried elsewhere
 *   (Database.rows); its probe brings it back when it answers again, without a restart.
 */
export class ReadReplicas {
  readonly maxLagMs: number;
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;
  private readonly lag: ReplicationLag;
  private next = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Map<Replica | 'primary', Promise<void>>();
  private stopped = false;
  /** Why no replica may serve (the primary cannot be replicated from); told once per change. */
  private unusableReason: string | undefined;

  constructor(
    readonly replicas: readonly Replica[],
    /** A pool of its own on the primary (one connection): the probes' only. */
    private readonly primary: ServerPool,
    private readonly events: ReplicaEvents,
    options: ReadReplicaOptions = {},
  ) {
    this.maxLagMs = options.maxLagMs ?? DEFAULT_REPLICA_MAX_LAG_MS;
    this.probeIntervalMs = options.probeIntervalMs ?? 500;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 1_000;
    this.now = options.now ?? Date.now;
    this.lag = new ReplicationLag(2 * this.maxLagMs + 60_000);
  }

  /** Probes once (so the first reads can use the replicas), then each target every interval in the background. */
  async start(): Promise<void> {
    await this.probe();
    for (const target of ['primary' as const, ...this.replicas]) {
      const timer = setInterval(() => void this.probeOne(target), this.probeIntervalMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.inFlight.values());
    await Promise.all([this.primary.end(), ...this.replicas.map((replica) => replica.pool.end())]);
  }

  statuses(): ReplicaStatus[] {
    const now = this.now();
    return this.replicas.map((replica) => ({ name: replica.name, state: this.stateOf(replica, now), lagMs: this.lagOf(replica, now) }));
  }

  /**
   * The replicas a read may try, in order (round robin among the serving ones), or the reason it must go to
   * the primary. Whether a replica is within the lag bound is decided now, not at its last probe. A read that
   * must see `required` only goes to replicas that had applied it at their last probe.
   */
  candidates(required: GtidPosition): { replicas: Replica[]; fallback?: PrimaryFallback } {
    if (this.unusableReason !== undefined) return { replicas: [], fallback: 'replicas_unusable' };
    const now = this.now();
    const serving = this.replicas.filter((replica) => this.stateOf(replica, now) === 'up');
    if (serving.length === 0) return { replicas: [], fallback: 'no_healthy_replica' };
    const current = required.isEmpty ? serving : serving.filter((replica) => replica.position.covers(required));
    if (current.length === 0) return { replicas: [], fallback: 'read_your_writes' };
    const start = this.next++ % current.length;
    if (this.next >= Number.MAX_SAFE_INTEGER) this.next = 0;
    return { replicas: [...current.slice(start), ...current.slice(0, start)] };
  }

  /**
   * How long after a commit a replica that still lacks it serves reads in no process probing the same primary: the
   * lag bound; plus a probe deadline (a process counts the lag from its last sample without the commit, which may
   * have answered up to a deadline after the primary was read); plus an interval and a deadline, within which its
   * probes see the commit at all; plus a second for a busy event loop. Holds while that process reaches the primary
   * (otherwise it measures the lag against the last position it saw).
   */
  get settleMs(): number {
    return this.maxLagMs + this.probeIntervalMs + 2 * this.probeTimeoutMs + 1_000;
  }

  /** The primary's position read now (on the probes' connection), or undefined when it does not answer. */
  primaryPosition(): Promise<GtidPosition | undefined> {
    return this.stopped ? Promise.resolve(undefined) : this.samplePrimary();
  }

  /**
   * Resolves once every replica has applied `position` (probing those that lack it, again and again), or once
   * `settleMs` have passed since `since` (no earlier than its commit), a probe still under way or not: then no process
   * reads it from a replica that lacks it. For a write whose position could not be shared with the other processes (docs/decisions.md,
   * "Read-your-writes").
   */
  async applied(position: GtidPosition, since: number): Promise<void> {
    const deadline = since + this.settleMs;
    for (let round = 0; !this.stopped && this.now() < deadline; round++) {
      const lacking = this.replicas.filter((replica) => !replica.position.covers(position));
      if (lacking.length === 0) return;
      // The first round may join probes that read the replica before the commit; later ones are spaced out.
      if (round >= 2) await new Promise((resolve) => setTimeout(resolve, Math.min(APPLIED_RECHECK_MS, Math.max(0, deadline - this.now()))));
      // A probe may take two deadlines of each of its statements (a connection, then the answer): not past the write's.
      let timer: NodeJS.Timeout | undefined;
      const probes = Promise.all(lacking.map((replica) => this.probeOne(replica)));
      await Promise.race([probes, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - this.now()))))]);
      clearTimeout(timer);
    }
  }

  /** A read on `replica` failed for the connection or its deadline: no more reads until a probe answers. */
  failed(replica: Replica, error: unknown): void {
    replica.probed = error instanceof DatabaseDeadlineError ? 'stalled' : 'down';
    this.tell(replica, describe(error));
  }

  fellBack(reason: PrimaryFallback): void {
    this.events.fellBack(reason);
  }

  /** One round: the primary, then every replica. Never throws. */
  async probe(): Promise<void> {
    await this.probeOne('primary');
    await Promise.all(this.replicas.map((replica) => this.probeOne(replica)));
  }

  private probeOne(target: Replica | 'primary'): Promise<void> {
    if (this.stopped) return Promise.resolve();
    let running = this.inFlight.get(target);
    if (!running) {
      running = (target === 'primary' ? this.samplePrimary() : this.probeReplica(target)).then(
        () => undefined,
        () => undefined,
      );
      this.inFlight.set(target, running);
      void running.finally(() => this.inFlight.delete(target));
    }
    return running;
  }

  /** The primary's position, as a lag sample; undefined when it cannot be read (the primary is unreachable). */
  private async samplePrimary(): Promise<GtidPosition | undefined> {
    try {
      const [row] = await this.primary.query<Array<{ logBin: number | string; position: string | null }>>(
        'SELECT @@log_bin AS logBin, @@gtid_binlog_pos AS position',
        [],
        this.probeTimeoutMs,
      );
      if (Number(row.logBin) !== 1) return this.markUsable('the primary writes no binary log, so no replica can follow it');
      const position = GtidPosition.parse(row.position ?? '');
      if (position === undefined) return this.markUsable(`the primary's GTID position ${JSON.stringify(row.position)} is not MariaDB's`);
      this.markUsable(undefined);
      this.lag.sample(position, this.now());
      for (const replica of this.replicas) this.assess(replica, `the primary moved on`);
      return position;
    } catch (error) {
      // MySQL has neither variable: its replicas would be used without any guarantee.
      if (!isDatabaseUnavailable(error)) this.markUsable(`the primary is not a MariaDB server with GTIDs (${describe(error)})`);
      // Unreachable: the replicas go on serving what they have; their lag is measured against what was sampled.
      return undefined;
    }
  }

  /**
   * The replica's position, then the primary's (read after it, so a true replica can never be ahead of it): a
   * server holding a transaction the primary does not is no replica of it (another database, or one written to
   * directly) and serves nothing.
   */
  private async probeReplica(replica: Replica): Promise<void> {
    let position: GtidPosition | undefined;
    try {
      const [row] = await replica.pool.query<Array<{ position: string | null }>>('SELECT @@gtid_current_pos AS position', [], this.probeTimeoutMs);
      position = GtidPosition.parse(row.position ?? '');
      if (position === undefined) {
        replica.probed = 'down';
        return this.tell(replica, `its GTID position ${JSON.stringify(row.position)} is not MariaDB's`);
      }
    } catch (error) {
      replica.probed = error instanceof DatabaseDeadlineError ? 'stalled' : 'down';
      return this.tell(replica, describe(error));
    }
    const primary = await this.samplePrimary();
    if (primary && !primary.holds(position)) {
      replica.probed = 'down';
      return this.tell(replica, `it holds transactions the primary does not (${position} against ${primary}): it is not a replica of DATABASE_URL`);
    }
    replica.position = position;
    replica.probed = 'up';
    this.assess(replica, 'probed');
  }

  /** Recomputes since when the replica misses writes, and tells a change of state. */
  private assess(replica: Replica, reason: string): void {
    replica.missingSince = this.lag.missingSince(replica.position);
    this.tell(replica, reason);
  }

  private stateOf(replica: Replica, now: number): ReplicaState {
    if (replica.probed !== 'up') return replica.probed;
    const lagMs = this.lagOf(replica, now);
    return lagMs === null || lagMs > this.maxLagMs ? 'lagging' : 'up';
  }

  private lagOf(replica: Replica, now: number): number | null {
    return lagAt(replica.missingSince, now);
  }

  /** Logs (through the events) a change of the replica's state, once. */
  private tell(replica: Replica, reason: string): void {
    const now = this.now();
    const state = this.stateOf(replica, now);
    if (replica.told === state) return;
    const previous = replica.told;
    replica.told = state;
    const lagMs = this.lagOf(replica, now);
    const why =
      state === 'lagging'
        ? lagMs === null
          ? this.lag.sampled
            ? 'it lacks part of what the primary held when this process first reached it, so its lag is unknown until it has that'
            : 'the primary has not been reached yet, so its lag is unknown'
          : `${lagMs} ms behind the primary (DATABASE_REPLICA_MAX_LAG_MS=${this.maxLagMs})`
        : state === 'up'
          ? `${lagMs ?? 0} ms behind the primary`
          : reason;
    this.events.stateChanged({ name: replica.name, state, lagMs }, previous, replica.address, why);
  }

  /** `reason` why no replica may serve, or undefined when they may; each change is told once. */
  private markUsable(reason: string | undefined): undefined {
    if (this.unusableReason === reason) return undefined;
    this.unusableReason = reason;
    this.events.usability(reason);
    return undefined;
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

import { isDatabaseUnavailable } from '../database-errors';
import { DatabaseDeadlineError, ServerPool } from '../server-pool';
import { GtidPosition } from './gtid-position';
import { ReplicationLag } from './replication-lag';

/** DATABASE_REPLICA_MAX_LAG_MS by default: a replica further behind serves no reads until it catches up. */
export const DEFAULT_REPLICA_MAX_LAG_MS = 5_000;

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
  /** How often each replica and the primary are probed (position, lag, state). */
  probeIntervalMs?: number;
  /** A probe not answered in this time makes the replica `stalled`. */
  probeTimeoutMs?: number;
  now?: () => number;
}

/** One replica of DATABASE_READ_URLS and what the last probe learnt of it. */
export class Replica {
  state: ReplicaState = 'starting';
  lagMs: number | null = null;
  /** The position it had applied at the last probe: it has applied at least this much since. */
  position = GtidPosition.EMPTY;

  constructor(
    readonly name: string,
    /** host:port, for the log only. */
    readonly address: string,
    readonly pool: ServerPool,
  ) {}

  get status(): ReplicaStatus {
    return { name: this.name, state: this.state, lagMs: this.lagMs };
  }
}

/**
 * The read replicas of DATABASE_READ_URLS (docs/operations.md, "Read replicas"): which replica a read may
 * go to, kept current by a background probe of every replica and of the primary.
 *
 * - A replica serves reads while it answers and is no further behind than `maxLagMs` (ReplicationLag).
 * - A read that must see a position (the caller's last write, a Consistency-Token) goes to a serving replica
 *   whose last probed position covers it, else to the primary: no extra round trip either way.
 * - A replica whose read fails for the connection is marked down at once, and the read is retried elsewhere
 *   (Database.rows); the probe brings it back when it answers again, without a restart.
 */
export class ReadReplicas {
  readonly maxLagMs: number;
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;
  private readonly lag: ReplicationLag;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  /** Why no replica may serve (the primary cannot be replicated from); logged once. */
  private unusableReason: string | undefined;

  constructor(
    readonly replicas: readonly Replica[],
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

  /** Probes once (so the first reads can use the replicas), then every probe interval in the background. */
  async start(): Promise<void> {
    await this.probe();
    this.timer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.probing;
    await Promise.all(this.replicas.map((replica) => replica.pool.end()));
  }

  statuses(): ReplicaStatus[] {
    return this.replicas.map((replica) => replica.status);
  }

  /** Why the replicas serve nothing at all, if they do not. */
  get unusable(): string | undefined {
    return this.unusableReason;
  }

  /**
   * The replicas a read may try, in order (round robin among the serving ones), or the reason it must go to
   * the primary. A read that must see `required` only goes to replicas that had applied it at their last probe.
   */
  candidates(required: GtidPosition): { replicas: Replica[]; fallback?: PrimaryFallback } {
    if (this.unusableReason !== undefined) return { replicas: [], fallback: 'replicas_unusable' };
    const serving = this.replicas.filter((replica) => replica.state === 'up');
    if (serving.length === 0) return { replicas: [], fallback: 'no_healthy_replica' };
    const current = required.isEmpty ? serving : serving.filter((replica) => replica.position.covers(required));
    if (current.length === 0) return { replicas: [], fallback: 'read_your_writes' };
    const start = this.next++ % current.length;
    if (this.next >= Number.MAX_SAFE_INTEGER) this.next = 0;
    return { replicas: [...current.slice(start), ...current.slice(0, start)] };
  }

  /** A read on `replica` failed for the connection or its deadline: no more reads until a probe answers. */
  failed(replica: Replica, error: unknown): void {
    this.change(replica, error instanceof DatabaseDeadlineError ? 'stalled' : 'down', describe(error));
  }

  fellBack(reason: PrimaryFallback): void {
    this.events.fellBack(reason);
  }

  /** One round: the primary's position first, then every replica's, in parallel. Never throws. */
  probe(): Promise<void> {
    this.probing ??= this.probeAll().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async probeAll(): Promise<void> {
    await this.probePrimary();
    await Promise.all(this.replicas.map((replica) => this.probeReplica(replica)));
  }

  private async probePrimary(): Promise<void> {
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
    } catch (error) {
      // MySQL has neither variable: its replicas would be used without any guarantee.
      if (!isDatabaseUnavailable(error)) this.markUsable(`the primary is not a MariaDB server with GTIDs (${describe(error)})`);
      // Unreachable: the replicas go on serving what they have; their lag is measured against what was sampled.
    }
  }

  private async probeReplica(replica: Replica): Promise<void> {
    try {
      const [row] = await replica.pool.query<Array<{ position: string | null }>>('SELECT @@gtid_current_pos AS position', [], this.probeTimeoutMs);
      const position = GtidPosition.parse(row.position ?? '');
      if (position === undefined) return this.change(replica, 'down', `its GTID position ${JSON.stringify(row.position)} is not MariaDB's`);
      replica.position = position;
      const lagMs = this.lag.of(position, this.now());
      replica.lagMs = lagMs ?? null;
      if (lagMs === undefined) return this.change(replica, 'lagging', 'the primary has not been reached yet, so its lag is unknown');
      if (lagMs > this.maxLagMs) return this.change(replica, 'lagging', `${lagMs} ms behind the primary (DATABASE_REPLICA_MAX_LAG_MS=${this.maxLagMs})`);
      this.change(replica, 'up', `${lagMs} ms behind the primary`);
    } catch (error) {
      this.change(replica, error instanceof DatabaseDeadlineError ? 'stalled' : 'down', describe(error));
    }
  }

  private change(replica: Replica, state: ReplicaState, reason: string): void {
    if (replica.state === state) return;
    const previous = replica.state;
    replica.state = state;
    this.events.stateChanged(replica.status, previous, replica.address, reason);
  }

  /** `reason` why no replica may serve, or undefined when they may; each change is told once. */
  private markUsable(reason: string | undefined): void {
    if (this.unusableReason === reason) return;
    this.unusableReason = reason;
    this.events.usability(reason);
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

import { ConnectorEventRepository, ParkedEventRepository, RecordedEvent } from '@app/domain';
import { APP_CONFIG, AppConfig } from '@app/platform';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { cloudEventOf } from '../cloud-event';
import { EventBatch, EventReads, EventSource, RELAY_EVENT_READS } from '../event-reads';
import { EventFeedWatcher } from '../feed/event-feed-watcher';
import { ConnectorEventMetrics } from './connector-event-metrics';
import {
  ConnectorEventPublisher,
  ConnectorEventRefusedError,
  connectorEventSubject,
  connectorVariablesEventSubject,
} from '../jetstream/connector-event-publisher';
import { CONNECTOR_EVENT_PUBLISHER } from './event-publisher.provider';

/** The relay's pace (docs/operations.md, "Change events"). */
export interface RelayTiming {
  /** Between two rounds when there was nothing to do. */
  idleMs: number;
  /**
   * How long a lease lasts on the database's clock after its last renewal: a dead (or frozen, or cut off) leader's
   * successor takes over at most this, and followerMs, after that renewal.
   */
  leaseMs: number;
  /**
   * The leader renews its lease this often, beside its work. It acts only until three quarters of leaseMs after it
   * sent its last renewal that succeeded (HOLD_SHARE): it has stopped before any other relay may take the lease.
   */
  renewMs: number;
  /** A relay that does not hold the lease looks at it again this long after the lease it saw ends. */
  followerMs: number;
  /** After a failed publish (or a database error): the first wait, doubled up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Retention runs this often. */
  purgeEveryMs: number;
  /**
   * An idle leader reads its row (a whole round) at least this often: a row changed by hand (`published_through`
   * moved back, to publish again) is acted on within it.
   */
  resyncMs: number;
}

export const RELAY_TIMING: RelayTiming = {
  idleMs: 100,
  leaseMs: 2_000,
  renewMs: 500,
  followerMs: 100,
  backoffMs: 250,
  maxBackoffMs: 5_000,
  purgeEveryMs: 60_000,
  resyncMs: 5_000,
};
/**
 * `publish`: events per batch at most, which EventReads also bounds in bytes (EVENT_READ_BYTES); `inFlight`:
 * connectors whose events are being published at once (each connector's one at a time).
 */
export const RELAY_BATCHES = { sequence: 1000, publish: 1000, inFlight: 64, purge: 500 } as const;
export const RELAY_TIMING_TOKEN = Symbol('RELAY_TIMING');

const DAY_MS = 86_400_000;

/** What became of an event of a batch: acknowledged by JetStream, set aside (held: parked, or behind a parked one), or neither yet. */
type Outcome = 'acknowledged' | 'held' | undefined;

/**
 * The share of the lease a leader acts in after it sent a renewal that succeeded. The rest (a quarter: 500 ms of
 * 2 s) is the margin between the leader's own deadline and the earliest moment another relay may take the lease on
 * the database's clock: the leader stops publishing first, however long it was frozen or the database took.
 */
const HOLD_SHARE = 0.75;

/**
 * Numbers the outbox into the feed, publishes it to JetStream (with NATS_URL) and purges it, one relay at a time
 * across all pods: the one holding the lease in connector_event_relay. The lease's end is set and judged on the
 * database's clock; its holder renews it every renewMs beside its work and releases it at shutdown; another relay
 * takes it once it ended (a dead, frozen or cut-off leader). Every statement that changes something is fenced by the
 * holder, and a leader publishes only before its own deadline (HOLD_SHARE of the lease after its last renewal was
 * sent, on its monotonic clock), which passes before the lease can end: two relays never publish at once.
 * Publishing goes in position order per connector, one event acknowledged before that connector's next
 * (Nats-Msg-Id = the event's id, so JetStream drops a re-publish within its duplicate window); the relay marks what
 * was acknowledged and stops at the first failure, so per-connector order holds and nothing is skipped. An event
 * JetStream refuses EVENTS_PUBLISH_MAX_ATTEMPTS times is parked instead (ParkedEventRepository): it and its connector's
 * later events are held, unpublished, while the mark moves on for every other connector; a replay releases them, and
 * they are published, in order, before the next batch. No failure (database, broker) stops the loop or reaches a request.
 */
@Injectable()
export class ConnectorEventRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** This relay's name in the lease: the pod and process, and a random part for several apps in one process. */
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private leader = false;
  /** One more each time this relay takes the lease: a renewal answers only for the term it was sent in. */
  private term = 0;
  /** Until when (performance.now()) this relay may act on the lease it holds. */
  private holdsUntil = 0;
  /** How long a follower waits before it looks at the lease again, as the last look left it. */
  private followerWaitMs = 0;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private renewals: Promise<void> | undefined;
  private readonly sleepers = new Set<() => void>();
  private backoffMs = 0;
  private lastPurgeAt = 0;
  private lastSequencedAt = 0;
  private lastProblem = '';
  /** Whether numbered events wait to be published, as the last round left it. */
  private backlog = true;
  /** What the relay publishes: every tenant's numbered events, read bounded in bytes. */
  private readonly numbered: EventSource = {
    sizes: (range) => this.events.numberedSizes(range),
    events: (range) => this.events.numberedAfter(range),
  };
  /** What it publishes first: held events a replay released, read bounded in bytes. */
  private readonly released: EventSource = {
    sizes: (range) => this.parking.releasedSizes(range),
    events: (range) => this.parking.released(range),
  };

  constructor(
    private readonly events: ConnectorEventRepository,
    private readonly parking: ParkedEventRepository,
    private readonly watcher: EventFeedWatcher,
    @Inject(RELAY_EVENT_READS) private readonly reads: EventReads,
    private readonly metrics: ConnectorEventMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectPinoLogger(ConnectorEventRelay.name) private readonly logger: PinoLogger,
    @Optional() @Inject(CONNECTOR_EVENT_PUBLISHER) private readonly publisher: ConnectorEventPublisher | null = null,
    @Optional() @Inject(RELAY_TIMING_TOKEN) private readonly timing: RelayTiming = RELAY_TIMING,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
    this.renewals = this.keepLease();
  }

  /**
   * Gives the lease up, so another pod's relay takes over at once rather than when it ends. Asked whenever this relay
   * took it once: one that lapsed may still be named in the row (the statement changes nothing otherwise).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const wake of [...this.sleepers]) wake();
    await Promise.all([this.loop, this.renewals]);
    if (this.term > 0) await this.events.release(this.holder).catch(() => undefined);
    this.lead(false);
    await this.publisher?.close();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let busy = false;
      try {
        busy = await this.round();
        this.backoffMs = 0;
        this.lastProblem = '';
      } catch (error) {
        this.backoffMs = Math.min(this.timing.maxBackoffMs, this.backoffMs === 0 ? this.timing.backoffMs : this.backoffMs * 2);
        this.report(error);
      }
      if (!busy) await this.pause(this.backoffMs || (this.leader ? this.timing.idleMs : this.followerWaitMs));
    }
  }

  /** One step: hold the lease (or take it), then number, publish and purge. Whether there is more to do at once. */
  private async round(): Promise<boolean> {
    if (!this.holds()) {
      if (this.leader) this.lapsed();
      if (!(await this.take())) return false;
    }
    if (!(await this.workToDo())) return false;
    const step = await this.events.sequence(this.holder, this.timing.leaseMs, RELAY_BATCHES.sequence);
    if (step === null) return this.lost();
    this.lastSequencedAt = Date.now();
    const { numbered, progress } = step;
    this.backlog = this.publisher !== null && progress.publishedThrough < progress.sequencedThrough;
    if (numbered > 0) {
      this.metrics.numbered.inc(numbered);
      this.watcher.advanced(progress.sequencedThrough);
    }
    // While the publisher's first connection is under way (the first moments of a start), the events wait for a later
    // round: a publish now could only fail, and count and log NATS as down when it is a moment from connecting.
    const connecting = this.publisher?.connecting() === true;
    let replayed = false;
    if (this.publisher && !connecting) {
      const released = await this.publishReleased(this.publisher, progress.publishedThrough);
      if (released === null) return this.lost();
      replayed = released;
      const reached = await this.publish(this.publisher, progress.publishedThrough, progress.sequencedThrough);
      if (reached === null) return this.lost();
      // Publishing stopped at the deadline (or at a lost lease): what was acknowledged is marked, the rest waits.
      if (!this.holds()) return this.leader ? this.lapsed() : false;
      // More to publish at once when the batch (bounded in count and in bytes) did not reach what is numbered.
      this.backlog = reached < progress.sequencedThrough;
    }
    if (Date.now() - this.lastPurgeAt >= this.timing.purgeEveryMs) {
      this.lastPurgeAt = Date.now();
      await this.purge(this.publisher ? (await this.events.progress()).publishedThrough : progress.sequencedThrough);
    }
    return numbered === RELAY_BATCHES.sequence || replayed || (this.backlog && !connecting);
  }

  /**
   * Takes the lease when the database says nobody else holds it (free, or ended on its clock). Otherwise waits until
   * the holder's lease would end (at most leaseMs: a row changed by hand may say much later), and followerMs more,
   * before the next look: one read per lease while a leader lives, and a successor within leaseMs + followerMs of its
   * last renewal when it does not.
   */
  private async take(): Promise<boolean> {
    const sentAt = performance.now();
    const answer = await this.events.acquire(this.holder, this.timing.leaseMs);
    if (!answer.taken) {
      this.followerWaitMs = Math.min(Math.max(0, answer.endsInMs), this.timing.leaseMs) + this.timing.followerMs;
      return false;
    }
    this.term += 1;
    this.holdsUntil = sentAt + this.timing.leaseMs * HOLD_SHARE;
    this.lead(true);
    this.logger.info({ holder: this.holder }, 'Took the change events relay lease');
    return true;
  }

  /**
   * Renews the lease every renewMs while this relay leads, beside its work: a long publish (a slow broker) keeps the
   * lease while the database answers. A renewal that succeeds moves the deadline to HOLD_SHARE of the lease after it
   * was sent (the database set the lease's end later than that); one that finds another holder ends the lead; one
   * that fails changes nothing, and the deadline passes if none succeeds in time.
   */
  private async keepLease(): Promise<void> {
    while (!this.stopped) {
      await this.pause(this.timing.renewMs);
      if (this.stopped || !this.leader) continue;
      if (!this.holds()) {
        this.lapsed();
        continue;
      }
      const term = this.term;
      const sentAt = performance.now();
      try {
        const renewed = await this.events.renew(this.holder, this.timing.leaseMs);
        if (term !== this.term || !this.leader) continue;
        if (renewed) this.holdsUntil = Math.max(this.holdsUntil, sentAt + this.timing.leaseMs * HOLD_SHARE);
        else this.lost();
      } catch (error) {
        this.report(error);
      }
    }
  }

  /** Whether this relay may act as the leader now: it took the lease, and its deadline has not passed. */
  private holds(): boolean {
    return this.leader && performance.now() < this.holdsUntil;
  }

  /**
   * Publishes the events numbered after `after`, a batch bounded in count and bytes (EventReads): each connector's in
   * position order, one acknowledged before its next; different connectors' side by side (JetStream promises no order
   * across subjects, and one round trip per event would cap the relay at the broker's latency). The first failure
   * stops every chain; the relay marks the run of events from the start of the batch that were all acknowledged or set
   * aside (held, in the same transaction), then throws (the loop backs off and starts again from there: what was
   * acknowledged beyond the mark is published again, and JetStream's dedup keeps it once). A connector's later event is
   * never sent before its earlier one is acknowledged, nor while the connector has a held event, so per-connector
   * order holds. Answers the position marked (the batch's end when all went), or null when the lease was lost.
   */
  private async publish(publisher: ConnectorEventPublisher, after: number, through: number): Promise<number | null> {
    if (through <= after) return after;
    const read = await this.reads.read(this.numbered, { after, through, limit: RELAY_BATCHES.publish });
    try {
      return await this.publishBatch(publisher, after, read);
    } finally {
      read.release();
    }
  }

  private async publishBatch(publisher: ConnectorEventPublisher, after: number, read: EventBatch): Promise<number | null> {
    const batch = read.events;
    const held = await this.parking.heldAmong([...new Set(batch.map(({ event }) => event.connectorUuid))]);
    const { outcomes, failure } = await this.publishChains(publisher, batch, held);
    let count = 0;
    while (count < batch.length && outcomes[count] !== undefined) count += 1;
    // All done: every event up to the batch's end went or was set aside (none other is there); else up to the first not done.
    const reached = count === batch.length ? read.through : count > 0 ? batch[count - 1].position : after;
    if (reached > after) {
      const done = batch.slice(0, count);
      const setAside = done.filter((_, index) => outcomes[index] === 'held').map(({ position }) => position);
      const marked =
        setAside.length === 0
          ? await this.events.markPublished(this.holder, this.timing.leaseMs, reached)
          : await this.parking.markPublishedHolding(this.holder, this.timing.leaseMs, reached, setAside, new Date());
      if (!marked) return null;
      this.metrics.published.inc(count - setAside.length);
    }
    if (failure !== undefined) throw failure.error;
    return reached;
  }

  /**
   * Publishes the held events a replay released (no parked event of their connector before them), each connector's in
   * position order, before the batch: their connectors' later events wait, held, until these have gone. Answers whether
   * there were any (more may follow at once), or null when the lease was lost; throws the first failure, as a batch does.
   */
  private async publishReleased(publisher: ConnectorEventPublisher, through: number): Promise<boolean | null> {
    const read = await this.reads.read(this.released, { after: 0, through, limit: RELAY_BATCHES.publish });
    try {
      if (read.events.length === 0) return false;
      const { outcomes, failure } = await this.publishChains(publisher, read.events, new Set());
      const acknowledged = read.events.filter((_, index) => outcomes[index] === 'acknowledged').map(({ position }) => position);
      if (acknowledged.length > 0) {
        if (!(await this.parking.unhold(this.holder, this.timing.leaseMs, acknowledged))) return null;
        this.metrics.published.inc(acknowledged.length);
      }
      if (failure !== undefined) throw failure.error;
      return true;
    } finally {
      read.release();
    }
  }

  /**
   * Publishes `batch` as chains, one per connector, in position order, a window of chains at a time. A chain of a `held`
   * connector is set aside whole; a chain whose event gets parked is set aside from it on. The first other failure stops
   * every chain. Says what became of each event, and the failure.
   */
  private async publishChains(
    publisher: ConnectorEventPublisher,
    batch: RecordedEvent[],
    held: ReadonlySet<string>,
  ): Promise<{ outcomes: Outcome[]; failure?: { error: unknown } }> {
    const outcomes = new Array<Outcome>(batch.length).fill(undefined);
    let failure: { error: unknown } | undefined;
    const chains = new Map<string, number[]>();
    batch.forEach(({ event }, index) => {
      const chain = chains.get(event.connectorUuid);
      if (chain) chain.push(index);
      else chains.set(event.connectorUuid, [index]);
    });
    const setAside = (indexes: number[]) => indexes.forEach((index) => (outcomes[index] = 'held'));
    const publishChain = async (chain: number[]) => {
      if (held.has(batch[chain[0]].event.connectorUuid)) return setAside(chain);
      for (const [step, index] of chain.entries()) {
        // Checked right before the publish, which reaches the socket in this same turn of the event loop.
        if (failure !== undefined || !this.holds()) return;
        const recorded = batch[index];
        try {
          await publisher.publish(subjectOf(recorded, this.config.changeEvents.subjectPrefix), cloudEventOf(recorded), recorded.event.eventUuid);
        } catch (error) {
          this.metrics.publishFailures.inc();
          if (error instanceof ConnectorEventRefusedError && (await this.parked(recorded, error))) return setAside(chain.slice(step));
          failure ??= { error };
          return;
        }
        outcomes[index] = 'acknowledged';
      }
    };
    const waiting = [...chains.values()];
    let next = 0;
    // A window of connectors' chains at a time, not the whole batch: every publish in flight holds its event, its
    // payload and the client's request until acknowledged (the memory a batch takes: docs/performance.md).
    await Promise.all(
      Array.from({ length: Math.min(RELAY_BATCHES.inFlight, waiting.length) }, async () => {
        while (next < waiting.length && failure === undefined) await publishChain(waiting[next++]);
      }),
    );
    return { outcomes, failure };
  }

  /**
   * Counts JetStream's refusal of `recorded`; whether that parked it (EVENTS_PUBLISH_MAX_ATTEMPTS), said once in an
   * error line. A refusal below the limit is a failure like any other: the relay backs off and tries again.
   */
  private async parked({ position, event }: RecordedEvent, error: ConnectorEventRefusedError): Promise<boolean> {
    const { maxPublishAttempts } = this.config.changeEvents;
    const refusal = await this.parking.refused(this.holder, this.timing.leaseMs, position, error.message, maxPublishAttempts, new Date());
    if (!refusal?.parked) return false;
    this.metrics.parked.inc();
    this.logger.error(
      { eventUuid: event.eventUuid, connectorUuid: event.connectorUuid, position, attempts: refusal.attempts, err: { message: error.message } },
      `Change events relay: parked event ${event.eventUuid}, refused ${refusal.attempts} times by JetStream; ` +
        `connector ${event.connectorUuid}'s later events are held behind it until a replay (npm run events:replay -- --event ${event.eventUuid})`,
    );
    return true;
  }

  /** Deletes what retention lets go: published (or, without NATS, numbered) and older than EVENTS_RETENTION_DAYS, in small batches. */
  private async purge(bound: number): Promise<void> {
    const cutoff = new Date(Date.now() - this.config.changeEvents.retentionDays * DAY_MS);
    for (let purged = RELAY_BATCHES.purge as number | null; purged === RELAY_BATCHES.purge && !this.stopped;) {
      purged = await this.events.purge(this.holder, this.timing.leaseMs, cutoff, bound, RELAY_BATCHES.purge);
      if (purged) this.metrics.purged.inc(purged);
    }
  }

  /**
   * Whether a round has something to do: events to number or to publish, a purge or a look at the row due. An idle
   * leader otherwise costs one indexed read per round, and no write but the lease's renewals.
   */
  private async workToDo(): Promise<boolean> {
    const now = Date.now();
    if (this.backlog || now - this.lastSequencedAt >= this.timing.resyncMs || now - this.lastPurgeAt >= this.timing.purgeEveryMs) return true;
    return this.events.hasUnnumbered();
  }

  private lost(): false {
    this.resign();
    this.logger.warn({ holder: this.holder }, 'Lost the change events relay lease to another relay');
    return false;
  }

  /** The deadline passed without a renewal that succeeded (a frozen process, a slow or unreachable database): stop, take the lease again. */
  private lapsed(): false {
    this.resign();
    this.logger.warn({ holder: this.holder }, 'The change events relay lease lapsed (no renewal in time); stopped, taking it again');
    return false;
  }

  private resign(): void {
    this.lead(false);
    this.backlog = true;
    this.followerWaitMs = 0;
  }

  /** Whether this relay holds the lease, as the metrics report it. */
  private lead(leader: boolean): void {
    this.leader = leader;
    this.metrics.relayState(leader, this.publisher !== null);
  }

  /** One warn line per kind of problem in a row, not one per round. */
  private report(error: unknown): void {
    const problem = error instanceof Error ? error.message : String(error);
    if (problem === this.lastProblem) return;
    this.lastProblem = problem;
    this.logger.warn({ err: error, retryInMs: this.backoffMs }, 'Change events relay: a step failed; retrying');
  }

  /** Waits `ms`, or less when shutdown wakes every sleeper. */
  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }
}

function subjectOf({ event, variables }: RecordedEvent, prefix?: string): string {
  if (variables !== undefined) return connectorVariablesEventSubject(event.organizationUuid, event.environmentUuid, prefix);
  return connectorEventSubject(event.organizationUuid, event.environmentUuid, event.botUuid, event.connectorUuid, prefix);
}

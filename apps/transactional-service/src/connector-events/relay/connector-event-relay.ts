import { ConnectorEventRepository, RecordedEvent } from '@app/domain';
import { APP_CONFIG, AppConfig } from '@app/platform';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { cloudEventOf } from '../cloud-event';
import { EventBatch, EventReads, EventSource } from '../event-reads';
import { EventFeedWatcher } from '../feed/event-feed-watcher';
import { ConnectorEventMetrics } from './connector-event-metrics';
import { ConnectorEventPublisher, connectorEventSubject } from '../jetstream/connector-event-publisher';
import { CONNECTOR_EVENT_PUBLISHER } from './event-publisher.provider';

/** The relay's pace (docs/operations.md, "Change events"). */
export interface RelayTiming {
  /** Between two rounds when there was nothing to do. */
  idleMs: number;
  /** How long a lease lasts without renewal: a dead relay's successor takes over after at most this. */
  leaseMs: number;
  /** A relay that does not hold the lease tries to take it this often. */
  followerMs: number;
  /** After a failed publish (or a database error): the first wait, doubled up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Retention runs this often. */
  purgeEveryMs: number;
}

export const RELAY_TIMING: RelayTiming = { idleMs: 100, leaseMs: 15_000, followerMs: 2_000, backoffMs: 250, maxBackoffMs: 5_000, purgeEveryMs: 60_000 };
/**
 * `publish`: events per batch at most, which EventReads also bounds in bytes (EVENT_READ_BYTES); `inFlight`:
 * connectors whose events are being published at once (each connector's one at a time).
 */
export const RELAY_BATCHES = { sequence: 1000, publish: 1000, inFlight: 64, purge: 500 } as const;
export const RELAY_TIMING_TOKEN = Symbol('RELAY_TIMING');

const DAY_MS = 86_400_000;

/**
 * Numbers the outbox into the feed, publishes it to JetStream (with NATS_URL) and purges it, one relay at a time
 * across all pods: the one holding the lease in connector_event_relay, renewed by every step it takes, taken over
 * by another when it expires (a dead pod), released at shutdown. Publishing goes in position order per connector,
 * one event acknowledged before that connector's next (Nats-Msg-Id = the event's id, so JetStream drops a
 * re-publish within its duplicate window); the relay marks what was acknowledged and stops at the first failure,
 * so per-connector order holds and nothing is skipped. No failure (database, broker) stops the loop or reaches a request.
 */
@Injectable()
export class ConnectorEventRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** This relay's name in the lease: the pod and process, and a random part for several apps in one process. */
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private leader = false;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private backoffMs = 0;
  private lastPurgeAt = 0;
  private lastProblem = '';
  private renewedAt = 0;
  /** Whether numbered events wait to be published, as the last round left it. */
  private backlog = true;
  /** What the relay publishes: every tenant's numbered events, read bounded in bytes. */
  private readonly numbered: EventSource = {
    sizes: (range) => this.events.numberedSizes(range),
    events: (range) => this.events.numberedAfter(range),
  };

  constructor(
    private readonly events: ConnectorEventRepository,
    private readonly watcher: EventFeedWatcher,
    private readonly reads: EventReads,
    private readonly metrics: ConnectorEventMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectPinoLogger(ConnectorEventRelay.name) private readonly logger: PinoLogger,
    @Optional() @Inject(CONNECTOR_EVENT_PUBLISHER) private readonly publisher: ConnectorEventPublisher | null = null,
    @Optional() @Inject(RELAY_TIMING_TOKEN) private readonly timing: RelayTiming = RELAY_TIMING,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  /** Gives the lease up, so another pod's relay takes over at once rather than when it expires. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    if (this.leader) await this.events.release(this.holder).catch(() => undefined);
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
      if (!busy) await this.pause(this.backoffMs || (this.leader ? this.timing.idleMs : this.timing.followerMs));
    }
  }

  /** One step: take the lease (or keep it: every step renews it), then number, publish and purge. Whether there is more to do at once. */
  private async round(): Promise<boolean> {
    if (!this.leader) {
      if (!(await this.events.acquire(this.holder, new Date(), this.leaseEnd()))) return false;
      this.lead(true);
      this.logger.info({ holder: this.holder }, 'Took the change events relay lease');
    }
    if (!(await this.workToDo())) return false;
    const step = await this.events.sequence(this.holder, this.leaseEnd(), RELAY_BATCHES.sequence);
    if (step === null) return this.lost();
    this.renewedAt = Date.now();
    const { numbered, progress } = step;
    this.backlog = this.publisher !== null && progress.publishedThrough < progress.sequencedThrough;
    if (numbered > 0) {
      this.metrics.numbered.inc(numbered);
      this.watcher.advanced(progress.sequencedThrough);
    }
    if (this.publisher) {
      const reached = await this.publish(this.publisher, progress.publishedThrough, progress.sequencedThrough);
      if (reached === null) return this.lost();
      // More to publish at once when the batch (bounded in count and in bytes) did not reach what is numbered.
      this.backlog = reached < progress.sequencedThrough;
    }
    if (Date.now() - this.lastPurgeAt >= this.timing.purgeEveryMs) {
      this.lastPurgeAt = Date.now();
      await this.purge(this.publisher ? (await this.events.progress()).publishedThrough : progress.sequencedThrough);
    }
    return numbered === RELAY_BATCHES.sequence || this.backlog;
  }

  /**
   * Publishes the events numbered after `after`, a batch bounded in count and bytes (EventReads): each connector's in
   * position order, one acknowledged before its next; different connectors' side by side (JetStream promises no order
   * across subjects, and one round trip per event would cap the relay at the broker's latency). The first failure
   * stops every chain; the relay marks the run of events from the start of the batch that were all acknowledged, then
   * throws (the loop backs off and starts again from there: what was acknowledged beyond the mark is published again,
   * and JetStream's dedup keeps it once). A connector's later event is never sent before its earlier one is
   * acknowledged, so per-connector order holds. Answers the position marked (the batch's end when all went), or null
   * when the lease was lost.
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
    const acknowledged = new Array<boolean>(batch.length).fill(false);
    let failure: { error: unknown } | undefined;
    const chains = new Map<string, number[]>();
    batch.forEach(({ event }, index) => {
      const chain = chains.get(event.connectorUuid);
      if (chain) chain.push(index);
      else chains.set(event.connectorUuid, [index]);
    });
    const publishChain = async (chain: number[]) => {
      for (const index of chain) {
        if (failure !== undefined) return;
        const recorded = batch[index];
        try {
          await publisher.publish(subjectOf(recorded, this.config.changeEvents.subjectPrefix), cloudEventOf(recorded), recorded.event.eventUuid);
        } catch (error) {
          failure ??= { error };
          this.metrics.publishFailures.inc();
          return;
        }
        acknowledged[index] = true;
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
    let count = 0;
    while (count < batch.length && acknowledged[count]) count += 1;
    // All acknowledged: every event up to the batch's end went (none other is there); else up to the first not acknowledged.
    const reached = count === batch.length ? read.through : count > 0 ? batch[count - 1].position : after;
    if (reached > after) {
      if (!(await this.events.markPublished(this.holder, this.leaseEnd(), reached))) return null;
      this.metrics.published.inc(count);
    }
    if (failure !== undefined) throw failure.error;
    return reached;
  }

  /** Deletes what retention lets go: published (or, without NATS, numbered) and older than EVENTS_RETENTION_DAYS, in small batches. */
  private async purge(bound: number): Promise<void> {
    const cutoff = new Date(Date.now() - this.config.changeEvents.retentionDays * DAY_MS);
    for (let purged = RELAY_BATCHES.purge as number | null; purged === RELAY_BATCHES.purge && !this.stopped;) {
      purged = await this.events.purge(this.holder, this.leaseEnd(), cutoff, bound, RELAY_BATCHES.purge);
      if (purged) this.metrics.purged.inc(purged);
    }
  }

  /**
   * Whether a round has something to do: events to number or to publish, a purge or the lease's renewal due. An
   * idle leader otherwise costs one indexed read per round, and no write (the lease is renewed a third of its life).
   */
  private async workToDo(): Promise<boolean> {
    const now = Date.now();
    if (this.backlog || now - this.renewedAt >= this.timing.leaseMs / 3 || now - this.lastPurgeAt >= this.timing.purgeEveryMs) return true;
    return this.events.hasUnnumbered();
  }

  private lost(): false {
    this.lead(false);
    this.backlog = true;
    this.logger.warn({ holder: this.holder }, 'Lost the change events relay lease to another relay');
    return false;
  }

  /** Whether this relay holds the lease, as the metrics report it. */
  private lead(leader: boolean): void {
    this.leader = leader;
    this.metrics.relayState(leader, this.publisher !== null);
  }

  private leaseEnd(): Date {
    return new Date(Date.now() + this.timing.leaseMs);
  }

  /** One warn line per kind of problem in a row, not one per round. */
  private report(error: unknown): void {
    const problem = error instanceof Error ? error.message : String(error);
    if (problem === this.lastProblem) return;
    this.lastProblem = problem;
    this.logger.warn({ err: error, retryInMs: this.backoffMs }, 'Change events relay: a step failed; retrying');
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}

function subjectOf({ event }: RecordedEvent, prefix?: string): string {
  return connectorEventSubject(event.organizationUuid, event.environmentUuid, event.botUuid, event.connectorUuid, prefix);
}

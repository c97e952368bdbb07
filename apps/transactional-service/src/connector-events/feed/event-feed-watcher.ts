import { ConnectorEventRepository, FeedScope, NumberedScope } from '@app/domain';
import { PlatformMetrics, ShutdownState } from '@app/platform';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Gauge } from 'prom-client';

/** How often a process with long polls waiting reads how far the outbox is numbered (one indexed read for all of them). */
export const FEED_POLL_MS = 200;
/**
 * The most positions one wake-up reads the bots of (one statement over at most this many events). A head that moved
 * further at once (a process paused for long) wakes every waiter instead, and each reads its own feed.
 */
export const MAX_WAKE_SPAN = 10_000;

interface Waiter {
  /** What wakes it: an event of its environment, or of its bot when it reads one (keyOf). */
  key: string;
  /** Up to this numbered head, its scope has no event it has not read: the head read before its feed's query, then each head checked since. */
  checkedThrough: number;
  wake: () => void;
}

/** The key of a feed's scope, as a numbered bot matches it: its environment's, and its bot's too. */
function keyOf(orgUUID: string, envUUID: string, botUUID?: string): string {
  const environment = `${orgUUID}/${envUUID}`.toLowerCase();
  return botUUID === undefined ? environment : `${environment}/${botUUID.toLowerCase()}`;
}

/**
 * The long polls of this process (`wait`). When the numbered head advances (at once when this process's relay
 * numbered, else seen by one shared read of the relay's row every FEED_POLL_MS while anyone waits: the relay may be
 * in another pod), one statement reads which bots got events in the new range, and only the waiters of those bots
 * and their environments wake and read their feed; the others keep waiting without a query. The drain for
 * shutdown wakes them all, at its start.
 */
@Injectable()
export class EventFeedWatcher implements OnModuleDestroy {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  /** The highest head announced (by the relay or the poll), and whether a wake-up is reading what it concerns. */
  private head = 0;
  private checking = false;

  constructor(
    private readonly events: ConnectorEventRepository,
    private readonly shutdown: ShutdownState,
    metrics: PlatformMetrics,
  ) {
    shutdown.onDrain(() => this.wakeAll());
    const waiters = this.waiters;
    new Gauge({
      name: 'connector_event_feed_waiting',
      help: 'Long polls of the change feed (wait) waiting in this process',
      registers: [metrics.registry],
      collect() {
        this.set(waiters.size);
      },
    });
  }

  /** Whether long polls must answer at once: the app drains for shutdown. */
  get draining(): boolean {
    return this.shutdown.draining;
  }

  /**
   * Resolves when an event of `scope` is numbered past `past` (the head read before the feed's query), after `ms`,
   * when the caller leaves (`signal`) or when the app drains: the caller then reads the feed once more.
   */
  waitPast(scope: FeedScope, past: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted || this.shutdown.draining) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = { key: keyOf(scope.orgUUID, scope.envUUID, scope.botUUID), checkedThrough: past, wake: () => done() };
      const timeout = setTimeout(() => done(), ms);
      const done = () => {
        clearTimeout(timeout);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(waiter);
        if (this.waiters.size === 0) this.stopPolling();
        resolve();
      };
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(waiter);
      this.startPolling();
      // A head announced after this waiter's read: what it brought is read now, not at the next advance.
      if (this.head > past) void this.check();
    });
  }

  /** Events were numbered up to `head` (by this process's relay, or seen by the poll). */
  advanced(head: number): void {
    if (head <= this.head) return;
    this.head = head;
    void this.check();
  }

  onModuleDestroy(): void {
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const waiter of [...this.waiters]) waiter.wake();
  }

  /**
   * Wakes the waiters behind the head whose scope got an event past their checkedThrough; the others are checked
   * through the head. One statement per round, whatever the number of waiters; one round at a time, again while
   * the head moves or waiters behind it arrive.
   */
  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (;;) {
        const head = this.head;
        const behind = [...this.waiters].filter((waiter) => waiter.checkedThrough < head);
        if (behind.length === 0) return;
        const from = Math.min(...behind.map((waiter) => waiter.checkedThrough));
        const last = head - from > MAX_WAKE_SPAN ? null : await this.lastPositions(from, head);
        for (const waiter of behind) {
          if (last === null || (last.get(waiter.key) ?? 0) > waiter.checkedThrough) waiter.wake();
          else waiter.checkedThrough = head;
        }
      }
    } finally {
      this.checking = false;
    }
  }

  /** Per environment and per bot, the last position numbered in (from, through]; null when the database did not answer (every waiter then reads its own feed). */
  private async lastPositions(from: number, through: number): Promise<Map<string, number> | null> {
    let scopes: NumberedScope[];
    try {
      scopes = await this.events.numberedScopes(from, through);
    } catch {
      return null;
    }
    const last = new Map<string, number>();
    const raise = (key: string, position: number) => last.set(key, Math.max(last.get(key) ?? 0, position));
    for (const { organizationUuid, environmentUuid, botUuid, lastPosition } of scopes) {
      raise(keyOf(organizationUuid, environmentUuid), lastPosition);
      raise(keyOf(organizationUuid, environmentUuid, botUuid), lastPosition);
    }
    return last;
  }

  private startPolling(): void {
    this.timer ??= setInterval(() => void this.poll(), FEED_POLL_MS);
  }

  private stopPolling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      this.advanced((await this.events.progress()).sequencedThrough);
    } catch {
      // The database is down: the waiters time out and their feed read answers the error.
    } finally {
      this.polling = false;
    }
  }
}

import { ConnectorEventRepository } from '@app/domain';
import { PlatformMetrics, ShutdownState } from '@app/platform';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Gauge } from 'prom-client';

/** How often a process with long polls waiting reads how far the outbox is numbered (one indexed read for all of them). */
export const FEED_POLL_MS = 200;

interface Waiter {
  past: number;
  wake: () => void;
}

/**
 * The long polls of this process (`wait`), woken when events are numbered past the position each waits for:
 * at once when this process's relay numbered them, else by one shared read of the relay's row every
 * FEED_POLL_MS while anyone waits (the relay may be in another pod). The drain for shutdown wakes them all, at its
 * start.
 */
@Injectable()
export class EventFeedWatcher implements OnModuleDestroy {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

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
   * Resolves when the numbered head passes `past` (the head read before the feed's query), after `ms`, when the
   * caller leaves (`signal`) or when the app drains: the caller then reads the feed once more.
   */
  waitPast(past: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted || this.shutdown.draining) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = { past, wake: () => done() };
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
    });
  }

  /** Events were numbered up to `head` (by this process's relay, or seen by the poll). */
  advanced(head: number): void {
    for (const waiter of [...this.waiters]) if (head > waiter.past) waiter.wake();
  }

  onModuleDestroy(): void {
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const waiter of [...this.waiters]) waiter.wake();
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

import { ConnectorEventRepository, HeldCounts, ParkedEventRepository } from '@app/domain';
import { PlatformMetrics } from '@app/platform';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';

/** How long a scrape waits for the age of the oldest unpublished event. */
const SCRAPE_READ_MS = 1_000;

/** A scrape does not wait on a database that does not answer: the last value stays, the database's own alerts say why. */
async function withinScrape(read: () => Promise<unknown>): Promise<void> {
  await Promise.race([read().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, SCRAPE_READ_MS).unref())]);
}

/** The `/metrics` of change events (docs/operations.md, "Change events"). Counted by the relay that holds the lease. */
@Injectable()
export class ConnectorEventMetrics {
  readonly numbered: Counter;
  readonly published: Counter;
  readonly publishFailures: Counter;
  readonly purged: Counter;
  readonly parked: Counter;
  /** What the gauges read: whether this process leads, and whether it publishes (NATS_URL). */
  private readonly state = { leader: false, publishing: false };

  constructor(metrics: PlatformMetrics, events: ConnectorEventRepository, parking: ParkedEventRepository) {
    const registers = [metrics.registry];
    this.numbered = new Counter({
      name: 'connector_events_written_total',
      help: 'Change events written to the outbox, counted when the relay holding the lease numbers them into the feed (sum over pods)',
      registers,
    });
    this.published = new Counter({ name: 'connector_events_published_total', help: 'Change events JetStream acknowledged (sum over pods)', registers });
    this.publishFailures = new Counter({
      name: 'connector_events_publish_failures_total',
      help: 'Publishes to JetStream that failed or timed out; the relay retries from the first of them',
      registers,
    });
    this.purged = new Counter({ name: 'connector_events_purged_total', help: 'Change events deleted by retention (EVENTS_RETENTION_DAYS)', registers });
    this.parked = new Counter({
      name: 'connector_events_parked_total',
      help: 'Change events parked after EVENTS_PUBLISH_MAX_ATTEMPTS refusals by JetStream (sum over pods)',
      registers,
    });
    const state = this.state;
    new Gauge({
      name: 'connector_event_relay_leader',
      help: "1 while this process's relay holds the lease (one relay at a time across all pods), else 0",
      registers,
      collect() {
        this.set(state.leader ? 1 : 0);
      },
    });
    new Gauge({
      name: 'connector_events_oldest_unpublished_age_seconds',
      help: 'Age of the oldest change event not yet acknowledged by JetStream (without NATS_URL: not yet numbered into the feed); 0 when none; reported by the leader only',
      registers,
      async collect() {
        if (!state.leader) return this.set(0);
        const read = async () => {
          const progress = await events.progress();
          const oldest = await events.oldestUnpublishedAt(state.publishing ? progress.publishedThrough : progress.sequencedThrough);
          this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest.getTime()) / 1000));
        };
        await withinScrape(read);
      },
    });

    // One read per scrape serves both gauges: a scrape collects every metric at once, so the first collect starts the
    // read and the other awaits the same one; the last value stays when the database does not answer in time.
    let counts: HeldCounts = { parked: 0, held: 0 };
    let reading: Promise<void> | undefined;
    const readCounts = async (): Promise<HeldCounts> => {
      if (!state.leader) return (counts = { parked: 0, held: 0 });
      reading ??= withinScrape(async () => (counts = await parking.counts())).finally(() => (reading = undefined));
      await reading;
      return counts;
    };
    new Gauge({
      name: 'connector_events_parked',
      help: 'Change events parked (refused by JetStream EVENTS_PUBLISH_MAX_ATTEMPTS times), waiting for a replay; reported by the leader only',
      registers,
      async collect() {
        this.set((await readCounts()).parked);
      },
    });
    new Gauge({
      name: 'connector_events_held',
      help: "Change events held unpublished behind their connector's parked event (or released, waiting for their turn); reported by the leader only",
      registers,
      async collect() {
        this.set((await readCounts()).held);
      },
    });
  }

  /** Whether this process leads, and whether it publishes (NATS_URL): what the gauges report. */
  relayState(leader: boolean, publishing: boolean): void {
    this.state.leader = leader;
    this.state.publishing = publishing;
  }
}

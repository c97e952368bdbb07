import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { placeholderList, statement, statementsBy } from '../database/statement';
import {
  EVENT_SIZES,
  EventRange,
  EventSize,
  eventSizeOf,
  paddedList,
  RANGE,
  RecordedEvent,
  RECORDED_EVENTS,
  recordedEventOf,
  RELAY,
  relayLease,
} from './connector-event.repository';

/** What JetStream's refusals did to an event: how many it has had, and whether that parked it. */
export interface Refusal {
  attempts: number;
  parked: boolean;
}

/** Events set aside by the relay: parked, and held behind their connector's parked one (the parked ones among them). */
export interface HeldCounts {
  parked: number;
  held: number;
}

/** Which parked events a replay releases: one (by its id) or all. */
export type ReplayTarget = { eventUuid: string } | { all: true };

/** JetStream's refusal as stored (`publish_error`). */
const ERROR_CHARS = 1000;

/**
 * A held event that no parked event of its connector precedes: released by a replay, published again in position
 * order. Every condition names `held_at`, so both engines read the held rows by their index, never the whole outbox.
 */
const RELEASED = 'ev.held_at IS NOT NULL AND ev.parked_at IS NULL AND ';
const NO_PARKED_BEFORE =
  'NOT EXISTS (SELECT 1 FROM connector_events p WHERE p.held_at IS NOT NULL AND p.parked_at IS NOT NULL AND p.connector_uuid = ev.connector_uuid AND p.position < ev.position) AND ';
const RELEASED_SIZES = statement(`${EVENT_SIZES} WHERE `, RELEASED, NO_PARKED_BEFORE, RANGE);
const RELEASED_EVENTS = statement(`${RECORDED_EVENTS} WHERE `, RELEASED, NO_PARKED_BEFORE, RANGE);
/** Which of the listed connectors have held events (padded as NUMBER's list). */
const HELD_AMONG = statementsBy((count: number) =>
  statement(
    `SELECT DISTINCT ev.connector_uuid AS connector_uuid FROM connector_events ev WHERE ev.held_at IS NOT NULL AND ev.connector_uuid IN (${placeholderList('connector', count)})`,
  ),
);
const REFUSED = statement('UPDATE connector_events SET publish_attempts = publish_attempts + 1, publish_error = :error WHERE position = :position');
const ATTEMPTS = statement('SELECT ev.publish_attempts AS publish_attempts FROM connector_events ev WHERE ev.position = :position').returning<{
  publish_attempts: number | string;
}>();
const PARK = statement('UPDATE connector_events SET parked_at = :at, held_at = COALESCE(held_at, :at) WHERE position = :position');
const HOLD = statementsBy((count: number) =>
  statement(`UPDATE connector_events SET held_at = :at WHERE position IN (${placeholderList('position', count)}) AND held_at IS NULL`),
);
const UNHOLD = statementsBy((count: number) =>
  statement(`UPDATE connector_events SET held_at = NULL WHERE position IN (${placeholderList('position', count)}) AND parked_at IS NULL`),
);
const COUNTS = statement('SELECT COUNT(ev.parked_at) AS parked, COUNT(*) AS held FROM connector_events ev WHERE ev.held_at IS NOT NULL').returning<{
  parked: number | string;
  held: number | string;
}>();
const REPLAY_ONE = statement(
  'UPDATE connector_events SET parked_at = NULL, publish_attempts = 0 WHERE held_at IS NOT NULL AND parked_at IS NOT NULL AND event_uuid = :eventUuid',
);
const REPLAY_ALL = statement('UPDATE connector_events SET parked_at = NULL, publish_attempts = 0 WHERE held_at IS NOT NULL AND parked_at IS NOT NULL');

/**
 * Events JetStream refuses (docs/operations.md, "Parked events"): each refusal counted on its event; at the relay's
 * limit the event is parked, and its connector's later events are held behind it, unpublished, while the relay's mark
 * (published_through) moves past them for every other connector. A replay clears the parking; the relay then
 * publishes the held events of that connector in position order. Every statement of the relay's that changes something
 * is fenced by its lease, as in ConnectorEventRepository.
 */
@Injectable()
export class ParkedEventRepository {
  private readonly lease: ReturnType<typeof relayLease>;

  constructor(private readonly db: Database) {
    this.lease = relayLease(db);
  }

  /** Which of `connectors` have held events: their events in a batch are held too, never published past them. */
  @GenerateSql({ params: [[DummyValue.UUID, DummyValue.UUID]] })
  async heldAmong(connectors: readonly string[]): Promise<Set<string>> {
    if (connectors.length === 0) return new Set();
    const { count, params } = paddedList('connector', connectors);
    const rows = await this.db.rows(HELD_AMONG(count), params, 'primary');
    return new Set(rows.map((row) => String(row.connector_uuid)));
  }

  /**
   * Counts one refusal of the event at `position` and keeps JetStream's words; parks it (and holds it) when that makes
   * `maxAttempts`. Null (nothing changed) when `holder` lost the lease.
   */
  @GenerateSql({ params: ['pod-1', 2000, 100, 'message size exceeds maximum allowed', 5, DummyValue.DATE] })
  async refused(holder: string, leaseMs: number, position: number, error: string, maxAttempts: number, at: Date): Promise<Refusal | null> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run(this.lease.RENEW, { ...RELAY, holder, leaseMs })) !== 1) return null;
      await tx.run(REFUSED, { position, error: error.slice(0, ERROR_CHARS) });
      const [row] = await tx.rows(ATTEMPTS, { position });
      const attempts = Number(row?.publish_attempts ?? 0);
      const parked = attempts >= maxAttempts;
      if (parked) await tx.run(PARK, { position, at });
      return { attempts, parked };
    });
  }

  /**
   * Records that every event up to `through` was acknowledged by JetStream or set aside, and holds the listed ones
   * (all at or below `through`), together: a held event is never passed without being held. False (nothing changed)
   * when `holder` lost the lease.
   */
  @GenerateSql({ params: ['pod-1', 2000, 100, [98, 99], DummyValue.DATE] })
  async markPublishedHolding(holder: string, leaseMs: number, through: number, held: readonly number[], at: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run(this.lease.MARK_PUBLISHED, { ...RELAY, holder, leaseMs, through })) !== 1) return false;
      if (held.length === 0) return true;
      const { count, params } = paddedList('position', held);
      await tx.run(HOLD(count), { at, ...params });
      return true;
    });
  }

  /** What the released events in `range` weigh, oldest first (EventReads weighs before it loads). */
  @GenerateSql({ params: [{ after: 0, through: 200, limit: 100 }] })
  async releasedSizes(range: EventRange): Promise<EventSize[]> {
    return (await this.db.rows(RELEASED_SIZES, range, 'primary')).map(eventSizeOf);
  }

  /** The released events in `range`, oldest first, with their content: what the relay publishes before its batch. */
  @GenerateSql({ params: [{ after: 0, through: 200, limit: 100 }] })
  async released(range: EventRange): Promise<RecordedEvent[]> {
    return (await this.db.rows(RELEASED_EVENTS, range, 'primary')).map(recordedEventOf);
  }

  /** Records that JetStream acknowledged the listed released events; false (nothing changed) when `holder` lost the lease. */
  @GenerateSql({ params: ['pod-1', 2000, [98, 99]] })
  async unhold(holder: string, leaseMs: number, positions: readonly number[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run(this.lease.RENEW, { ...RELAY, holder, leaseMs })) !== 1) return false;
      if (positions.length === 0) return true;
      const { count, params } = paddedList('position', positions);
      await tx.run(UNHOLD(count), params);
      return true;
    });
  }

  /** How many events are parked, and how many more are held behind them: the metrics' gauges. */
  @GenerateSql({ params: [] })
  async counts(): Promise<HeldCounts> {
    const [row] = await this.db.rows(COUNTS, {}, 'primary');
    const parked = Number(row?.parked ?? 0);
    return { parked, held: Number(row?.held ?? 0) - parked };
  }

  /**
   * Clears the parking of one event or of all (an operator's step, `npm run events:replay`): their refusals counted
   * from zero again, the relay publishes them and the events held behind them. Answers how many were parked.
   */
  @GenerateSql({ name: 'one', params: [{ eventUuid: DummyValue.UUID }] }, { name: 'all', params: [{ all: true }] })
  async replay(target: ReplayTarget): Promise<number> {
    return 'all' in target ? this.db.run(REPLAY_ALL, {}) : this.db.run(REPLAY_ONE, { eventUuid: target.eventUuid });
  }
}

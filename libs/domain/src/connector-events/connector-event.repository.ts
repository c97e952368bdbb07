import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { listed, placeholderList, statement, statementsBy } from '../database/statement';
import { REST_CONNECTOR_VERSION_ROWS } from '../rest-connectors/rest-connector-version.entity';
import { recordedSnapshot } from '../rest-connectors/connector-snapshot';
import type { VersionRow } from '../rest-connectors/connector-history.repository';
import { CONNECTOR_VARIABLE_SET_VERSION_ROWS, ConnectorVariableSetVersion } from '../connector-variables/connector-variable.entity';
import { CONNECTOR_EVENT_ROWS, ConnectorEvent, EventKind } from './connector-event.entity';
import { CONNECTOR_EVENT_RELAY_ROWS, ConnectorEventRelayState } from './connector-event-relay.entity';

/** Which event an outbox row is: its ids, and what it announces (`kind`; a connector's version when absent). */
export type RecordedEventIds = Pick<ConnectorEvent, 'eventUuid' | 'organizationUuid' | 'environmentUuid' | 'botUuid' | 'connectorUuid' | 'version'> & {
  kind?: EventKind;
};

/** An event of a connector's version with that version's content: what the feed answers and the relay publishes (as a CloudEvent). */
export interface RecordedConnectorEvent {
  position: number;
  event: RecordedEventIds;
  recorded: Pick<VersionRow, 'operation' | 'updatedAt' | 'updatedBy' | 'reason' | 'revertedTo' | 'changedFields' | 'snapshot' | 'promotionId'>;
  variables?: undefined;
}

/** An event of a version of an environment's connector variables (kind `variables`), with that version's content. */
export interface RecordedVariablesEvent {
  position: number;
  event: RecordedEventIds;
  recorded?: undefined;
  variables: Pick<ConnectorVariableSetVersion, 'updatedAt' | 'updatedBy' | 'reason' | 'promotionId' | 'changes' | 'snapshot'>;
}

/** An outbox event with its version's content (a connector's, or a set of connector variables'). */
export type RecordedEvent = RecordedConnectorEvent | RecordedVariablesEvent;

/** Where a feed reads: an environment of an organization, optionally one bot of it. */
export interface FeedScope {
  orgUUID: string;
  envUUID: string;
  botUUID?: string;
}

/** What a relay that asked for the lease learned: it holds it, or when the holder's lease ends on the database's clock. */
export type LeaseAnswer = { taken: true } | { taken: false; endsInMs: number };

/** A scope with events numbered in a range of positions, and the last of them: whom a numbered batch concerns. */
export interface NumberedScope {
  organizationUuid: string;
  environmentUuid: string;
  botUuid: string;
  lastPosition: number;
}

/** A range of the outbox: the events numbered after `after` up to `through`, oldest first, at most `limit`. */
export interface EventRange {
  after: number;
  through: number;
  limit: number;
}

/** Where an event is, and what its content weighs as stored (its snapshot, changed fields and author, in bytes). */
export interface EventSize {
  position: number;
  bytes: number;
}

/** The relay's counters (connector_event_relay). */
export type RelayProgress = Pick<ConnectorEventRelayState, 'sequencedThrough' | 'publishedThrough' | 'purgedThrough'>;

const EVENT_ROWS = CONNECTOR_EVENT_ROWS.pick('position', 'kind', 'eventUuid', 'organizationUuid', 'environmentUuid', 'botUuid', 'connectorUuid', 'version');
const RECORDED_ROWS = REST_CONNECTOR_VERSION_ROWS.pick(
  'operation',
  'updatedAt',
  'updatedBy',
  'reason',
  'revertedTo',
  'changedFields',
  'snapshot',
  'promotionId',
);
const VARIABLES_ROWS = CONNECTOR_VARIABLE_SET_VERSION_ROWS.pick('updatedAt', 'updatedBy', 'reason', 'promotionId', 'changes', 'snapshot');
/** The set version's columns, each `s_<column>`: beside the connector version's, whose names they share. */
const VARIABLES_SELECT = VARIABLES_ROWS.layout.map(({ column }) => `s.${column} AS s_${column}`).join(', ');
const PROGRESS_ROWS = CONNECTOR_EVENT_RELAY_ROWS.pick('sequencedThrough', 'publishedThrough', 'purgedThrough');
const EXPIRING_ROWS = CONNECTOR_EVENT_ROWS.pick('seq', 'position', 'createdAt');
const CREATED_ROWS = CONNECTOR_EVENT_ROWS.pick('createdAt');
const SCOPE_ROWS = CONNECTOR_EVENT_ROWS.pick('organizationUuid', 'environmentUuid', 'botUuid');

/**
 * The two versions an event may announce, by its kind: a connector's (rest_connector_versions) or a set of connector
 * variables' (connector_variable_set_versions); each join a lookup of its primary key, the other's columns NULL.
 */
const VERSIONS_OF_EVENTS =
  "LEFT JOIN rest_connector_versions v ON ev.kind = 'connector' AND v.connector_uuid = ev.connector_uuid AND v.version = ev.version " +
  "LEFT JOIN connector_variable_set_versions s ON ev.kind = 'variables' AND s.environment_uuid = ev.environment_uuid AND s.version = ev.version";
/** Events with their versions' content (a version row is never changed once written), in position order. */
export const RECORDED_EVENTS = `SELECT ${EVENT_ROWS.select('ev')}, ${RECORDED_ROWS.select('v')}, ${VARIABLES_SELECT} FROM connector_events ev ${VERSIONS_OF_EVENTS}`;
/**
 * The same events' positions and the bytes of what they carry that grows (the snapshot, the changed fields, the
 * author and the reason, as stored, in UTF-8): what a read weighs before it loads them (EventReads). OCTET_LENGTH on both engines.
 */
export const EVENT_SIZES =
  'SELECT ev.position AS position, COALESCE(OCTET_LENGTH(v.snapshot) + OCTET_LENGTH(v.changed_fields) + OCTET_LENGTH(v.updated_by) + COALESCE(OCTET_LENGTH(v.reason), 0), ' +
  'OCTET_LENGTH(s.snapshot) + OCTET_LENGTH(s.changes) + OCTET_LENGTH(s.updated_by) + COALESCE(OCTET_LENGTH(s.reason), 0), 0) AS bytes ' +
  `FROM connector_events ev ${VERSIONS_OF_EVENTS}`;
/** A range of the outbox, in position order: after `after`, up to `through`, at most `limit`. */
export const RANGE = 'ev.position > :after AND ev.position <= :through ORDER BY ev.position LIMIT :limit';
/** The feed's scope, in its statements: the organization and the environment of the path (and the bot, when named). */
const IN_ENVIRONMENT = 'ev.organization_uuid = :orgUUID AND ev.environment_uuid = :envUUID AND ';
const IN_BOT = 'ev.organization_uuid = :orgUUID AND ev.environment_uuid = :envUUID AND ev.bot_uuid = :botUUID AND ';
const FEED = statement(`${RECORDED_EVENTS} WHERE `, IN_ENVIRONMENT, RANGE);
const BOT_FEED = statement(`${RECORDED_EVENTS} WHERE `, IN_BOT, RANGE);
const FEED_SIZES = statement(`${EVENT_SIZES} WHERE `, IN_ENVIRONMENT, RANGE);
const BOT_FEED_SIZES = statement(`${EVENT_SIZES} WHERE `, IN_BOT, RANGE);
/** Every tenant's events in a range: what the relay publishes next. */
const NUMBERED = statement(`${RECORDED_EVENTS} WHERE `, RANGE);
const NUMBERED_SIZES = statement(`${EVENT_SIZES} WHERE `, RANGE);
/** Each bot with events numbered after `after` up to `through`, and its last: one range of the position index. */
const NUMBERED_SCOPES = statement(
  `SELECT ${SCOPE_ROWS.select('ev')}, MAX(ev.position) AS last_position FROM connector_events ev WHERE ev.position > :after AND ev.position <= :through GROUP BY ev.organization_uuid, ev.environment_uuid, ev.bot_uuid`,
);

/** The relay's one row. */
export const RELAY = { id: 1 };
const PROGRESS = statement(`SELECT ${PROGRESS_ROWS.select('r')} FROM connector_event_relay r WHERE r.id = :id`);
const RELEASE = statement('UPDATE connector_event_relay SET holder = NULL, lease_until = NULL WHERE id = :id AND holder = :holder');

/**
 * The database's clock, as each engine spells it: the lease's end is set and judged on it alone, never on a pod's
 * clock (pods' clocks may be skewed; a lease of 2 s cannot absorb a skew). `:leaseMs` is a duration.
 */
const MYSQL_CLOCK = {
  now: 'UTC_TIMESTAMP(3)',
  leaseEnd: 'UTC_TIMESTAMP(3) + INTERVAL :leaseMs * 1000 MICROSECOND',
  endsInMs: 'TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), r.lease_until) DIV 1000',
} as const;
const SQLITE_CLOCK = {
  now: "strftime('%Y-%m-%d %H:%M:%f', 'now')",
  leaseEnd: "strftime('%Y-%m-%d %H:%M:%f', 'now', '+' || (:leaseMs / 1000.0) || ' seconds')",
  endsInMs: "CAST(ROUND((julianday(r.lease_until) - julianday('now')) * 86400000) AS INTEGER)",
} as const;

/** The statements of the lease on one engine's clock. */
const leaseStatements = (clock: typeof MYSQL_CLOCK | typeof SQLITE_CLOCK) => ({
  /** Who holds the lease, and in how many milliseconds it ends (negative: it has ended; null: nobody holds it). */
  LEASE: statement(`SELECT r.holder AS holder, ${clock.endsInMs} AS ends_in_ms FROM connector_event_relay r WHERE r.id = :id`).returning<{
    holder: string | null;
    ends_in_ms: number | string | null;
  }>(),
  /** Takes the lease when it is free, ended, or already this holder's: a new epoch. */
  ACQUIRE: statement(
    `UPDATE connector_event_relay SET holder = :holder, lease_until = ${clock.leaseEnd}, lease_taken_at = ${clock.now}, lease_epoch = lease_epoch + 1 `,
    `WHERE id = :id AND (holder = :holder OR holder IS NULL OR lease_until IS NULL OR lease_until < ${clock.now})`,
  ),
  /** Renews the lease for its holder: 0 rows when another holds it (the fence of every step that changes something). */
  RENEW: statement(`UPDATE connector_event_relay SET lease_until = ${clock.leaseEnd} WHERE id = :id AND holder = :holder`),
  MARK_PUBLISHED: statement(
    `UPDATE connector_event_relay SET published_through = :through, lease_until = ${clock.leaseEnd} `,
    'WHERE id = :id AND holder = :holder AND published_through < :through',
  ),
});
const LEASE_STATEMENTS = { mysql: leaseStatements(MYSQL_CLOCK), sqlite: leaseStatements(SQLITE_CLOCK) };

/** The lease's statements on `db`'s engine: the fence of every statement of the relay's that changes something. */
export const relayLease = (db: Database): ReturnType<typeof leaseStatements> => (db.isSqlite ? LEASE_STATEMENTS.sqlite : LEASE_STATEMENTS.mysql);
const UNNUMBERED = statement('SELECT seq FROM connector_events WHERE position IS NULL ORDER BY seq LIMIT :limit');
const ANY_UNNUMBERED = statement('SELECT 1 AS waiting FROM connector_events WHERE position IS NULL LIMIT 1');
/**
 * Numbers the listed rows, by primary key: a range over the unnumbered rows would lock the gap concurrent writers
 * insert into. The list is padded to a power of two (repeating its last seq), so a few statements serve every batch.
 */
const NUMBER = statementsBy((count: number) =>
  statement(`UPDATE connector_events SET position = seq + :offset WHERE seq IN (${placeholderList('seq', count)}) AND position IS NULL`),
);
const SEQUENCED_THROUGH = statement('UPDATE connector_event_relay SET sequenced_through = :through WHERE id = :id');
/** A held event (parked, or behind its connector's parked one) is kept, whatever its age, until JetStream acknowledges it. */
const OLDEST_NUMBERED = statement(
  `SELECT ${EXPIRING_ROWS.select('ev')} FROM connector_events ev WHERE ev.position IS NOT NULL AND ev.position <= :bound AND ev.held_at IS NULL ORDER BY ev.position LIMIT :limit`,
);
/** Deletes the listed rows by primary key (padded as NUMBER's). */
const DELETE = statementsBy((count: number) => statement(`DELETE FROM connector_events WHERE seq IN (${placeholderList('seq', count)})`));
const PURGED_THROUGH = statement('UPDATE connector_event_relay SET purged_through = :through WHERE id = :id AND purged_through < :through');
const OLDEST_UNNUMBERED_AT = statement('SELECT created_at FROM connector_events WHERE position IS NULL ORDER BY seq LIMIT 1');
const OLDEST_UNPUBLISHED_AT = statement('SELECT created_at FROM connector_events WHERE position > :after ORDER BY position LIMIT 1');

/** `values` padded to the next power of two with its last value, and their names: the parameters of a listed statement (NUMBER, DELETE, …). */
export function paddedList<V extends string | number>(name: string, values: readonly V[]): { count: number; params: Record<string, V> } {
  const count = 2 ** Math.ceil(Math.log2(values.length));
  const padded = [...values, ...Array<V>(count - values.length).fill(values[values.length - 1])];
  return { count, params: listed(name, padded) as Record<string, V> };
}

const paddedSeqs = (values: readonly number[]) => paddedList('seq', values);

/**
 * The outbox of connector change events: the feed's reads, and what the relay (one holder of the lease at a time)
 * does to it: number new events, mark what JetStream acknowledged, purge what retention lets go. Every statement
 * of the relay's that changes something is fenced by the lease: a relay that lost it changes nothing.
 */
@Injectable()
export class ConnectorEventRepository {
  private readonly lease: ReturnType<typeof leaseStatements>;

  constructor(private readonly db: Database) {
    this.lease = relayLease(db);
  }

  /**
   * What the scope's events in `range` weigh, oldest first: the first step of a read bounded in bytes (EventReads),
   * which then loads only those that fit (`feed`). The statement is bounded by the organization, the environment
   * and the bot of the scope; the caller checked that the scope holds (ScopeService.require). Read on the primary,
   * where numbers are given.
   */
  @GenerateSql(
    { name: 'environment', params: [DummyValue.ENVIRONMENT_PATH, { after: 0, through: 200, limit: 100 }] },
    { name: 'bot', params: [DummyValue.BOT_PATH, { after: 0, through: 200, limit: 100 }] },
  )
  async feedSizes(scope: FeedScope, range: EventRange): Promise<EventSize[]> {
    const { orgUUID, envUUID, botUUID } = scope;
    const rows =
      botUUID === undefined
        ? await this.db.rows(FEED_SIZES, { orgUUID, envUUID, ...range }, 'primary')
        : await this.db.rows(BOT_FEED_SIZES, { orgUUID, envUUID, botUUID, ...range }, 'primary');
    return rows.map(eventSizeOf);
  }

  /** The scope's events in `range`, oldest first, with their content: what `feedSizes` weighed and found to fit. */
  @GenerateSql(
    { name: 'environment', params: [DummyValue.ENVIRONMENT_PATH, { after: 0, through: 200, limit: 100 }] },
    { name: 'bot', params: [DummyValue.BOT_PATH, { after: 0, through: 200, limit: 100 }] },
  )
  async feed(scope: FeedScope, range: EventRange): Promise<RecordedEvent[]> {
    const { orgUUID, envUUID, botUUID } = scope;
    const rows =
      botUUID === undefined
        ? await this.db.rows(FEED, { orgUUID, envUUID, ...range }, 'primary')
        : await this.db.rows(BOT_FEED, { orgUUID, envUUID, botUUID, ...range }, 'primary');
    return rows.map(recordedEventOf);
  }

  /** How far the outbox is numbered, published and purged. */
  @GenerateSql({ params: [] })
  async progress(): Promise<RelayProgress> {
    const [row] = await this.db.rows(PROGRESS, RELAY, 'primary');
    return PROGRESS_ROWS.from(row);
  }

  /**
   * Takes the lease for `leaseMs` when it is free, ended or already `holder`'s, all judged on the database's clock.
   * Otherwise answers in how many milliseconds the holder's lease ends (on that clock) unless renewed.
   */
  @GenerateSql({ params: ['pod-1', 2000] })
  async acquire(holder: string, leaseMs: number): Promise<LeaseAnswer> {
    // Read first: a follower asks once per lease, and a write that changes nothing still costs the primary.
    const [lease] = await this.db.rows(this.lease.LEASE, RELAY, 'primary');
    const endsInMs = Number(lease?.ends_in_ms ?? -1);
    if (lease?.holder && lease.holder !== holder && endsInMs >= 0) return { taken: false, endsInMs };
    // Taken by another between the read and the write: its lease has only begun.
    return (await this.db.run(this.lease.ACQUIRE, { ...RELAY, holder, leaseMs })) === 1 ? { taken: true } : { taken: false, endsInMs: 0 };
  }

  /** Extends `holder`'s lease to `leaseMs` from now on the database's clock; false (nothing changed) when another holds it. */
  @GenerateSql({ params: ['pod-1', 2000] })
  async renew(holder: string, leaseMs: number): Promise<boolean> {
    return (await this.db.run(this.lease.RENEW, { ...RELAY, holder, leaseMs })) === 1;
  }

  /** Gives the lease up (at shutdown), so another relay takes over at once rather than when it expires. */
  @GenerateSql({ params: ['pod-1'] })
  async release(holder: string): Promise<void> {
    await this.db.run(RELEASE, { ...RELAY, holder });
  }

  /**
   * Numbers up to `batch` events not numbered yet, in the order of their inserts, each above every position given
   * before: `position = seq + offset`, the offset chosen so the first is above the last number given. An event
   * that commits after this read (its seq lower than some numbered here) gets a number above these the next
   * time: a reader past a position never misses one. Per connector the order is the versions' order: a version's
   * write waits for the previous one's commit, so its insert (its seq) comes after. Answers how many were
   * numbered and the relay's progress after it, or null when `holder` no longer holds the lease (nothing changed).
   */
  @GenerateSql({ params: ['pod-1', 2000, 1000] })
  async sequence(holder: string, leaseMs: number, batch: number): Promise<{ numbered: number; progress: RelayProgress } | null> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run(this.lease.RENEW, { ...RELAY, holder, leaseMs })) !== 1) return null;
      const [progress] = (await tx.rows(PROGRESS, RELAY)).map((row) => PROGRESS_ROWS.from(row));
      const seqs = (await tx.rows(UNNUMBERED, { limit: batch })).map((row) => Number(row.seq));
      if (seqs.length === 0) return { numbered: 0, progress };
      const offset = Math.max(0, progress.sequencedThrough + 1 - seqs[0]);
      const { count, params } = paddedSeqs(seqs);
      const numbered = await tx.run(NUMBER(count), { offset, ...params });
      const sequencedThrough = seqs[seqs.length - 1] + offset;
      await tx.run(SEQUENCED_THROUGH, { ...RELAY, through: sequencedThrough });
      return { numbered, progress: { ...progress, sequencedThrough } };
    });
  }

  /** Whether an event waits to be numbered: the relay's idle check, one index lookup, no write. */
  @GenerateSql({ params: [] })
  async hasUnnumbered(): Promise<boolean> {
    return (await this.db.rows(ANY_UNNUMBERED, {}, 'primary')).length > 0;
  }

  /** What every tenant's events in `range` weigh, oldest first: the relay's next to publish, weighed before it loads them. */
  @GenerateSql({ params: [{ after: 0, through: 200, limit: 100 }] })
  async numberedSizes(range: EventRange): Promise<EventSize[]> {
    return (await this.db.rows(NUMBERED_SIZES, range, 'primary')).map(eventSizeOf);
  }

  /** Every tenant's events in `range`, oldest first, with their content: the relay's next to publish. */
  @GenerateSql({ params: [{ after: 0, through: 200, limit: 100 }] })
  async numberedAfter(range: EventRange): Promise<RecordedEvent[]> {
    return (await this.db.rows(NUMBERED, range, 'primary')).map(recordedEventOf);
  }

  /**
   * The bots (with their environment and organization) that have events numbered after `after` up to `through`,
   * each with the last position: which of the feed's long polls a numbered batch wakes.
   */
  @GenerateSql({ params: [0, 200] })
  async numberedScopes(after: number, through: number): Promise<NumberedScope[]> {
    const rows = await this.db.rows(NUMBERED_SCOPES, { after, through }, 'primary');
    return rows.map((row) => ({ ...SCOPE_ROWS.from(row), lastPosition: Number(row.last_position) }));
  }

  /** Records that JetStream acknowledged every event up to `through`; false (nothing changed) when `holder` lost the lease. */
  @GenerateSql({ params: ['pod-1', 2000, 100] })
  async markPublished(holder: string, leaseMs: number, through: number): Promise<boolean> {
    return (await this.db.run(this.lease.MARK_PUBLISHED, { ...RELAY, holder, leaseMs, through })) === 1;
  }

  /**
   * Deletes up to `batch` of the oldest numbered events written before `cutoff` and at or below `bound` (what
   * may go: published, or numbered when nothing publishes; never a held one), and raises purged_through over them. Answers how many
   * went, or null when `holder` lost the lease.
   */
  @GenerateSql({ params: ['pod-1', 2000, DummyValue.DATE, 100, 500] })
  async purge(holder: string, leaseMs: number, cutoff: Date, bound: number, batch: number): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run(this.lease.RENEW, { ...RELAY, holder, leaseMs })) !== 1) return null;
      const oldest = (await tx.rows(OLDEST_NUMBERED, { bound, limit: batch })).map((row) => EXPIRING_ROWS.from(row));
      const end = oldest.findIndex((event) => event.createdAt >= cutoff);
      const going = end === -1 ? oldest : oldest.slice(0, end);
      if (going.length === 0) return 0;
      const { count, params } = paddedSeqs(going.map((event) => event.seq));
      await tx.run(DELETE(count), params);
      await tx.run(PURGED_THROUGH, { ...RELAY, through: going[going.length - 1].position });
      return going.length;
    });
  }

  /** When the oldest event not yet acknowledged by JetStream was written (numbered or not); null when there is none. */
  @GenerateSql({ params: [100] })
  async oldestUnpublishedAt(publishedThrough: number): Promise<Date | null> {
    const [[unnumbered], [numbered]] = await Promise.all([
      this.db.rows(OLDEST_UNNUMBERED_AT, {}, 'primary'),
      this.db.rows(OLDEST_UNPUBLISHED_AT, { after: publishedThrough }, 'primary'),
    ]);
    const times = [unnumbered, numbered].filter((row) => row !== undefined).map((row) => CREATED_ROWS.from(row).createdAt.getTime());
    return times.length === 0 ? null : new Date(Math.min(...times));
  }
}

export function eventSizeOf(row: Record<string, unknown>): EventSize {
  return { position: Number(row.position), bytes: Number(row.bytes) };
}

export function recordedEventOf(row: Record<string, unknown>): RecordedEvent {
  const { position, ...event } = EVENT_ROWS.from(row);
  if (event.kind === EventKind.VARIABLES) {
    const stored = Object.fromEntries(VARIABLES_ROWS.layout.map(({ column }) => [column, row[`s_${column}`]]));
    return { position: Number(position), event, variables: VARIABLES_ROWS.from(stored) };
  }
  const recorded = RECORDED_ROWS.from(row);
  return { position: Number(position), event, recorded: { ...recorded, snapshot: recordedSnapshot(recorded.snapshot) } };
}

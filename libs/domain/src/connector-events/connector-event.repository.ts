import { Injectable } from '@nestjs/common';
import { Database, Statements, Transaction } from '../database/database';
import { newUuid } from '../database/uuid-v7';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { BotPath } from '../scope/scope-params.dto';
import { REST_CONNECTOR_VERSION_ROWS } from '../rest-connectors/rest-connector-version.rows';
import type { VersionRow } from '../rest-connectors/connector-history.repository';
import { ConnectorEvent } from './connector-event.entity';
import { ConnectorEventRelayState } from './connector-event-relay.entity';
import { CONNECTOR_EVENT_RELAY_ROWS, CONNECTOR_EVENT_ROWS } from './connector-event.rows';

/** An event with its version's content: what the feed answers and the relay publishes (as a CloudEvent). */
export interface RecordedEvent {
  position: number;
  event: Pick<ConnectorEvent, 'eventUuid' | 'organizationUuid' | 'environmentUuid' | 'botUuid' | 'connectorUuid' | 'version'>;
  recorded: Pick<VersionRow, 'operation' | 'updatedAt' | 'updatedBy' | 'changedFields' | 'snapshot'>;
}

/** Where a feed reads: an environment of an organization, optionally one bot of it. */
export interface FeedScope {
  orgUUID: string;
  envUUID: string;
  botUUID?: string;
}

/** The relay's counters (connector_event_relay). */
export type RelayProgress = Pick<ConnectorEventRelayState, 'sequencedThrough' | 'publishedThrough' | 'purgedThrough'>;

const APPEND_ROWS = CONNECTOR_EVENT_ROWS.pick('eventUuid', 'organizationUuid', 'environmentUuid', 'botUuid', 'connectorUuid', 'version', 'createdAt');
const EVENT_ROWS = CONNECTOR_EVENT_ROWS.pick('position', 'eventUuid', 'organizationUuid', 'environmentUuid', 'botUuid', 'connectorUuid', 'version');
const RECORDED_ROWS = REST_CONNECTOR_VERSION_ROWS.pick('operation', 'updatedAt', 'updatedBy', 'changedFields', 'snapshot');
const PROGRESS_ROWS = CONNECTOR_EVENT_RELAY_ROWS.pick('sequencedThrough', 'publishedThrough', 'purgedThrough');
const LEASE_ROWS = CONNECTOR_EVENT_RELAY_ROWS.pick('holder', 'leaseUntil');
/** The relay's row. */
const RELAY = 1;

/** Events with their versions' content (the version row is never changed once written), in position order. */
const RECORDED_EVENTS =
  `SELECT ${EVENT_ROWS.select('ev')}, ${RECORDED_ROWS.select('v')} FROM connector_events ev ` +
  'JOIN rest_connector_versions v ON v.connector_uuid = ev.connector_uuid AND v.version = ev.version';

/**
 * Writes the change event of a connector's version in the write's transaction (the outbox). Only the history's
 * record methods call it: a version is never recorded without its event.
 */
export function appendConnectorEvent(tx: Transaction, path: BotPath, connectorUuid: string, version: number, at: Date): Promise<void> {
  return tx.insert(APPEND_ROWS, [
    {
      eventUuid: newUuid(at.getTime()),
      organizationUuid: path.orgUUID,
      environmentUuid: path.envUUID,
      botUuid: path.botUUID,
      connectorUuid,
      version,
      createdAt: at,
    },
  ]);
}

/**
 * The outbox of connector change events: the feed's reads, and what the relay (one holder of the lease at a time)
 * does to it: number new events, mark what JetStream acknowledged, purge what retention lets go. Every statement
 * of the relay's that changes something is fenced by the lease: a relay that lost it changes nothing.
 */
@Injectable()
export class ConnectorEventRepository {
  private readonly feedSql = `${RECORDED_EVENTS} WHERE ev.environment_uuid = ? AND ev.position > ? ORDER BY ev.position LIMIT ?`;
  private readonly botFeedSql = `${RECORDED_EVENTS} WHERE ev.environment_uuid = ? AND ev.bot_uuid = ? AND ev.position > ? ORDER BY ev.position LIMIT ?`;
  /** The events numbered after `position`, in order: what the relay publishes next. */
  private readonly numberedSql = `${RECORDED_EVENTS} WHERE ev.position > ? AND ev.position <= ? ORDER BY ev.position LIMIT ?`;
  /** The scope of a feed: the environment in the organization and, when named, the bot in the environment. */
  private readonly environmentInScopeSql = 'SELECT 1 AS found FROM environments e WHERE e.uuid = ? AND e.organization_uuid = ?';
  private readonly botInScopeSql =
    'SELECT 1 AS found FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE b.uuid = ? AND e.uuid = ? AND e.organization_uuid = ?';
  private readonly renewSql = 'UPDATE connector_event_relay SET lease_until = ? WHERE id = ? AND holder = ?';
  private readonly leaseSql = `SELECT ${LEASE_ROWS.select('r')} FROM connector_event_relay r WHERE r.id = ?`;
  private readonly progressSql = `SELECT ${PROGRESS_ROWS.select('r')} FROM connector_event_relay r WHERE r.id = ?`;

  constructor(private readonly db: Database) {}

  /**
   * The scope's events numbered after `after`, oldest first, at most `limit`. Nothing at the path when the
   * environment (or the bot) is not in the path's scope; read on the primary, where numbers are given.
   */
  async feed(scope: FeedScope, after: number, limit: number): Promise<Lookup<RecordedEvent[]>> {
    const rows =
      scope.botUUID === undefined
        ? await this.db.rows(this.feedSql, [scope.envUUID, after, limit], 'primary')
        : await this.db.rows(this.botFeedSql, [scope.envUUID, scope.botUUID, after, limit], 'primary');
    if (rows.length > 0) return found(rows.map(recordedEventOf));
    const [inScope] =
      scope.botUUID === undefined
        ? await this.db.rows(this.environmentInScopeSql, [scope.envUUID, scope.orgUUID], 'primary')
        : await this.db.rows(this.botInScopeSql, [scope.botUUID, scope.envUUID, scope.orgUUID], 'primary');
    return inScope ? found([]) : NOTHING_AT_PATH;
  }

  /** How far the outbox is numbered, published and purged. */
  async progress(): Promise<RelayProgress> {
    const [row] = await this.db.rows(this.progressSql, [RELAY], 'primary');
    return PROGRESS_ROWS.from(row);
  }

  /** Takes the lease when it is free or expired at `now`, or renews it for its holder: whether `holder` holds it until `until`. */
  async acquire(holder: string, now: Date, until: Date): Promise<boolean> {
    // Read first: a follower asks every few seconds, and a write that changes nothing still costs the primary.
    const [lease] = (await this.db.rows(this.leaseSql, [RELAY], 'primary')).map((row) => LEASE_ROWS.from(row));
    if (lease.holder !== null && lease.holder !== holder && lease.leaseUntil !== null && lease.leaseUntil >= now) return false;
    const taken = await this.db.run(
      'UPDATE connector_event_relay SET holder = ?, lease_until = ? WHERE id = ? AND (holder = ? OR holder IS NULL OR lease_until < ?)',
      [holder, until, RELAY, holder, now],
    );
    return taken === 1;
  }

  /** Gives the lease up (at shutdown), so another relay takes over at once rather than when it expires. */
  async release(holder: string): Promise<void> {
    await this.db.run('UPDATE connector_event_relay SET holder = NULL, lease_until = NULL WHERE id = ? AND holder = ?', [RELAY, holder]);
  }

  /**
   * Numbers up to `batch` events not numbered yet, in the order of their inserts, each above every position given
   * before: `position = seq + offset`, the offset chosen so the first is above the last number given. An event
   * that commits after this read (its seq lower than some numbered here) gets a number above these the next
   * time: a reader past a position never misses one. Per connector the order is the versions' order: a version's
   * write waits for the previous one's commit, so its insert (its seq) comes after. Answers how many were
   * numbered and the relay's progress after it, or null when `holder` no longer holds the lease (nothing changed).
   */
  async sequence(holder: string, until: Date, batch: number): Promise<{ numbered: number; progress: RelayProgress } | null> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run(this.renewSql, [until, RELAY, holder])) !== 1) return null;
      const [progress] = (await tx.rows(this.progressSql, [RELAY])).map((row) => PROGRESS_ROWS.from(row));
      const seqs = (await tx.rows<{ seq: number | string }>('SELECT seq FROM connector_events WHERE position IS NULL ORDER BY seq LIMIT ?', [batch])).map(
        (row) => Number(row.seq),
      );
      if (seqs.length === 0) return { numbered: 0, progress };
      const offset = Math.max(0, progress.sequencedThrough + 1 - seqs[0]);
      // By primary key: a range over the unnumbered rows would lock the gap concurrent writers insert into.
      const numbered = await tx.run(`UPDATE connector_events SET position = seq + ? WHERE seq IN (${seqs.map(() => '?').join(', ')}) AND position IS NULL`, [
        offset,
        ...seqs,
      ]);
      const sequencedThrough = seqs[seqs.length - 1] + offset;
      await tx.run('UPDATE connector_event_relay SET sequenced_through = ? WHERE id = ?', [sequencedThrough, RELAY]);
      return { numbered, progress: { ...progress, sequencedThrough } };
    });
  }

  /** Whether an event waits to be numbered: the relay's idle check, one index lookup, no write. */
  async hasUnnumbered(): Promise<boolean> {
    return (await this.db.rows('SELECT 1 AS waiting FROM connector_events WHERE position IS NULL LIMIT 1', [], 'primary')).length > 0;
  }

  /** The events numbered after `after` up to `through`, oldest first, at most `limit`: the relay's next to publish. */
  async numberedAfter(after: number, through: number, limit: number, on: Statements = this.db): Promise<RecordedEvent[]> {
    return (await on.rows(this.numberedSql, [after, through, limit], 'primary')).map(recordedEventOf);
  }

  /** Records that JetStream acknowledged every event up to `through`; false (nothing changed) when `holder` lost the lease. */
  async markPublished(holder: string, until: Date, through: number): Promise<boolean> {
    const marked = await this.db.run(
      'UPDATE connector_event_relay SET published_through = ?, lease_until = ? WHERE id = ? AND holder = ? AND published_through < ?',
      [through, until, RELAY, holder, through],
    );
    return marked === 1;
  }

  /**
   * Deletes up to `batch` of the oldest numbered events written before `cutoff` and at or below `bound` (what
   * may go: published, or numbered when nothing publishes), and raises purged_through over them. Answers how many
   * went, or null when `holder` lost the lease.
   */
  async purge(holder: string, until: Date, cutoff: Date, bound: number, batch: number): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run(this.renewSql, [until, RELAY, holder])) !== 1) return null;
      const oldest = await tx.rows(
        `SELECT ${CONNECTOR_EVENT_ROWS.pick('seq', 'position', 'createdAt').select('ev')} FROM connector_events ev WHERE ev.position IS NOT NULL AND ev.position <= ? ORDER BY ev.position LIMIT ?`,
        [bound, batch],
      );
      const expired = oldest.map((row) => CONNECTOR_EVENT_ROWS.pick('seq', 'position', 'createdAt').from(row));
      const end = expired.findIndex((event) => event.createdAt >= cutoff);
      const going = end === -1 ? expired : expired.slice(0, end);
      if (going.length === 0) return 0;
      await tx.run(
        `DELETE FROM connector_events WHERE seq IN (${going.map(() => '?').join(', ')})`,
        going.map((event) => event.seq),
      );
      await tx.run('UPDATE connector_event_relay SET purged_through = ? WHERE id = ? AND purged_through < ?', [
        going[going.length - 1].position,
        RELAY,
        going[going.length - 1].position,
      ]);
      return going.length;
    });
  }

  /** When the oldest event not yet acknowledged by JetStream was written (numbered or not); null when there is none. */
  async oldestUnpublishedAt(publishedThrough: number): Promise<Date | null> {
    const [[unnumbered], [numbered]] = await Promise.all([
      this.db.rows('SELECT created_at FROM connector_events WHERE position IS NULL ORDER BY seq LIMIT 1', [], 'primary'),
      this.db.rows('SELECT created_at FROM connector_events WHERE position > ? ORDER BY position LIMIT 1', [publishedThrough], 'primary'),
    ]);
    const times = [unnumbered, numbered].filter((row) => row !== undefined).map((row) => CONNECTOR_EVENT_ROWS.pick('createdAt').from(row).createdAt);
    return times.length === 0 ? null : new Date(Math.min(...times.map((time) => time.getTime())));
  }
}

function recordedEventOf(row: Record<string, unknown>): RecordedEvent {
  const { position, ...event } = EVENT_ROWS.from(row);
  return { position: Number(position), event, recorded: RECORDED_ROWS.from(row) };
}

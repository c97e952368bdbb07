import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, ErrorsLater, ReadFrom, Transaction } from '../database/database';
import { statement } from '../database/statement';
import { BOT_IN_SCOPE } from '../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { VersionStep } from './connector-version';
import { BotPath, RestConnectorPath } from '../scope/scope-params.dto';
import { connectorSnapshot, fieldsSetBy, recordedSnapshot } from './connector-snapshot';
import type { TagRef } from './rest-connector.entity';
import { REST_CONNECTOR_VERSION_ROWS, RestConnectorVersion } from './rest-connector-version.entity';
import { REST_CONNECTOR_ROWS, RestConnector } from './rest-connector.entity';
import { VersionOperation } from './rest-connector.enums';
import { SECRET_FIELDS } from './connector-fields';

export type VersionRow = Omit<RestConnectorVersion, 'connector'>;
export type VersionSummary = Omit<VersionRow, 'snapshot'>;
export type TrashRow = Pick<RestConnector, 'uuid' | 'name' | 'deletedAt' | 'deletedBy' | 'version'>;
/** Who made a write and when, through which request and why, and the promotion it was part of: what a version records beside the record. */
export type VersionAuthor = Pick<RestConnectorVersion, 'updatedAt' | 'updatedBy' | 'updatedByImage' | 'updatedBySub' | 'requestId' | 'reason' | 'promotionId'>;

export interface Paged<T> {
  rows: T[];
  total: number;
}

/** The writer a connector's row names, without a token or request: what a version made outside a request (the demo data) records. */
const writerOf = (connector: RestConnector): VersionAuthor => ({
  updatedAt: connector.updatedAt,
  updatedBy: connector.updatedBy,
  updatedByImage: connector.updatedByImage,
  updatedBySub: null,
  requestId: null,
  reason: null,
  promotionId: null,
});

/** The first version of a connector just created: who created it, when and why, every field it set, the record it left. */
export function creationOf(connector: RestConnector, tags: readonly TagRef[], author: VersionAuthor = writerOf(connector)): VersionRow {
  const snapshot = connectorSnapshot(connector, tags);
  return {
    connectorUuid: connector.uuid,
    version: connector.version,
    operation: VersionOperation.CREATED,
    ...author,
    revertedTo: null,
    changedFields: fieldsSetBy(snapshot),
    snapshot,
  };
}

const SUMMARY_ROWS = REST_CONNECTOR_VERSION_ROWS.omit('snapshot');
/** A delete or a restore reverts to nothing. */
const UNCHANGED_ROWS = REST_CONNECTOR_VERSION_ROWS.omit('revertedTo');
const TRASH_ROWS = REST_CONNECTOR_ROWS.pick('uuid', 'name', 'deletedAt', 'deletedBy', 'version');
/** The connector of the path, in any state, its bot in the path's environment and organization. */
const CONNECTOR_IN_SCOPE = `JOIN rest_connectors c ON c.uuid = v.connector_uuid JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid WHERE v.connector_uuid = :serviceUUID AND c.bot_uuid = :botUUID AND ${BOT_IN_SCOPE}`;

/**
 * A delete or a restore leaves the record as it was: its version (the step's `to`) copies the snapshot of the
 * version it was applied to (`from`), in one statement.
 */
const RECORD_UNCHANGED = statement(
  `INSERT INTO rest_connector_versions (${UNCHANGED_ROWS.names}) `,
  "SELECT v.connector_uuid, :to, :operation, :updatedAt, :updatedBy, :updatedByImage, :updatedBySub, :requestId, :reason, '[]', v.snapshot, :promotionId ",
  'FROM rest_connector_versions v WHERE v.connector_uuid = :connectorUuid AND v.version = :from',
);
const PAGE = statement(
  `SELECT ${SUMMARY_ROWS.select('v')} FROM rest_connector_versions v ${CONNECTOR_IN_SCOPE} ORDER BY v.version DESC LIMIT :limit OFFSET :offset`,
);
const COUNT = statement(`SELECT COUNT(*) AS total FROM rest_connector_versions v ${CONNECTOR_IN_SCOPE}`).returning<{ total: number | string }>();
const ONE = statement(`SELECT ${REST_CONNECTOR_VERSION_ROWS.select('v')} FROM rest_connector_versions v ${CONNECTOR_IN_SCOPE} AND v.version = :version`);
const ANY_VERSION = statement(`SELECT 1 AS found FROM rest_connector_versions v ${CONNECTOR_IN_SCOPE} LIMIT 1`);
/** The secrets, and `headers` (a secret header's value), whose changes a diff cannot see in the snapshots. */
const HIDDEN_CHANGES = [...SECRET_FIELDS, 'headers'] as const;
export type HiddenChange = (typeof HIDDEN_CHANGES)[number];
/**
 * Which secrets (and the headers) a write after version :low up to :high changed (its changed_fields names them): one
 * row, a 0 or 1 per field, read in the primary key's range. The names are quoted as the JSON array stores them.
 */
const SECRETS_CHANGED = statement(
  `SELECT ${HIDDEN_CHANGES.map((field) => `MAX(CASE WHEN v.changed_fields LIKE '%"${field}"%' THEN 1 ELSE 0 END) AS ${field}`).join(', ')} `,
  'FROM rest_connector_versions v WHERE v.connector_uuid = :serviceUUID AND v.version > :low AND v.version <= :high',
).returning<Record<HiddenChange, number | string | null>>();
const TRASH_OF_BOT = `FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid WHERE c.bot_uuid = :botUUID AND c.deleted_at IS NOT NULL AND ${BOT_IN_SCOPE}`;
const TRASH = statement(`SELECT ${TRASH_ROWS.select('c')} ${TRASH_OF_BOT} ORDER BY c.deleted_at DESC, c.uuid DESC LIMIT :limit OFFSET :offset`);
const TRASH_COUNT = statement(`SELECT COUNT(*) AS total ${TRASH_OF_BOT}`).returning<{ total: number | string }>();

/**
 * The recorded versions of connectors (rest_connector_versions) and the bot's trash. A version is written
 * in the transaction of the write it records, beside its change event (ConnectorEventOutbox). Every read is index-ordered: versions by the primary key
 * (connector, version), the trash by idx_rest_connectors_bot_deleted_at (docs/query-plans.md).
 */
@Injectable()
export class ConnectorHistoryRepository {
  constructor(private readonly db: Database) {}

  /** Records a create or an update of a connector, with the record it left; its change event is the unit of work's to append (ConnectorEventOutbox). */
  @GenerateSql({ params: [DummyValue.TX, {}] })
  record(tx: Transaction, version: VersionRow): ErrorsLater {
    return tx.defer.insert(REST_CONNECTOR_VERSION_ROWS, [version]);
  }

  /** Records a delete or a restore of the connector, just written in `tx`, with the snapshot of its version before; its change event is the unit of work's to append. */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.UUID, DummyValue.VERSION_STEP, 'DELETED', DummyValue.AUTHOR] })
  async recordUnchanged(
    tx: Transaction,
    connectorUuid: string,
    step: VersionStep,
    operation: VersionOperation.DELETED | VersionOperation.RESTORED,
    author: VersionAuthor,
  ): Promise<void> {
    const recorded = await tx.run(RECORD_UNCHANGED, { ...step, operation, ...author, connectorUuid });
    // Every write records a version, and the migration recorded every connector before: a missing one is a bug.
    if (recorded !== 1) throw new Error(`Rest connector ${connectorUuid} has no recorded version before its current one`);
  }

  /** A page of the connector's versions, newest first, without snapshots. */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH, 0, 20] })
  async page(path: RestConnectorPath, offset: number, limit: number, from: ReadFrom = 'replica'): Promise<Lookup<Paged<VersionSummary>>> {
    const [rows, [{ total }]] = await Promise.all([this.db.rows(PAGE, { ...path, limit, offset }, from), this.db.rows(COUNT, path, from)]);
    // A connector always has a version: none means no such connector in the path's scope.
    if (Number(total) === 0) return NOTHING_AT_PATH;
    return found({ rows: rows.map((row) => SUMMARY_ROWS.from(row)), total: Number(total) });
  }

  /** One version with its snapshot; found null when the connector is there without such a version. */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH, 2] })
  async one(path: RestConnectorPath, version: number, from: ReadFrom = 'replica'): Promise<Lookup<VersionRow | null>> {
    const [row] = await this.db.rows(ONE, { ...path, version }, from);
    if (row) {
      const version = REST_CONNECTOR_VERSION_ROWS.from(row);
      return found({ ...version, snapshot: recordedSnapshot(version.snapshot) });
    }
    // Only for a 404: is it the version that is missing, or the connector?
    const [connector] = await this.db.rows(ANY_VERSION, path, from);
    return connector ? found(null) : NOTHING_AT_PATH;
  }

  /**
   * The secrets the writes after version `low` up to `high` of the connector changed (set, cleared or replaced), and
   * `headers` when one changed them: what a diff of those versions says of secrets, which snapshots show only as
   * placeholders (a secret header's value too). The caller has read both versions in scope.
   */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH, 2, 5] })
  async secretsChangedBetween(path: RestConnectorPath, low: number, high: number, from: ReadFrom = 'replica'): Promise<HiddenChange[]> {
    const [row] = await this.db.rows(SECRETS_CHANGED, { serviceUUID: path.serviceUUID, low, high }, from);
    return HIDDEN_CHANGES.filter((field) => Number(row?.[field] ?? 0) === 1);
  }

  /** A page of the bot's deleted connectors, newest deletion first, uuid breaking ties; nothing at the path when there is none. */
  @GenerateSql({ params: [DummyValue.BOT_PATH, 0, 20] })
  async trash(path: BotPath, offset: number, limit: number, read: ReadFrom = 'replica'): Promise<Lookup<Paged<TrashRow>>> {
    const [rows, [{ total }]] = await Promise.all([this.db.rows(TRASH, { ...path, limit, offset }, read), this.db.rows(TRASH_COUNT, path, read)]);
    if (Number(total) === 0) return NOTHING_AT_PATH;
    return found({ rows: rows.map((row) => TRASH_ROWS.from(row)), total: Number(total) });
  }
}

import { Injectable } from '@nestjs/common';
import { paddedList } from '../connector-events/connector-event.repository';
import { Database, ErrorsLater, ReadFrom, Transaction } from '../database/database';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { statement, statementsBy } from '../database/statement';
import type { Paged } from '../rest-connectors/connector-history.repository';
import { recordedSnapshot } from '../rest-connectors/connector-snapshot';
import type { RestConnectorSnapshotDto } from '../rest-connectors/dto/rest-connector-history.dto';
import type { ConnectorForWrite } from '../rest-connectors/rest-connector.repository';
import { REST_CONNECTOR_ROWS } from '../rest-connectors/rest-connector.entity';
import { BOT_IN_SCOPE } from '../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { BotPath } from '../scope/scope-params.dto';
import { CONNECTOR_PROMOTION_ROWS, ConnectorPromotion } from './connector-promotion.entity';

/** An active connector of a promotion's source as the promotion reads it: its record, never its sealed columns. */
export interface SourceRecord {
  uuid: string;
  version: number;
  snapshot: RestConnectorSnapshotDto;
}

/** A promotion as its list shows it: everything but the items. */
export type PromotionSummary = Omit<ConnectorPromotion, 'items'>;

/** A version of a connector, named. */
export interface VersionKey {
  connectorUuid: string;
  version: number;
}

const SUMMARY_ROWS = CONNECTOR_PROMOTION_ROWS.omit('items');
const SOURCE_ROWS = REST_CONNECTOR_ROWS.pick('uuid', 'version');

/** The bot of the path, in its environment and organization, joined as `b` and `e` to the connectors `c`. */
const OF_BOT_IN_SCOPE = 'JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid ';
/** The record each connector's current version left. */
const CURRENT_SNAPSHOT = 'JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version ';

/** The source's active connectors and their records: the uuid, the version and the snapshot only (no secret column is selected). */
const SOURCE_RECORDS = statement(
  `SELECT ${SOURCE_ROWS.select('c')}, v.snapshot AS snapshot FROM rest_connectors c `,
  OF_BOT_IN_SCOPE,
  CURRENT_SNAPSHOT,
  `WHERE c.bot_uuid = :botUUID AND c.deleted_at IS NULL AND ${BOT_IN_SCOPE}`,
);
/** The target's active connectors as a write starts from them (RestConnectorRepository.findForWrite, for the whole bot). */
const TARGETS_FOR_WRITE = statement(
  `SELECT ${REST_CONNECTOR_ROWS.select('c')}, v.snapshot AS snapshot FROM rest_connectors c `,
  OF_BOT_IN_SCOPE,
  'LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version ',
  `WHERE c.bot_uuid = :botUUID AND c.deleted_at IS NULL AND ${BOT_IN_SCOPE}`,
);
/** Connectors of a bot by uuid, active or deleted, with their current records (`count` uuids, `:uuid0`…). */
const FOR_WRITE_BY_UUIDS = statementsBy((count: number) =>
  statement(
    `SELECT ${REST_CONNECTOR_ROWS.select('c')}, v.snapshot AS snapshot FROM rest_connectors c `,
    'LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version ',
    `WHERE c.bot_uuid = :botUuid AND c.uuid IN (${Array.from({ length: count }, (_, i) => `:uuid${i}`).join(', ')})`,
  ),
);
/** The records of `count` versions, each by the primary key (connector, version). */
const SNAPSHOTS_AT = statementsBy((count: number) =>
  statement(
    `SELECT v.connector_uuid AS connector_uuid, v.version AS version, v.snapshot AS snapshot FROM rest_connector_versions v WHERE ${Array.from(
      { length: count },
      (_, i) => `(v.connector_uuid = :uuid${i} AND v.version = :version${i})`,
    ).join(' OR ')}`,
  ),
);
/** A bot's promotions in its scope. */
const PROMOTIONS_OF_BOT = `FROM connector_promotions p JOIN bots b ON b.uuid = p.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid WHERE p.bot_uuid = :botUUID AND ${BOT_IN_SCOPE}`;
const PAGE = statement(`SELECT ${SUMMARY_ROWS.select('p')} ${PROMOTIONS_OF_BOT} ORDER BY p.uuid DESC LIMIT :limit OFFSET :offset`);
const COUNT = statement(`SELECT COUNT(*) AS total ${PROMOTIONS_OF_BOT}`).returning<{ total: number | string }>();
const ONE = statement(`SELECT ${CONNECTOR_PROMOTION_ROWS.select('p')} ${PROMOTIONS_OF_BOT} AND p.uuid = :promotionId`);
const BOT_THERE = statement(`SELECT 1 AS found FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}`);
/** Only once: a promotion reverted meanwhile is not reverted again. */
const MARK_REVERTED = statement(
  'UPDATE connector_promotions SET reverted_at = :revertedAt, reverted_by = :revertedBy WHERE uuid = :uuid AND reverted_at IS NULL',
);

/** Where the uuids of one read stop: statements of a few sizes (paddedList), none too long for either engine. */
const CHUNK = 512;
const chunks = <T>(values: readonly T[]): T[][] => Array.from({ length: Math.ceil(values.length / CHUNK) }, (_, i) => values.slice(i * CHUNK, (i + 1) * CHUNK));

const forWriteOf = (row: Record<string, unknown>): ConnectorForWrite => ({
  connector: REST_CONNECTOR_ROWS.from(row),
  snapshot: typeof row.snapshot === 'string' ? recordedSnapshot(JSON.parse(row.snapshot)) : null,
});

/**
 * What a promotion of a bot's connectors reads and writes beside the connectors' own writes: the source's records
 * (never its sealed columns), the target's connectors as writes start from them, whole bots in one statement each;
 * the promotions themselves (connector_promotions), listed per bot newest first (uuid v7 order).
 */
@Injectable()
export class ConnectorPromotionRepository {
  constructor(private readonly db: Database) {}

  /** The active connectors of the bot with the records of their current versions; nothing at the path when there is none. */
  @GenerateSql({ params: [DummyValue.BOT_PATH] })
  async sourceRecords(path: BotPath, from: ReadFrom = 'primary'): Promise<Lookup<SourceRecord[]>> {
    const rows = await this.db.rows(SOURCE_RECORDS, path, from);
    if (rows.length === 0) return NOTHING_AT_PATH;
    return found(rows.map((row) => ({ ...SOURCE_ROWS.from(row), snapshot: recordedSnapshot(JSON.parse(String(row.snapshot))) })));
  }

  /** The active connectors of the bot, each with the record its version left, on the primary (writes follow); nothing at the path when there is none. */
  @GenerateSql({ params: [DummyValue.BOT_PATH] })
  async targetsForWrite(path: BotPath): Promise<Lookup<ConnectorForWrite[]>> {
    const rows = await this.db.rows(TARGETS_FOR_WRITE, path, 'primary');
    return rows.length === 0 ? NOTHING_AT_PATH : found(rows.map(forWriteOf));
  }

  /** The bot's connectors of `uuids`, active or deleted, with their current records, on the primary (a revert follows). */
  @GenerateSql({ params: [DummyValue.UUID, [DummyValue.UUID]] })
  async forWriteByUuids(botUuid: string, uuids: readonly string[]): Promise<ConnectorForWrite[]> {
    const read: ConnectorForWrite[] = [];
    for (const part of chunks(uuids)) {
      const { count, params } = paddedList('uuid', part);
      read.push(...(await this.db.rows(FOR_WRITE_BY_UUIDS(count), { botUuid, ...params }, 'primary')).map(forWriteOf));
    }
    return read;
  }

  /** The records of these versions, by `connectorUuid/version`, on the primary. The caller has read the connectors in scope. */
  @GenerateSql({ params: [[{ connectorUuid: DummyValue.UUID, version: 2 }]] })
  async snapshotsAt(versions: readonly VersionKey[]): Promise<Map<string, RestConnectorSnapshotDto>> {
    const snapshots = new Map<string, RestConnectorSnapshotDto>();
    for (const part of chunks(versions)) {
      const { count, params } = paddedList(
        'uuid',
        part.map(({ connectorUuid }) => connectorUuid),
      );
      const versionParams = paddedList(
        'version',
        part.map(({ version }) => version),
      ).params;
      for (const row of await this.db.rows(SNAPSHOTS_AT(count), { ...params, ...versionParams }, 'primary')) {
        snapshots.set(`${String(row.connector_uuid)}/${Number(row.version)}`, recordedSnapshot(JSON.parse(String(row.snapshot))));
      }
    }
    return snapshots;
  }

  /** Records an applied promotion in the unit of work that made its writes. */
  @GenerateSql({ params: [DummyValue.TX, {}] })
  insert(tx: Transaction, promotion: ConnectorPromotion): ErrorsLater {
    return tx.defer.insert(CONNECTOR_PROMOTION_ROWS, [promotion]);
  }

  /** Marks the promotion reverted, in the revert's unit of work; false when it already was. */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.UUID, DummyValue.DATE, 'ada'] })
  async markReverted(tx: Transaction, uuid: string, revertedAt: Date, revertedBy: string): Promise<boolean> {
    return (await tx.run(MARK_REVERTED, { uuid, revertedAt, revertedBy })) === 1;
  }

  /** A page of the bot's promotions, newest first, without their items; nothing at the path when there is none. */
  @GenerateSql({ params: [DummyValue.BOT_PATH, 0, 20] })
  async page(path: BotPath, offset: number, limit: number, from: ReadFrom = 'replica'): Promise<Lookup<Paged<PromotionSummary>>> {
    const [rows, [{ total }]] = await Promise.all([this.db.rows(PAGE, { ...path, limit, offset }, from), this.db.rows(COUNT, path, from)]);
    if (Number(total) === 0) return NOTHING_AT_PATH;
    return found({ rows: rows.map((row) => SUMMARY_ROWS.from(row)), total: Number(total) });
  }

  /** One promotion of the bot with its items; found null when the bot is there without it. */
  @GenerateSql({ params: [DummyValue.BOT_PATH, DummyValue.UUID] })
  async one(path: BotPath, promotionId: string, from: ReadFrom = 'replica'): Promise<Lookup<ConnectorPromotion | null>> {
    const [row] = await this.db.rows(ONE, { ...path, promotionId }, from);
    if (row) return found(CONNECTOR_PROMOTION_ROWS.from(row));
    const [bot] = await this.db.rows(BOT_THERE, path, from);
    return bot ? found(null) : NOTHING_AT_PATH;
  }
}

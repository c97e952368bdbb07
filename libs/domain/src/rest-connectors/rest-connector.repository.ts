import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, ErrorsLater, ReadFrom, Transaction } from '../database/database';
import { isNullRefused } from '../database/database-errors';
import { listed, placeholderList, statement, statementsBy, writeStatement } from '../database/statement';
import { BOT_IN_SCOPE } from '../scope/bot-scope.sql';
import { Found, found, Lookup, NOTHING_AT_PATH, NothingAtPath } from '../scope/lookup';
import { VersionStep } from './connector-version';
import { BotPath, RestConnectorPath } from '../scope/scope-params.dto';
import { flowsReadCopies, tagReadCopy } from './connector-read-copy';
import { REST_CONNECTOR_TAG_ROWS, RestConnectorTag } from './rest-connector-tag.entity';
import { FlowRef, REST_CONNECTOR_ROWS, RestConnector, TagRef } from './rest-connector.entity';
import type { RestConnectorSnapshotDto } from './dto/rest-connector-history.dto';
import { recordedSnapshot, type SnapshotSource } from './connector-snapshot';
import { SHOWN_COLUMNS, WRITTEN_COLUMNS, type WrittenColumn } from './connector-fields';

/** What a unit of work that inserted connectors at a path ended with (insertedAtPath). */
export type InsertedAtPath<T> = Found<T> | NoBotAtPath;
/** An INSERT read no bot at the path: nothing was written; `refusal` is the driver's error. */
export interface NoBotAtPath extends NothingAtPath {
  readonly refusal: unknown;
}

/**
 * How a unit of work that called RestConnectorRepository.insert ended: found(its answer); or, when an INSERT read no
 * bot in the path's scope (the NOT NULL column refused the NULL: isNullRefused), nothing at the path, with that
 * refusal. ScopeService.require then names the missing link; when every link is there the NULL was not the bot's
 * and the refusal stands.
 */
export async function insertedAtPath<T>(unitOfWork: Promise<T>): Promise<InsertedAtPath<T>> {
  try {
    return found(await unitOfWork);
  } catch (error) {
    if (isNullRefused(error)) return { found: false, refusal: error };
    throw error;
  }
}

export type TagRow = Pick<RestConnectorTag, 'name' | 'nameKey' | 'position'>;
/** An active connector by its name: what an import's name conflict names. */
export interface NamedConnector {
  uuid: string;
  name: string;
  /** The lower-cased name. */
  nameKey: string;
}

/** Connectors one statement of lockForFlows and refreshFlows names. */
const REFRESH_BATCH = 500;

/** The columns a full write sets. */
export type ConnectorWrite = Pick<RestConnector, WrittenColumn>;
/** What a soft delete records (the rules: connector-lifecycle.ts of the transactional service). */
/** Whether the connector is in the trash, who put it there, and whether it holds its name (the unique index on active names). */
export type ConnectorTrashState = Pick<RestConnector, 'deletedAt' | 'deletedBy' | 'activeNameKey'>;

/** The columns every full write sets (CONNECTOR_FIELDS' `written`). */
const WRITE_ROWS = REST_CONNECTOR_ROWS.pick(...WRITTEN_COLUMNS);
const TRASH_STATE_ROWS = REST_CONNECTOR_ROWS.pick('deletedAt', 'deletedBy', 'activeNameKey');
/**
 * The columns a get shows (CONNECTOR_FIELDS' `shown`), the version its ETag names and the read copy of its tags and
 * flows: the read selects no more (each further column costs MariaDB, mysql2's column definitions and the conversion,
 * on every get).
 */
const VIEW_ROWS = REST_CONNECTOR_ROWS.pick(...SHOWN_COLUMNS, 'version', 'tagsJson', 'flowsJson');
/** The read copy of the tags, which every write of them sets (connector-read-copy.ts). */
const TAG_COPY_ROWS = REST_CONNECTOR_ROWS.pick('tagsJson', 'tagKeys');
/** A full write that also writes the tags: the columns, and the copy of the tags. */
const WRITE_WITH_TAGS_ROWS = REST_CONNECTOR_ROWS.pick(...WRITTEN_COLUMNS, 'tagsJson', 'tagKeys');
const FLOW_COPY_ROWS = REST_CONNECTOR_ROWS.pick('flowsJson');
/** An active connector as a get reads it: the columns it shows and its version. */
export type ConnectorView = SnapshotSource & Pick<RestConnector, 'version'>;

/** The active connector a write starts from, with the record its current version left (null if none was recorded). */
export interface ConnectorForWrite {
  connector: RestConnector;
  snapshot: RestConnectorSnapshotDto | null;
}

/** An active connector as a read shows it: with its tags in the writer's order and the flows of its bot that use it, by name. */
export interface ConnectorWithRelations {
  connector: ConnectorView;
  tags: TagRef[];
  flows: FlowRef[];
}

/** The connector of the path, active, its bot in the path's environment and organization. */
const ACTIVE_IN_SCOPE = `FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid WHERE c.uuid = :serviceUUID AND c.bot_uuid = :botUUID AND c.deleted_at IS NULL AND ${BOT_IN_SCOPE}`;

/** The bot of the path, in its environment and organization: the scope a write is folded into. */
const BOT_OF_PATH = `SELECT 1 FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}`;

const FIND_ACTIVE = statement(`SELECT ${REST_CONNECTOR_ROWS.select('c')} ${ACTIVE_IN_SCOPE}`);
/**
 * FIND_ACTIVE's view with its tags and its flows: one row, the relations read from the row's copy of them
 * (connector-read-copy.ts) instead of a UNION of the row, its tags and its flows (docs/performance.md, "Reads").
 */
const FIND_WITH_RELATIONS = statement(`SELECT ${VIEW_ROWS.select('c')} ${ACTIVE_IN_SCOPE}`);
/** The row, selected from the bot in the path's scope: nothing when the bot is not in it. */
/** A connector's columns but its bot's, which the INSERT reads from the path. */
const INSERTED_VALUES = REST_CONNECTOR_ROWS.omit('botUuid');
/**
 * The bot's uuid is read from the path in the INSERT itself: a bot that is not in the path's environment and
 * organization reads NULL, which the column refuses, so the statement fails and writes nothing (a single-row
 * INSERT ... VALUES fails on a NULL in every sql_mode). A failure, not 0 rows changed: the statements after it in a
 * transaction need not wait for its answer (ServerTransaction), the server stops at it.
 */
const INSERT = writeStatement(
  INSERTED_VALUES,
  `INSERT INTO rest_connectors (${INSERTED_VALUES.names}, bot_uuid) VALUES (${INSERTED_VALUES.parameters}, `,
  `(SELECT b.uuid FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}))`,
);
/** The version in the WHERE makes the check and the write one atomic statement (optimistic locking). */
const UPDATE = writeStatement(
  WRITE_ROWS,
  `UPDATE rest_connectors SET ${WRITE_ROWS.assignments}, version = :to WHERE uuid = :uuid AND bot_uuid = :botUuid AND deleted_at IS NULL AND version = :from`,
);
/** UPDATE when the tags are rewritten too: the row carries the copy of the new tags. */
const UPDATE_WITH_TAGS = writeStatement(
  WRITE_WITH_TAGS_ROWS,
  `UPDATE rest_connectors SET ${WRITE_ROWS.assignments}, ${TAG_COPY_ROWS.assignments}, version = :to `,
  'WHERE uuid = :uuid AND bot_uuid = :botUuid AND deleted_at IS NULL AND version = :from',
);
const DELETE_TAGS = statement('DELETE FROM rest_connector_tags WHERE connector_uuid = :uuid');
/** FIND_ACTIVE, with the snapshot of the connector's current version: what an update compares its write with. */
const FIND_FOR_WRITE = statement(
  `SELECT ${REST_CONNECTOR_ROWS.select('c')}, v.snapshot AS snapshot FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid `,
  'LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version ',
  `WHERE c.uuid = :serviceUUID AND c.bot_uuid = :botUUID AND c.deleted_at IS NULL AND ${BOT_IN_SCOPE}`,
);
/** The connector in any state, deleted ones included. */
const FIND_ANY = statement(
  `SELECT ${REST_CONNECTOR_ROWS.select('c')} FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid `,
  `WHERE c.uuid = :serviceUUID AND c.bot_uuid = :botUUID AND ${BOT_IN_SCOPE}`,
);
/** ACTIVE_WITH_NAME_KEYS for `count` names (`:nameKey0`, …). */
const ACTIVE_WITH_NAME_KEYS = statementsBy((count: number) =>
  statement(
    'SELECT c.uuid AS uuid, c.name AS name, c.active_name_key AS active_name_key FROM rest_connectors c ',
    `WHERE c.bot_uuid = :botUuid AND c.active_name_key IN (${placeholderList('nameKey', count)})`,
  ),
);
/** ACTIVE_NAME_KEYS_LIKE for `count` patterns (`:pattern0`, …), `!` their escape. */
const ACTIVE_NAME_KEYS_LIKE = statementsBy((count: number) =>
  statement(
    `SELECT c.active_name_key AS active_name_key FROM rest_connectors c WHERE c.bot_uuid = :botUuid AND (${placeholderList('pattern', count)
      .split(', ')
      .map((pattern) => `c.active_name_key LIKE ${pattern} ESCAPE '!'`)
      .join(' OR ')})`,
  ),
);
/** Active again as it was: its name takes the unique key back (a duplicate-key error when another has it now). */
const RESTORE = writeStatement(
  TRASH_STATE_ROWS,
  `UPDATE rest_connectors SET ${TRASH_STATE_ROWS.assignments}, version = :to WHERE uuid = :serviceUUID AND bot_uuid = :botUUID AND deleted_at IS NOT NULL AND version = :from`,
);
/**
 * The connectors the flows link to (flow_connectors), in any state. On MySQL a locking read: a concurrent flow import
 * of the same flows waits for this one to commit, then reads the links it left.
 */
const linkedToFlows = (lock: string) =>
  statementsBy((count: number) =>
    statement(
      `SELECT fc.connector_uuid AS connector_uuid FROM flow_connectors fc WHERE fc.flow_uuid IN (${placeholderList('flowUuid', count)})${lock}`,
    ).returning<{ connector_uuid: string }>(),
  );
const LINKED_TO_FLOWS = { mysql: linkedToFlows(' FOR UPDATE'), sqlite: linkedToFlows('') };
/** The connectors' rows locked for a change of their flows, in uuid order (MySQL only: SQLite runs one transaction at a time). */
const LOCK_CONNECTORS = statementsBy((count: number) =>
  statement(`SELECT c.uuid AS uuid FROM rest_connectors c WHERE c.uuid IN (${placeholderList('connectorUuid', count)}) ORDER BY c.uuid FOR UPDATE`),
);
/**
 * The flows of each connector's own bot that link to it, as committed (MySQL: a locking read, which reads the latest
 * rows, not the transaction's first snapshot).
 */
const flowsOfConnectors = (lock: string) =>
  statementsBy((count: number) =>
    statement(
      'SELECT fc.connector_uuid AS connector_uuid, f.uuid AS uuid, f.name AS name FROM flow_connectors fc ',
      'JOIN rest_connectors c ON c.uuid = fc.connector_uuid JOIN flows f ON f.uuid = fc.flow_uuid AND f.bot_uuid = c.bot_uuid ',
      `WHERE fc.connector_uuid IN (${placeholderList('connectorUuid', count)})${lock}`,
    ).returning<{ connector_uuid: string; uuid: string; name: string }>(),
  );
const FLOWS_OF_CONNECTORS = { mysql: flowsOfConnectors(' LOCK IN SHARE MODE'), sqlite: flowsOfConnectors('') };
const SET_FLOWS = writeStatement(FLOW_COPY_ROWS, `UPDATE rest_connectors SET ${FLOW_COPY_ROWS.assignments} WHERE uuid = :uuid`);

const SOFT_DELETE = writeStatement(
  TRASH_STATE_ROWS,
  `UPDATE rest_connectors SET ${TRASH_STATE_ROWS.assignments}, version = :to `,
  `WHERE uuid = :serviceUUID AND bot_uuid = :botUUID AND version = :from AND deleted_at IS NULL AND EXISTS (${BOT_OF_PATH})`,
);

/**
 * Reads by id and the writes of rest connectors. Soft-deleted rows (`deleted_at` set) are invisible to every
 * read here and never written again. Writes of more than one statement take the unit of work's transaction.
 */
@Injectable()
export class RestConnectorRepository {
  constructor(private readonly db: Database) {}

  /** The active connector, if its bot is in the path's environment and organization: one query, the scope joined in. */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH] })
  async findActive(path: RestConnectorPath, from: ReadFrom = 'replica'): Promise<Lookup<RestConnector>> {
    const [row] = await this.db.rows(FIND_ACTIVE, path, from);
    return row ? found(REST_CONNECTOR_ROWS.from(row)) : NOTHING_AT_PATH;
  }

  /** findActive with its tags and flows: the read of one connector, one row (its read copy of them). */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH] })
  async findActiveWithRelations(path: RestConnectorPath, from: ReadFrom = 'replica'): Promise<Lookup<ConnectorWithRelations>> {
    const [row] = await this.db.rows(FIND_WITH_RELATIONS, path, from);
    if (!row) return NOTHING_AT_PATH;
    const { tagsJson, flowsJson, ...connector } = VIEW_ROWS.from(row);
    return found({ connector, tags: tagsJson, flows: flowsJson });
  }

  /** findActive, with the snapshot of the current version (on the primary: a write follows). */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH] })
  async findForWrite(path: RestConnectorPath): Promise<Lookup<ConnectorForWrite>> {
    const [row] = await this.db.rows(FIND_FOR_WRITE, path, 'primary');
    if (!row) return NOTHING_AT_PATH;
    return found({ connector: REST_CONNECTOR_ROWS.from(row), snapshot: typeof row.snapshot === 'string' ? recordedSnapshot(JSON.parse(row.snapshot)) : null });
  }

  /** The connector, active or deleted, if its bot is in the path's scope. */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH] })
  async findAny(path: RestConnectorPath, from: ReadFrom = 'replica'): Promise<Lookup<RestConnector>> {
    const [row] = await this.db.rows(FIND_ANY, path, from);
    return row ? found(REST_CONNECTOR_ROWS.from(row)) : NOTHING_AT_PATH;
  }

  /**
   * Inserts the connector and its tags, the scope check folded into the INSERT, deferred (the unit of work's next
   * statements go with them). The row carries the copy of `tags` (tagReadCopy) and the connector's `flowsJson`. The
   * transaction fails with the driver's error at its next statement that answers or at its commit: a NULL refused when
   * the bot is not in the path's environment and organization (`insertedAtPath`), a duplicate key when the name is
   * taken (see the unique index). Nothing is written then.
   */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.BOT_PATH, { uuid: DummyValue.UUID }, DummyValue.TAGS] })
  insert(tx: Transaction, path: BotPath, connector: RestConnector, tags: TagRow[]): ErrorsLater {
    tx.defer.write(INSERT, { ...connector, ...tagReadCopy(tags), ...path });
    return this.insertTags(tx, connector.uuid, tags);
  }

  /**
   * A full write, applied only if the row is still active at `step.from`; false otherwise. `tags` null: they are
   * unchanged, and not rewritten; otherwise the row's copy of them is written with the row (tagReadCopy).
   */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.UUID, DummyValue.UUID, DummyValue.VERSION_STEP, {}, DummyValue.TAGS] })
  async update(tx: Transaction, botUuid: string, uuid: string, step: VersionStep, values: ConnectorWrite, tags: TagRow[] | null): Promise<boolean> {
    const written = await (tags === null
      ? tx.run(UPDATE, { ...values, ...step, uuid, botUuid })
      : tx.run(UPDATE_WITH_TAGS, { ...values, ...tagReadCopy(tags), ...step, uuid, botUuid }));
    if (written === 0) return false;
    if (tags === null) return true;
    await tx.run(DELETE_TAGS, { uuid });
    this.insertTags(tx, uuid, tags);
    return true;
  }

  /** Takes the deleted connector out of the trash (`restored`), only if it is still deleted at `step.from`; false otherwise. */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.CONNECTOR_PATH, DummyValue.VERSION_STEP, DummyValue.TRASH_STATE] })
  async restore(tx: Transaction, path: RestConnectorPath, step: VersionStep, restored: ConnectorTrashState): Promise<boolean> {
    return (await tx.run(RESTORE, { ...restored, ...step, ...path })) === 1;
  }

  /** Moves the connector to the trash (`deleted`) if it is still active at `step.from`; false when another write came first. */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.CONNECTOR_PATH, DummyValue.VERSION_STEP, DummyValue.TRASH_STATE] })
  async softDelete(tx: Transaction, path: RestConnectorPath, step: VersionStep, deleted: ConnectorTrashState): Promise<boolean> {
    return (await tx.run(SOFT_DELETE, { ...deleted, ...step, ...path })) === 1;
  }

  /**
   * The bot's active connectors that hold one of `nameKeys` (lower-cased names, as `active_name_key` keeps them),
   * on the primary (a write follows): one lookup in the unique index of active names.
   */
  @GenerateSql({ params: [DummyValue.UUID, ['get order', 'list orders']] })
  async activeWithNameKeys(botUuid: string, nameKeys: readonly string[]): Promise<NamedConnector[]> {
    if (nameKeys.length === 0) return [];
    const rows = await this.db.rows(ACTIVE_WITH_NAME_KEYS(nameKeys.length), { botUuid, ...listed('nameKey', nameKeys) }, 'primary');
    return rows.map((row) => ({ uuid: String(row.uuid), name: String(row.name), nameKey: String(row.active_name_key) }));
  }

  /**
   * The active name keys of the bot that start with one of `prefixes` (lower-cased), on the primary: the names a
   * rename must step over. LIKE may match more than the prefix on a case-insensitive collation; the caller compares
   * exactly.
   */
  @GenerateSql({ params: [DummyValue.UUID, ['get order', 'list orders']] })
  async activeNameKeysStartingWith(botUuid: string, prefixes: readonly string[]): Promise<string[]> {
    if (prefixes.length === 0) return [];
    const patterns = prefixes.map((prefix) => `${prefix.replace(/[!%_]/g, '!$&')}%`);
    const rows = await this.db.rows(ACTIVE_NAME_KEYS_LIKE(prefixes.length), { botUuid, ...listed('pattern', patterns) }, 'primary');
    return rows.map((row) => String(row.active_name_key));
  }

  /**
   * The connectors (any state) that the flows link to now, read in the unit of work that replaces the flows' links:
   * their copies of the flows change with them (refreshFlows). On MySQL a locking read of the links.
   */
  @GenerateSql({ params: [DummyValue.TX, [DummyValue.UUID]] })
  async linkedToFlows(tx: Transaction, flowUuids: readonly string[]): Promise<string[]> {
    if (flowUuids.length === 0) return [];
    const statements = this.db.isSqlite ? LINKED_TO_FLOWS.sqlite : LINKED_TO_FLOWS.mysql;
    const rows = await tx.rows(statements(flowUuids.length), listed('flowUuid', flowUuids));
    return [...new Set(rows.map((row) => String(row.connector_uuid)))];
  }

  /**
   * Locks the connectors' rows for a change of their flows, before the change is written: two flow imports that
   * touch the same connector run one after the other, so the second reads the first's flows (refreshFlows). In uuid
   * order; no statement on SQLite, which runs one transaction at a time.
   */
  @GenerateSql({ params: [DummyValue.TX, [DummyValue.UUID]] })
  async lockForFlows(tx: Transaction, connectorUuids: readonly string[]): Promise<void> {
    if (this.db.isSqlite) return;
    const uuids = [...new Set(connectorUuids)].sort();
    for (let first = 0; first < uuids.length; first += REFRESH_BATCH) {
      const batch = uuids.slice(first, first + REFRESH_BATCH);
      await tx.rows(LOCK_CONNECTORS(batch.length), listed('connectorUuid', batch));
    }
  }

  /**
   * Sets each connector's copy of its flows (flows_json) from flow_connectors + flows as they now are: the flows of the
   * connector's own bot that link to it, by name (flowsInOrder). Every write of flow_connectors or flows calls it, in
   * its unit of work, for every connector the flows named before or name now; a connector without a row is skipped.
   */
  @GenerateSql({ params: [DummyValue.TX, [DummyValue.UUID]] })
  async refreshFlows(tx: Transaction, connectorUuids: readonly string[]): Promise<void> {
    const uuids = [...new Set(connectorUuids)];
    for (let first = 0; first < uuids.length; first += REFRESH_BATCH) {
      const batch = uuids.slice(first, first + REFRESH_BATCH);
      const statements = this.db.isSqlite ? FLOWS_OF_CONNECTORS.sqlite : FLOWS_OF_CONNECTORS.mysql;
      const rows = await tx.rows(statements(batch.length), listed('connectorUuid', batch));
      const copies = flowsReadCopies(
        batch,
        rows.map((row) => ({ connectorUuid: String(row.connector_uuid), uuid: String(row.uuid), name: String(row.name) })),
      );
      for (const [uuid, flowsJson] of copies) tx.defer.write(SET_FLOWS, { uuid, flowsJson });
    }
  }

  /** One multi-row INSERT. */
  private insertTags(tx: Transaction, connectorUuid: string, tags: TagRow[]): ErrorsLater {
    return tx.defer.insert(
      REST_CONNECTOR_TAG_ROWS,
      tags.map((tag) => ({ ...tag, connectorUuid })),
    );
  }
}

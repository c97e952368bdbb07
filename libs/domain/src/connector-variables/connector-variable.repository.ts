import { Injectable } from '@nestjs/common';
import { Database, ErrorsLater, ReadFrom, Statements, Transaction } from '../database/database';
import { isDuplicateKey } from '../database/database-errors';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { statement, writeStatement } from '../database/statement';
import { SECRET_FIELDS } from '../rest-connectors/connector-fields';
import { recordedSnapshot } from '../rest-connectors/connector-snapshot';
import type { VersionStep } from '../rest-connectors/connector-version';
import type { RestConnectorSnapshotDto } from '../rest-connectors/dto/rest-connector-history.dto';
import { REST_CONNECTOR_ROWS, RestConnector } from '../rest-connectors/rest-connector.entity';
import { ENVIRONMENT_IN_SCOPE } from '../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { EnvironmentPath } from '../scope/scope-params.dto';
import { CONNECTOR_VARIABLE_ROWS, CONNECTOR_VARIABLE_SET_VERSION_ROWS, ConnectorVariable, ConnectorVariableSetVersion } from './connector-variable.entity';

export type ConnectorVariableRow = Omit<ConnectorVariable, 'uuid' | 'organizationUuid' | 'environmentUuid'>;
/** A variable as a write stores it: its row's uuid kept while the name stays. */
export type StoredVariableRow = Omit<ConnectorVariable, 'organizationUuid' | 'environmentUuid'>;
/** An environment's connector variables as stored, and the version of the set (0 before its first write). */
export interface ConnectorVariableSetRow {
  version: number;
  /** By name, in name order (byte order). */
  variables: ConnectorVariableRow[];
}
/** What a write reads: the stored rows with their uuids (kept for the variables whose name stays). */
export interface StoredVariableSet {
  version: number;
  variables: StoredVariableRow[];
}
export type VariableSetVersionRow = ConnectorVariableSetVersion;
export type VariableSetVersionSummary = ConnectorVariableSetVersion;

/** The columns of a connector that say where its secrets go, the secrets themselves (sealed), and what names it. */
export type EnvironmentConnector = Pick<
  RestConnector,
  | 'uuid'
  | 'botUuid'
  | 'name'
  | 'url'
  | 'oauthUrl'
  | 'authType'
  | 'grantType'
  | 'headers'
  | 'body'
  | 'version'
  | 'deletedAt'
  | 'updatedAt'
  | 'updatedBy'
  | 'updatedByImage'
  | (typeof SECRET_FIELDS)[number]
>;

/** An environment's connector as a variable change reads it, with the record its current version left (null if none was recorded). */
export interface EnvironmentConnectorForWrite {
  connector: EnvironmentConnector;
  snapshot: RestConnectorSnapshotDto | null;
}

/** The secrets of a connector a confirmed variable change clears: its secret fields (null) and headers (secret ones whose destination moved dropped). */
export type ClearedSecrets = Pick<RestConnector, (typeof SECRET_FIELDS)[number] | 'headers' | 'updatedAt' | 'updatedBy' | 'updatedByImage'>;

const VARIABLE_ROWS = CONNECTOR_VARIABLE_ROWS.omit('organizationUuid', 'environmentUuid');
const HISTORY_ROWS = CONNECTOR_VARIABLE_SET_VERSION_ROWS;
const CONNECTOR_ROWS = REST_CONNECTOR_ROWS.pick(
  'uuid',
  'botUuid',
  'name',
  'url',
  'oauthUrl',
  'authType',
  'grantType',
  'headers',
  'body',
  'version',
  'deletedAt',
  'updatedAt',
  'updatedBy',
  'updatedByImage',
  ...SECRET_FIELDS,
);
const CLEARED_ROWS = REST_CONNECTOR_ROWS.pick(...SECRET_FIELDS, 'headers', 'updatedAt', 'updatedBy', 'updatedByImage');

const SET_IN_SCOPE = statement(
  'SELECT e.uuid AS environment_uuid, s.version AS version FROM environments e ',
  `LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid WHERE ${ENVIRONMENT_IN_SCOPE}`,
).returning<{ environment_uuid: string; version: number | string | null }>();
/**
 * The set's version, read with a lock of the environment's row and its set's row (the set's alone would lock nothing
 * before its first write: InnoDB's gap locks do not conflict with each other). Shared by the connector writes that
 * depend on the environment, exclusive for the writes of the set: they run one after the other (docs/decisions.md,
 * "A connector write and a variables write are serialized on the environment"). SQLite runs one transaction at a time:
 * a plain read there, and no statement for the exclusive one.
 */
const SET_VERSION_OF = 'SELECT s.version AS version FROM environments e LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid WHERE';
const SET_VERSION_SHARED = {
  mysql: statement(`${SET_VERSION_OF} ${ENVIRONMENT_IN_SCOPE} LOCK IN SHARE MODE`).returning<{ version: number | string | null }>(),
  sqlite: statement(`${SET_VERSION_OF} ${ENVIRONMENT_IN_SCOPE}`).returning<{ version: number | string | null }>(),
};
const SET_FOR_UPDATE = statement(`${SET_VERSION_OF} ${ENVIRONMENT_IN_SCOPE} FOR UPDATE`);
const VARIABLES_OF = statement(`SELECT ${VARIABLE_ROWS.select('v')} FROM connector_variables v WHERE v.environment_uuid = :envUUID ORDER BY v.name`);
/** The first version of a set: its row, read from the environment in the path's scope (none, so nothing inserted, outside it). */
const CREATE_SET = statement(
  'INSERT INTO connector_variable_sets (environment_uuid, organization_uuid, version, updated_at, updated_by) ',
  `SELECT e.uuid, e.organization_uuid, :to, :updatedAt, :updatedBy FROM environments e WHERE ${ENVIRONMENT_IN_SCOPE}`,
);
/** The version in the WHERE makes the check and the write one atomic statement (optimistic locking, as a connector's). */
const STEP_SET = statement(
  'UPDATE connector_variable_sets SET version = :to, updated_at = :updatedAt, updated_by = :updatedBy ',
  'WHERE environment_uuid = :envUUID AND organization_uuid = :orgUUID AND version = :from',
);
const DELETE_VARIABLES = statement('DELETE FROM connector_variables WHERE environment_uuid = :envUUID');
/** Every connector of the environment, every bot's, trashed ones too, with its current version's record. */
const CONNECTORS_OF_ENVIRONMENT = statement(
  `SELECT ${CONNECTOR_ROWS.select('c')}, v.snapshot AS snapshot FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid `,
  'JOIN environments e ON e.uuid = b.environment_uuid LEFT JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version ',
  `WHERE ${ENVIRONMENT_IN_SCOPE} ORDER BY c.uuid`,
);
/** A connector's secrets cleared, only over the version read (active or in the trash). */
const CLEAR_SECRETS = writeStatement(
  CLEARED_ROWS,
  `UPDATE rest_connectors SET ${CLEARED_ROWS.assignments}, version = :to WHERE uuid = :uuid AND bot_uuid = :botUuid AND version = :from`,
);
const HISTORY_PAGE = statement(
  `SELECT ${HISTORY_ROWS.select('h')} FROM connector_variable_set_versions h JOIN environments e ON e.uuid = h.environment_uuid `,
  `WHERE ${ENVIRONMENT_IN_SCOPE} AND h.organization_uuid = :orgUUID ORDER BY h.version DESC LIMIT :limit OFFSET :offset`,
);
const HISTORY_COUNT = statement(
  'SELECT COUNT(*) AS total FROM connector_variable_set_versions h JOIN environments e ON e.uuid = h.environment_uuid ',
  `WHERE ${ENVIRONMENT_IN_SCOPE} AND h.organization_uuid = :orgUUID`,
).returning<{ total: number | string }>();

/**
 * The connector variables of environments (connector_variables, versioned per environment by
 * connector_variable_sets, each version recorded in connector_variable_set_versions): what a connector's
 * `{{env.NAME}}` stands for, and the writes of a set (docs/api-contract.md, "Connector variables"). A write is one unit
 * of work: the set's version stepped over the one read (`stepSet`), the rows replaced, the version recorded, its
 * change event appended (ConnectorEventOutbox.appendVariables).
 */
@Injectable()
export class ConnectorVariableRepository {
  constructor(private readonly db: Database) {}

  /**
   * The environment's variables and the version of its set, read through `reader` (the Database, or a unit of work
   * that must see its own writes); nothing at the path when the environment is not in the organization.
   */
  @GenerateSql({ params: [DummyValue.ENVIRONMENT_PATH] })
  async findSet(path: EnvironmentPath, from: ReadFrom = 'replica', reader: Statements = this.db): Promise<Lookup<ConnectorVariableSetRow>> {
    const found = await this.findStored(path, from, reader);
    if (!found.found) return found;
    return { found: true, value: { version: found.value.version, variables: found.value.variables.map(({ uuid: _uuid, ...row }) => row) } };
  }

  /** findSet with each row's uuid: what a write starts from (on the primary, or in its unit of work). */
  @GenerateSql({ params: [DummyValue.ENVIRONMENT_PATH] })
  async findStored(path: EnvironmentPath, from: ReadFrom = 'primary', reader: Statements = this.db): Promise<Lookup<StoredVariableSet>> {
    const [set] = await reader.rows(SET_IN_SCOPE, path, from);
    if (set === undefined) return NOTHING_AT_PATH;
    const rows = await reader.rows(VARIABLES_OF, path, from);
    return found({ version: Number(set.version ?? 0), variables: rows.map((row) => VARIABLE_ROWS.from(row)) });
  }

  /**
   * The set's version as committed (0 before its first write), read in a connector write's unit of work with a shared
   * lock that a write of the set waits for (and that waits for one): what the connector write checks the version it
   * validated against with. Null when the environment is not in the organization. The first statement of the unit of work.
   */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.ENVIRONMENT_PATH] })
  async sharedVersion(tx: Transaction, path: EnvironmentPath): Promise<number | null> {
    const [row] = await tx.rows(this.db.isSqlite ? SET_VERSION_SHARED.sqlite : SET_VERSION_SHARED.mysql, path);
    return row === undefined ? null : Number(row.version ?? 0);
  }

  /**
   * Locks the environment's set for a write of it, as the first statement of its unit of work: it waits for the
   * connector writes that hold the shared lock (sharedVersion) to commit, so its reads (taken after it) see them. No
   * statement on SQLite, which runs one transaction at a time.
   */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.ENVIRONMENT_PATH] })
  async lockForWrite(tx: Transaction, path: EnvironmentPath): Promise<void> {
    if (!this.db.isSqlite) await tx.rows(SET_FOR_UPDATE, path);
  }

  /**
   * Steps the set of `path`'s environment from `step.from` to `step.to` (its first version creates its row): false,
   * nothing written, when another write came first (the version is no longer `from`, or another created the row).
   */
  @GenerateSql(
    { name: 'first', params: [DummyValue.TX, DummyValue.ENVIRONMENT_PATH, { from: 0, to: 1 }, DummyValue.DATE, 'ada'] },
    { name: 'next', params: [DummyValue.TX, DummyValue.ENVIRONMENT_PATH, DummyValue.VERSION_STEP, DummyValue.DATE, 'ada'] },
  )
  async stepSet(tx: Transaction, path: EnvironmentPath, step: VersionStep, updatedAt: Date, updatedBy: string): Promise<boolean> {
    if (step.from > 0) return (await tx.run(STEP_SET, { ...path, ...step, updatedAt, updatedBy })) === 1;
    try {
      return (await tx.run(CREATE_SET, { ...path, to: step.to, updatedAt, updatedBy })) === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Replaces the environment's variables with `rows` (the whole set), in the unit of work that stepped its version. */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.ENVIRONMENT_PATH, []] })
  replaceVariables(tx: Transaction, path: EnvironmentPath, rows: readonly StoredVariableRow[]): ErrorsLater {
    tx.defer.write(DELETE_VARIABLES, path);
    return tx.defer.insert(
      CONNECTOR_VARIABLE_ROWS,
      rows.map((row) => ({ ...row, organizationUuid: path.orgUUID, environmentUuid: path.envUUID })),
    );
  }

  /** Records a version of the set, with the set it left; its change event is the unit of work's to append. */
  @GenerateSql({ params: [DummyValue.TX, {}] })
  record(tx: Transaction, version: VariableSetVersionRow): ErrorsLater {
    return tx.defer.insert(HISTORY_ROWS, [version]);
  }

  /** A page of the set's versions, newest first; nothing at the path when the environment is not in the organization. */
  @GenerateSql({ params: [DummyValue.ENVIRONMENT_PATH, 0, 20] })
  async page(
    path: EnvironmentPath,
    offset: number,
    limit: number,
    from: ReadFrom = 'replica',
  ): Promise<Lookup<{ rows: VariableSetVersionSummary[]; total: number }>> {
    const [rows, [{ total }]] = await Promise.all([this.db.rows(HISTORY_PAGE, { ...path, limit, offset }, from), this.db.rows(HISTORY_COUNT, path, from)]);
    // None: the environment has no version yet, or is not in the organization (ScopeService.inPath tells which).
    if (Number(total) === 0) return NOTHING_AT_PATH;
    return found({ rows: rows.map((row) => HISTORY_ROWS.from(row)), total: Number(total) });
  }

  /**
   * Every connector of the environment (every bot's, trashed ones too) with what binds its secrets and the record its
   * version left, read in the unit of work of a variable change: whose secrets the change moves.
   */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.ENVIRONMENT_PATH] })
  async connectorsOf(reader: Statements, path: EnvironmentPath): Promise<EnvironmentConnectorForWrite[]> {
    const rows = await reader.rows(CONNECTORS_OF_ENVIRONMENT, path, 'primary');
    return rows.map((row) => ({
      connector: CONNECTOR_ROWS.from(row),
      snapshot: typeof row.snapshot === 'string' ? recordedSnapshot(JSON.parse(row.snapshot)) : null,
    }));
  }

  /** Clears a connector's moved secrets over the version read (`step.from`), in any state; false when another write came first. */
  @GenerateSql({ params: [DummyValue.TX, DummyValue.UUID, DummyValue.UUID, DummyValue.VERSION_STEP, {}] })
  async clearSecrets(tx: Transaction, botUuid: string, uuid: string, step: VersionStep, cleared: ClearedSecrets): Promise<boolean> {
    return (await tx.run(CLEAR_SECRETS, { ...cleared, ...step, uuid, botUuid })) === 1;
  }
}

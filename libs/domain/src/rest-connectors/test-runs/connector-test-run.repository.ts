import { Injectable } from '@nestjs/common';
import { Database, ErrorsLater, ReadFrom, Transaction } from '../../database/database';
import { DummyValue, GenerateSql } from '../../database/generate-sql';
import { statement } from '../../database/statement';
import { BOT_IN_SCOPE } from '../../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../../scope/lookup';
import { BotPath, RestConnectorPath } from '../../scope/scope-params.dto';
import type { Paged } from '../connector-history.repository';
import { CONNECTOR_TEST_RUN_ROWS, ConnectorTestRun, RecordedTestRunOutcome } from './connector-test-run.entity';

/** A run as the lists show it: what the path does not already say. */
export type ListedTestRun = Pick<
  ConnectorTestRun,
  'connectorUuid' | 'callerSub' | 'callerUsername' | 'requestId' | 'destinationHost' | 'outcome' | 'httpStatus' | 'durationMs' | 'startedAt'
>;
/** Whose runs are kept together: a saved connector's, or (connectorUuid null) the bot's runs of unsaved connectors. */
export type TestRunsOf = Pick<ConnectorTestRun, 'botUuid' | 'connectorUuid'>;
/** Where a list of runs, newest first, is cut: this run and every older one. */
export type TestRunMark = Pick<ConnectorTestRun, 'startedAt' | 'uuid'>;

const LISTED_ROWS = CONNECTOR_TEST_RUN_ROWS.pick(
  'connectorUuid',
  'callerSub',
  'callerUsername',
  'requestId',
  'destinationHost',
  'outcome',
  'httpStatus',
  'durationMs',
  'startedAt',
);
const MARK_ROWS = CONNECTOR_TEST_RUN_ROWS.pick('startedAt', 'uuid');

/** The runs of the path's bot, in its environment and organization. */
const RUNS_OF_BOT = `FROM connector_test_runs r JOIN bots b ON b.uuid = r.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid WHERE r.bot_uuid = :botUUID AND ${BOT_IN_SCOPE}`;
/** Newest first, on idx_connector_test_runs_bot_connector read backwards. */
const NEWEST_FIRST = 'ORDER BY r.started_at DESC, r.uuid DESC';

const CONNECTOR_PAGE = statement(
  `SELECT ${LISTED_ROWS.select('r')} ${RUNS_OF_BOT} AND r.connector_uuid = :serviceUUID ${NEWEST_FIRST} LIMIT :limit OFFSET :offset`,
);
const CONNECTOR_COUNT = statement(`SELECT COUNT(*) AS total ${RUNS_OF_BOT} AND r.connector_uuid = :serviceUUID`).returning<{ total: number | string }>();
/** The connector in any state (a deleted one's runs stay readable): for a 404, when it has no run. */
const CONNECTOR_IN_SCOPE = statement(
  'SELECT 1 AS found FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid ',
  `WHERE c.uuid = :serviceUUID AND c.bot_uuid = :botUUID AND ${BOT_IN_SCOPE}`,
);
const UNSAVED_PAGE = statement(`SELECT ${LISTED_ROWS.select('r')} ${RUNS_OF_BOT} AND r.connector_uuid IS NULL ${NEWEST_FIRST} LIMIT :limit OFFSET :offset`);
const UNSAVED_COUNT = statement(`SELECT COUNT(*) AS total ${RUNS_OF_BOT} AND r.connector_uuid IS NULL`).returning<{ total: number | string }>();

/** The statements of one group of runs kept together: a saved connector's, or a bot's unsaved ones. */
const retentionStatements = <const Runs extends string>(runs: Runs) => ({
  /** The newest run past the first `kept`, newest first: where the group is cut. */
  FIRST_PAST: statement(`SELECT ${MARK_ROWS.names} FROM connector_test_runs WHERE ${runs} ORDER BY started_at DESC, uuid DESC LIMIT 1 OFFSET :kept`),
  /** That run and every older one of the group: one range of the index. */
  DELETE_FROM: statement(`DELETE FROM connector_test_runs WHERE ${runs} AND (started_at < :startedAt OR (started_at = :startedAt AND uuid <= :uuid))`),
});
const SAVED = 'bot_uuid = :botUuid AND connector_uuid = :connectorUuid';
const UNSAVED = 'bot_uuid = :botUuid AND connector_uuid IS NULL';
const SAVED_RETENTION = retentionStatements(SAVED);
const UNSAVED_RETENTION = retentionStatements(UNSAVED);

const A_RUN: ConnectorTestRun = {
  uuid: DummyValue.UUID,
  organizationUuid: DummyValue.UUID,
  environmentUuid: DummyValue.UUID,
  botUuid: DummyValue.UUID,
  connectorUuid: DummyValue.UUID,
  callerSub: 'ada',
  callerUsername: 'ada',
  requestId: 'request-1',
  destinationHost: 'api.example.com',
  outcome: RecordedTestRunOutcome.SUCCESS,
  httpStatus: 200,
  durationMs: 120,
  startedAt: DummyValue.DATE,
};
const SAVED_RUNS: TestRunsOf = { botUuid: DummyValue.UUID, connectorUuid: DummyValue.UUID };
const UNSAVED_RUNS: TestRunsOf = { botUuid: DummyValue.UUID, connectorUuid: null };
const A_MARK: TestRunMark = { startedAt: DummyValue.DATE, uuid: DummyValue.UUID };

/**
 * The record of connector test runs (connector_test_runs): written after each run, outside it, then cut to the
 * newest runs of its group (a saved connector's, or its bot's unsaved ones); read a page at a time, newest first,
 * on the one index (bot, connector, started_at, uuid).
 */
@Injectable()
export class ConnectorTestRunRepository {
  constructor(private readonly db: Database) {}

  @GenerateSql({ params: [DummyValue.TX, A_RUN] })
  record(tx: Transaction, run: ConnectorTestRun): ErrorsLater {
    return tx.defer.insert(CONNECTOR_TEST_RUN_ROWS, [run]);
  }

  /** The newest run of the group past its first `kept`, newest first; null when it has no more than `kept`. */
  @GenerateSql({ name: 'saved', params: [DummyValue.TX, SAVED_RUNS, 100] }, { name: 'unsaved', params: [DummyValue.TX, UNSAVED_RUNS, 100] })
  async firstPast(tx: Transaction, { botUuid, connectorUuid }: TestRunsOf, kept: number): Promise<TestRunMark | null> {
    const [row] =
      connectorUuid === null
        ? await tx.rows(UNSAVED_RETENTION.FIRST_PAST, { botUuid, kept })
        : await tx.rows(SAVED_RETENTION.FIRST_PAST, { botUuid, connectorUuid, kept });
    return row ? MARK_ROWS.from(row) : null;
  }

  /** Deletes the run at `mark` and every older one of the group; answers how many. */
  @GenerateSql({ name: 'saved', params: [DummyValue.TX, SAVED_RUNS, A_MARK] }, { name: 'unsaved', params: [DummyValue.TX, UNSAVED_RUNS, A_MARK] })
  deleteFrom(tx: Transaction, { botUuid, connectorUuid }: TestRunsOf, mark: TestRunMark): Promise<number> {
    return connectorUuid === null
      ? tx.run(UNSAVED_RETENTION.DELETE_FROM, { botUuid, ...mark })
      : tx.run(SAVED_RETENTION.DELETE_FROM, { botUuid, connectorUuid, ...mark });
  }

  /** A page of the connector's runs, newest first; found empty when the connector (in any state) has none. */
  @GenerateSql({ params: [DummyValue.CONNECTOR_PATH, 0, 20] })
  async ofConnector(path: RestConnectorPath, offset: number, limit: number, from: ReadFrom = 'replica'): Promise<Lookup<Paged<ListedTestRun>>> {
    const [rows, [counted]] = await Promise.all([this.db.rows(CONNECTOR_PAGE, { ...path, limit, offset }, from), this.db.rows(CONNECTOR_COUNT, path, from)]);
    const total = Number(counted?.total ?? 0);
    if (total > 0) return found({ rows: rows.map((row) => LISTED_ROWS.from(row)), total });
    // Only for the 404: is there no run, or no such connector?
    const [connector] = await this.db.rows(CONNECTOR_IN_SCOPE, path, from);
    return connector ? found({ rows: [], total: 0 }) : NOTHING_AT_PATH;
  }

  /** A page of the bot's runs of unsaved connectors, newest first; nothing at the path when there is none. */
  @GenerateSql({ params: [DummyValue.BOT_PATH, 0, 20] })
  async ofUnsaved(path: BotPath, offset: number, limit: number, from: ReadFrom = 'replica'): Promise<Lookup<Paged<ListedTestRun>>> {
    const [rows, [{ total }]] = await Promise.all([this.db.rows(UNSAVED_PAGE, { ...path, limit, offset }, from), this.db.rows(UNSAVED_COUNT, path, from)]);
    if (Number(total) === 0) return NOTHING_AT_PATH;
    return found({ rows: rows.map((row) => LISTED_ROWS.from(row)), total: Number(total) });
  }
}

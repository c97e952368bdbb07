import {
  BotPath,
  ConnectorTestRun,
  ConnectorTestRunDto,
  ConnectorTestRunPageDto,
  ConnectorTestRunRepository,
  ConsistencyScope,
  Database,
  DESTINATION_HOST_LENGTH,
  driverCodeOf,
  HistoryPageQueryDto,
  ListedTestRun,
  RestConnectorPath,
  ScopeService,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { toPage } from '../connector-views';
import { ConnectorNotFoundException } from '../rest-connector.exceptions';

/**
 * The newest runs kept per saved connector, and per bot of unsaved connectors: each record cuts its group to these,
 * so the table grows with connectors and bots, never with runs (docs/decisions.md, "Connector test runs").
 */
export const TEST_RUNS_KEPT = 100;

function toListed(run: ListedTestRun): ConnectorTestRunDto {
  return {
    startedAt: run.startedAt.toISOString(),
    sub: run.callerSub,
    username: run.callerUsername,
    requestId: run.requestId,
    connectorUuid: run.connectorUuid,
    destinationHost: run.destinationHost,
    outcome: run.outcome,
    status: run.httpStatus,
    durationMs: run.durationMs,
  };
}

/**
 * `host[:port]` as a record keeps it: whole up to DESTINATION_HOST_LENGTH characters. A longer host name (longer than
 * any DNS name: it never resolved) is cut and marked with "…", its port kept: a cut through the port would name another.
 */
function recordedHost(host: string): string {
  if (host.length <= DESTINATION_HOST_LENGTH) return host;
  const port = /:\d+$/.exec(host)?.[0] ?? '';
  return `${host.slice(0, DESTINATION_HOST_LENGTH - port.length - 1)}…${port}`;
}

/**
 * The record of test runs (docs/api-contract.md, "Connector test runs"): each attempted run written once it ended, in
 * a transaction of its own, never one held during the run; the lists read back, newest first, by readers.
 */
@Injectable()
export class TestRunRecordsService {
  constructor(
    private readonly db: Database,
    private readonly scope: ScopeService,
    private readonly runs: ConnectorTestRunRepository,
    @InjectPinoLogger(TestRunRecordsService.name) private readonly logger: PinoLogger,
  ) {}

  /**
   * Records the run (its host as recordedHost keeps it) and cuts its group to the newest TEST_RUNS_KEPT. Never throws: a run that was made is answered
   * whatever the database does with its record (a warning says it was not recorded).
   */
  async record(run: ConnectorTestRun): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        this.runs.record(tx, { ...run, destinationHost: recordedHost(run.destinationHost) });
        const mark = await this.runs.firstPast(tx, run, TEST_RUNS_KEPT);
        if (mark !== null) await this.runs.deleteFrom(tx, run, mark);
      });
    } catch (error) {
      const failure = error instanceof Error ? { type: error.name, code: driverCodeOf(error), message: error.message } : { message: String(error) };
      this.logger.warn(
        { requestId: run.requestId, connectorUuid: run.connectorUuid, error: failure },
        'connector test run not recorded: its answer was sent anyway',
      );
    }
  }

  /** A page of the connector's runs (a deleted connector's too); 404 when there is no such connector in the path. */
  async ofConnector(path: RestConnectorPath, { page, linesPerPage }: HistoryPageQueryDto, consistency?: ConsistencyScope): Promise<ConnectorTestRunPageDto> {
    const found = await this.scope.inPath(path, await this.runs.ofConnector(path, (page - 1) * linesPerPage, linesPerPage, consistency), consistency);
    if (!found) throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    return toPage(found.rows.map(toListed), found.total, page, linesPerPage);
  }

  /** A page of the bot's runs of unsaved connectors; an empty page when there is none, 404 outside the path. */
  async ofUnsaved(path: BotPath, { page, linesPerPage }: HistoryPageQueryDto, consistency?: ConsistencyScope): Promise<ConnectorTestRunPageDto> {
    const found = (await this.scope.inPath(path, await this.runs.ofUnsaved(path, (page - 1) * linesPerPage, linesPerPage, consistency), consistency)) ?? {
      rows: [],
      total: 0,
    };
    return toPage(found.rows.map(toListed), found.total, page, linesPerPage);
  }
}

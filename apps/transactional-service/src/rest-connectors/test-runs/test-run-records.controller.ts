import { BotPath, ConnectorTestRunPageDto, ConsistencyScope, HistoryPageQueryDto, RestConnectorPath } from '@app/domain';
import { ApiErrorResponses, RequestConsistency } from '@app/platform';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { TEST_RUNS_KEPT, TestRunRecordsService } from './test-run-records.service';

const RECORD_DESCRIPTION =
  'Each run records who made it (`sub`, username), when, its request id, the host and port called, its outcome, the status that came back and ' +
  'its duration; never a secret, a header, a URL path or query, or a body. Runs refused before the call (400, 429, 503) are not recorded. ' +
  `The newest ${TEST_RUNS_KEPT} are kept.`;

/** The recorded test runs, for readers: no write scope (docs/api-contract.md, "Connector test runs"). */
@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/bot/:botUUID/rest-connectors')
export class TestRunRecordsController {
  constructor(private readonly records: TestRunRecordsService) {}

  // Before RestConnectorsController's `:serviceUUID`, which would otherwise capture `test-runs`.
  @Get('test-runs')
  @ApiOperation({
    summary: "The bot's test runs of unsaved connectors",
    description: `The runs of \`POST …/rest-connectors/test\` in this bot, newest first (a saved connector's are under its own path). ${RECORD_DESCRIPTION}`,
  })
  @ApiOkResponse({ type: ConnectorTestRunPageDto, description: "A page of the bot's runs of unsaved connectors (Spring Data `Page`)" })
  unsavedRestConnectorTestRuns(
    @Param() path: BotPath,
    @Query() query: HistoryPageQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<ConnectorTestRunPageDto> {
    return this.records.ofUnsaved(path, query, consistency);
  }

  @Get(':serviceUUID/test-runs')
  @ApiOperation({
    summary: 'Test runs of a connector',
    description: `The runs of \`POST …/rest-connectors/{serviceUUID}/test\`, newest first; readable after a delete too. ${RECORD_DESCRIPTION}`,
  })
  @ApiOkResponse({ type: ConnectorTestRunPageDto, description: "A page of the connector's test runs (Spring Data `Page`)" })
  restConnectorTestRuns(
    @Param() path: RestConnectorPath,
    @Query() query: HistoryPageQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<ConnectorTestRunPageDto> {
    return this.records.ofConnector(path, query, consistency);
  }
}

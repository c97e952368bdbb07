import {
  BotPath,
  REST_CONNECTOR_TEST_EXAMPLES,
  RestConnectorPath,
  RestConnectorTestDto,
  SAVED_REST_CONNECTOR_TEST_EXAMPLES,
  SavedRestConnectorTestDto,
  TEST_RUN_ANSWER_EXAMPLES,
  TestRunAnswerDto,
} from '@app/domain';
import { ApiErrorResponses, Caller, CallerGone, CONNECTORS_WRITE_SCOPE, CurrentCaller, RequireScope } from '@app/platform';
import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { TestRunsService } from './test-runs.service';

const RUN_DESCRIPTION =
  "Makes the connector's outbound call once and reports what happened: 200 whenever the call was attempted, whatever the far side " +
  'answered (`outcome` says). The call goes only to public addresses (OUTBOUND_ALLOWED_CIDRS admits named private ranges), follows no ' +
  'redirect, ends when CONNECTOR_TEST_TIMEOUT_MS have passed since it started (the token request included) or when the caller ' +
  'disconnects, and reads at most 1 MiB. `output` is evaluated within bounds of time, memory and size (`output.error` says when it ' +
  'was stopped). Secrets and the OAuth access token appear only as their placeholders. At most CONNECTOR_TEST_PER_MINUTE runs per ' +
  'caller a minute (429; a 400 is not counted); 503 while this replica runs its maximum at once. Each attempted run is recorded ' +
  '(who, when, the host called, the outcome; never a secret, header, path, query or body), listed by `GET …/test-runs`.';

const ANSWER = {
  type: TestRunAnswerDto,
  description: 'The call was attempted: what was sent, what came back, and what `output` selects',
  examples: TEST_RUN_ANSWER_EXAMPLES,
};

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 413, 415, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/bot/:botUUID/rest-connectors')
@RequireScope(CONNECTORS_WRITE_SCOPE)
export class TestRunsController {
  constructor(private readonly testRuns: TestRunsService) {}

  @Post('test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Test an unsaved connector', description: `${RUN_DESCRIPTION} The connector is validated exactly as a create; nothing is stored.` })
  @ApiBody({ type: RestConnectorTestDto, examples: REST_CONNECTOR_TEST_EXAMPLES })
  @ApiOkResponse(ANSWER)
  testUnsavedRestConnector(
    @Param() path: BotPath,
    @Body() dto: RestConnectorTestDto,
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @CallerGone() gone: AbortSignal,
  ): Promise<TestRunAnswerDto> {
    return this.testRuns.testUnsaved(path, dto, { caller, requestId: String(req.id), gone, consistency: req.consistency });
  }

  @Post(':serviceUUID/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Test a saved connector',
    description: `${RUN_DESCRIPTION} Uses the stored connector and its secrets, or, with \`connector\`, those edits as a PUT would store them; nothing is saved.`,
  })
  @ApiBody({ type: SavedRestConnectorTestDto, examples: SAVED_REST_CONNECTOR_TEST_EXAMPLES })
  @ApiOkResponse(ANSWER)
  testSavedRestConnector(
    @Param() path: RestConnectorPath,
    @Body() dto: SavedRestConnectorTestDto,
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @CallerGone() gone: AbortSignal,
  ): Promise<TestRunAnswerDto> {
    return this.testRuns.testSaved(path, dto, { caller, requestId: String(req.id), gone, consistency: req.consistency });
  }
}

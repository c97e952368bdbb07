import {
  ConsistencyScope,
  BotPath,
  DeletedRestConnectorPageDto,
  HistoryPageQueryDto,
  RestConnectorPath,
  RestConnectorRestoredDto,
  RestConnectorVersionDetailDto,
  RestConnectorVersionPageDto,
  RestConnectorVersionPath,
} from '@app/domain';
import { ApiErrorResponses, Caller, CONNECTORS_WRITE_SCOPE, CurrentCaller, RequestConsistency, RequireScope } from '@app/platform';
import { Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiIfMatchHeader } from '../etag';
import { RestConnectorsService } from '../rest-connectors.service';
import { ConnectorHistoryService } from './connector-history.service';

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/bot/:botUUID/rest-connectors')
export class ConnectorHistoryController {
  constructor(
    private readonly history: ConnectorHistoryService,
    private readonly connectors: RestConnectorsService,
  ) {}

  // Before RestConnectorsController's `:serviceUUID`, which would otherwise capture `deleted`.
  @Get('deleted')
  @ApiOperation({ summary: "The bot's trash", description: 'Deleted connectors of the bot, newest deletion first (uuid breaking ties); each can be restored.' })
  @ApiOkResponse({ type: DeletedRestConnectorPageDto, description: "A page of the bot's deleted connectors (Spring Data `Page`)" })
  deletedRestConnectors(
    @Param() path: BotPath,
    @Query() query: HistoryPageQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<DeletedRestConnectorPageDto> {
    return this.history.trash(path, query, consistency);
  }

  @Get(':serviceUUID/versions')
  @ApiOperation({
    summary: 'Versions of a connector',
    description: 'Every recorded write of the connector, newest first, without the records; readable after a delete too.',
  })
  @ApiOkResponse({ type: RestConnectorVersionPageDto, description: "A page of the connector's versions (Spring Data `Page`)" })
  restConnectorVersions(
    @Param() path: RestConnectorPath,
    @Query() query: HistoryPageQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorVersionPageDto> {
    return this.history.versions(path, query, consistency);
  }

  @Get(':serviceUUID/versions/:version')
  @ApiOperation({
    summary: 'One version of a connector',
    description:
      'The version with the record it left (`snapshot`). To roll an edit back, PUT that snapshot: placeholders keep the stored secrets while the URL keeps its host.',
  })
  @ApiOkResponse({ type: RestConnectorVersionDetailDto, description: 'The version and its snapshot' })
  restConnectorVersion(@Param() path: RestConnectorVersionPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<RestConnectorVersionDetailDto> {
    return this.history.version(path, consistency);
  }

  @Post(':serviceUUID/restore')
  @HttpCode(200)
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: 'Restore a deleted connector',
    description:
      'The deleted connector becomes active again exactly as it was (fields, tags, secrets, the flows that name it), with a new version. 409 when it is not deleted, or when an active connector has taken its name since.',
  })
  @ApiIfMatchHeader("ETag of the deleted version this restore applies to (the last version's number); 412 when it is no longer current.")
  @ApiOkResponse({
    type: RestConnectorRestoredDto,
    description: 'Restored',
    headers: { ETag: { description: 'The new ETag', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(409, 412)
  async restoreRestConnector(
    @Param() path: RestConnectorPath,
    @CurrentCaller() caller: Caller,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorRestoredDto> {
    const { body, etag } = await this.connectors.restore(path, caller, ifMatch, consistency);
    res.setHeader('ETag', etag);
    return body;
  }
}

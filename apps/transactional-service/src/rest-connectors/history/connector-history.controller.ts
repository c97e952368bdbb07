import {
  ConsistencyScope,
  BotPath,
  DeletedRestConnectorPageDto,
  HistoryPageQueryDto,
  RestConnectorPath,
  RestConnectorRestoredDto,
  RestConnectorUpdatedDto,
  RestConnectorVersionDetailDto,
  RestConnectorVersionDiffDto,
  RestConnectorVersionDiffPath,
  RestConnectorVersionPageDto,
  RestConnectorVersionPath,
} from '@app/domain';
import { ApiErrorResponses, CONNECTORS_WRITE_SCOPE, RequestConsistency, RequireScope } from '@app/platform';
import { Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiChangeReasonHeader, Author, WriteAuthor } from '../author';
import { ApiIfMatchHeader } from '../etag';
import { RestoreConnector } from '../use-cases/restore-connector.use-case';
import { RevertConnector } from '../use-cases/revert-connector.use-case';
import { ConnectorHistoryService } from './connector-history.service';

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/bot/:botUUID/rest-connectors')
export class ConnectorHistoryController {
  constructor(
    private readonly history: ConnectorHistoryService,
    private readonly revertConnector: RevertConnector,
    private readonly restoreConnector: RestoreConnector,
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
      'The version with the record it left (`snapshot`), who made it (`sub`), through which request (`requestId`) and why (`reason`). To put its record back, revert to it.',
  })
  @ApiOkResponse({ type: RestConnectorVersionDetailDto, description: 'The version and its snapshot' })
  restConnectorVersion(@Param() path: RestConnectorVersionPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<RestConnectorVersionDetailDto> {
    return this.history.version(path, consistency);
  }

  @Get(':serviceUUID/versions/:version/diff/:otherVersion')
  @ApiOperation({
    summary: 'What changed between two versions',
    description:
      "The record fields whose value differs from `version`'s record to `otherVersion`'s (either may be the newer), each with both values. " +
      'A secret is listed when a write between them set, cleared or replaced it; its values are never shown, only placeholders.',
  })
  @ApiOkResponse({ type: RestConnectorVersionDiffDto, description: 'The fields that differ' })
  restConnectorVersionDiff(
    @Param() path: RestConnectorVersionDiffPath,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorVersionDiffDto> {
    return this.history.diff(path, consistency);
  }

  @Post(':serviceUUID/versions/:version/revert')
  @HttpCode(200)
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: 'Revert a connector to an earlier version',
    description:
      "Puts the version's record back as an update (a new version, `revertedTo` naming this one, a `connector.updated` event). The stored " +
      'secrets are kept (secret values are not versioned); 409 saying why when the record needs a secret no longer stored, or one whose ' +
      'destination has changed since (PUT the snapshot with the secret instead). Reverting to what the connector already is writes nothing and answers its ETag.',
  })
  @ApiIfMatchHeader('ETag of the version this revert replaces; 412 when it is no longer current.')
  @ApiChangeReasonHeader()
  @ApiOkResponse({
    type: RestConnectorUpdatedDto,
    description: 'Reverted, or unchanged',
    headers: { ETag: { description: 'The new ETag; the current one when nothing changed', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(409, 412)
  async revertRestConnector(
    @Param() path: RestConnectorVersionPath,
    @WriteAuthor() author: Author,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorUpdatedDto> {
    const { body, etag } = await this.revertConnector.execute({ path, author, ifMatch, consistency });
    res.setHeader('ETag', etag);
    return body;
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
  @ApiChangeReasonHeader()
  @ApiOkResponse({
    type: RestConnectorRestoredDto,
    description: 'Restored',
    headers: { ETag: { description: 'The new ETag', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(409, 412)
  async restoreRestConnector(
    @Param() path: RestConnectorPath,
    @WriteAuthor() author: Author,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorRestoredDto> {
    const { body, etag } = await this.restoreConnector.execute({ path, author, ifMatch, consistency });
    res.setHeader('ETag', etag);
    return body;
  }
}

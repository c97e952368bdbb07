import {
  ConnectorVariablesDto,
  ConnectorVariableSetVersionPageDto,
  ConnectorVariablesWriteDto,
  ConnectorVariablesWrittenDto,
  ConsistencyScope,
  DestinationsMovedDto,
  EnvironmentPath,
  HistoryPageQueryDto,
} from '@app/domain';
import { ApiErrorResponses, CONNECTORS_WRITE_SCOPE, RequestConsistency, RequireScope } from '@app/platform';
import { Body, Controller, Get, Headers, Param, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConflictResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiChangeReasonHeader, Author, WriteAuthor } from '../rest-connectors/author';
import { ApiIfMatchHeader, ApiIfNoneMatch } from '../rest-connectors/etag';
import { ConnectorVariableWrites } from './use-cases/connector-variable-writes.use-case';
import { ConnectorVariablesService } from './connector-variables.service';
import { CONNECTOR_VARIABLES_WRITE_EXAMPLES } from './connector-variables.examples';

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/connector-variables')
export class ConnectorVariablesController {
  constructor(
    private readonly reads: ConnectorVariablesService,
    private readonly writes: ConnectorVariableWrites,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The environment's connector variables",
    description:
      'What `{{env.NAME}}` stands for in the connectors of this environment: plain values as they are, secret ones as `<SECRET>` (null when a ' +
      'secret asks for its value again), with the destinations a secret may be sent to. With If-None-Match naming the current ETag, a 304 without a body.',
  })
  @ApiIfNoneMatch()
  @ApiOkResponse({
    type: ConnectorVariablesDto,
    description: 'The set and its version',
    headers: { ETag: { description: 'Strong; `"v0"` before the first write, then changes with every write', schema: { type: 'string' } } },
  })
  async getConnectorVariables(
    @Param() path: EnvironmentPath,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<ConnectorVariablesDto> {
    const { body, etag } = await this.reads.get(path, consistency);
    res.setHeader('ETag', etag);
    return body;
  }

  @Put()
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: "Replace the environment's connector variables",
    description:
      'The whole set: names left out are removed. A secret variable is sealed at rest and never answered; `<SECRET>` sent back keeps the stored ' +
      'value while its destinations are not widened. A secret without `destinations` keeps the ones it has, or, new, is bound to the destinations of ' +
      "the environment's connectors that use it. When the new values move where a connector's stored secrets or a secret variable would be sent, " +
      'a 409 DESTINATIONS_MOVED names them, unless `confirmDestinationMoves` is true: then those secrets and values are cleared (each connector a new ' +
      'version) and must be sent again. A set that does not change answers 200 (`Connector variables unchanged`) and records no version and no event.',
  })
  @ApiIfMatchHeader('ETag of the set this write replaces (`"v3"`, `"v0"` before the first write); 412 naming the current ETag when it is no longer current.')
  @ApiChangeReasonHeader()
  @ApiBody({ type: ConnectorVariablesWriteDto, examples: CONNECTOR_VARIABLES_WRITE_EXAMPLES })
  @ApiOkResponse({
    type: ConnectorVariablesWrittenDto,
    description: 'Updated, or unchanged',
    headers: { ETag: { description: 'The new ETag; the current one when nothing changed', schema: { type: 'string' } } },
  })
  @ApiConflictResponse({
    type: DestinationsMovedDto,
    description: 'DESTINATIONS_MOVED: send confirmDestinationMoves: true to go on (those secrets are then cleared); or CONNECTOR_VARIABLES_BUSY: retry',
    example: {
      statusCode: 409,
      error: 'Conflict',
      message:
        'The new connector variables move where secrets go: 1 connector would send stored secrets elsewhere ("Weather forecast" bearerToken: ' +
        'https://api.example.com → https://api.example.net). Send confirmDestinationMoves: true to go on: those connector secrets and secret ' +
        'variable values are then cleared, and must be sent again (PUT …/rest-connectors/{serviceUUID} for a connector, this PUT for a variable, with its new destinations)',
      path: '/',
      timestamp: '2026-11-21T09:00:00.000Z',
      requestId: '6f1c2b1e-9a53-4f5e-8d43-2f8f6f0b4a10',
      code: 'DESTINATIONS_MOVED',
      connectors: [
        {
          uuid: '0192f0a0-0000-7000-8000-000000000001',
          name: 'Weather forecast',
          botUUID: '6bcfa28e-7d7a-4ae4-9a9e-bf7fc1fd8a07',
          secrets: ['bearerToken'],
          from: 'https://api.example.com',
          to: 'https://api.example.net',
        },
      ],
      variables: [],
    },
  })
  @ApiErrorResponses(412, 413, 415)
  async putConnectorVariables(
    @Param() path: EnvironmentPath,
    @Body() dto: ConnectorVariablesWriteDto,
    @WriteAuthor() author: Author,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<ConnectorVariablesWrittenDto> {
    const { body, etag } = await this.writes.put(path, dto.variables, author, { ifMatch, confirmDestinationMoves: dto.confirmDestinationMoves, consistency });
    res.setHeader('ETag', etag);
    return body;
  }

  @Get('history')
  @ApiOperation({
    summary: "Versions of the environment's connector variables",
    description:
      'Every write of the set, newest first: who, when, why, which variables it added, changed or removed (secrets by name only), and the set it left (secrets as `<SECRET>`).',
  })
  @ApiOkResponse({ type: ConnectorVariableSetVersionPageDto, description: 'A page of versions (Spring Data `Page`)' })
  connectorVariablesHistory(
    @Param() path: EnvironmentPath,
    @Query() query: HistoryPageQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<ConnectorVariableSetVersionPageDto> {
    return this.reads.history(path, query, consistency);
  }
}

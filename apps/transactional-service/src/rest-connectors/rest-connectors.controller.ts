import {
  BotPath,
  ConsistencyScope,
  PaginationQueryDto,
  QuicksearchQueryDto,
  RestConnectorCreatedDto,
  RestConnectorDto,
  RestConnectorListDto,
  RestConnectorPageDto,
  RestConnectorPath,
  RestConnectorUpdatedDto,
  REST_CONNECTOR_CREATE_EXAMPLES,
  REST_CONNECTOR_UPDATE_EXAMPLES,
  RestConnectorWriteDto,
} from '@app/domain';
import {
  ACCEPTABLE_IDEMPOTENCY_KEY,
  ApiErrorResponses,
  CONNECTORS_WRITE_SCOPE,
  IdempotencyKeyHeader,
  logAlongside,
  PLATFORM_APPS,
  RequestConsistency,
  RequireScope,
  SentBody,
} from '@app/platform';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiChangeReasonHeader, Author, WriteAuthor } from './author';
import { ApiIfMatchHeader, ApiIfNoneMatch } from './etag';
import { RestConnectorSearchService } from './rest-connector-search.service';
import { RestConnectorsService } from './rest-connectors.service';
import { CreateConnectors } from './use-cases/create-connectors.use-case';
import { DeleteConnector } from './use-cases/delete-connector.use-case';
import { UpdateConnector } from './use-cases/update-connector.use-case';

const { label } = PLATFORM_APPS.transactionalService;

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/bot/:botUUID/rest-connectors')
export class RestConnectorsController {
  constructor(
    private readonly connectors: RestConnectorsService,
    private readonly search: RestConnectorSearchService,
    private readonly createConnectors: CreateConnectors,
    private readonly updateConnector: UpdateConnector,
    private readonly deleteConnector: DeleteConnector,
  ) {}

  // The fixed sub-paths come before `:serviceUUID`, which would otherwise capture them.
  @Get('pagination')
  @ApiOperation({ summary: "Page of the bot's connectors", description: 'searchTerms match connector names or tags.' })
  @ApiOkResponse({ type: RestConnectorPageDto, description: "A page of the bot's active connectors (Spring Data `Page`)" })
  pageRestConnectors(
    @Param() path: BotPath,
    @Query() query: PaginationQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorPageDto> {
    return this.search.page(path, query, consistency);
  }

  @Get('quicksearch')
  @ApiOperation({ summary: 'Autocomplete suggestions', description: "Suggested names of the bot's connectors." })
  @ApiOkResponse({ type: [String], description: 'Suggested names: those starting with the term first, each group alphabetical' })
  quicksearchRestConnectors(
    @Param() path: BotPath,
    @Query() query: QuicksearchQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<string[]> {
    return this.search.suggest(path, query, consistency);
  }

  @Get('list')
  @ApiOperation({
    summary: 'List all connectors of the bot',
    description: 'Every active connector of the bot with its content entries, ordered by name; not paged.',
  })
  @ApiOkResponse({ type: RestConnectorListDto, description: 'Every active connector of the bot, ordered by name' })
  listRestConnectors(@Param() path: BotPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<RestConnectorListDto> {
    return this.search.list(path, consistency);
  }

  @Get(':serviceUUID')
  @ApiOperation({
    summary: 'Get one connector',
    description:
      'The connector with the flows that use it; secrets read as their placeholders. With If-None-Match naming its current ETag, a 304 without a body.',
  })
  @ApiIfNoneMatch()
  @ApiOkResponse({
    type: RestConnectorDto,
    description: 'The connector; secrets appear as their placeholders',
    headers: { ETag: { description: 'Strong; changes with every write', schema: { type: 'string' } } },
  })
  async getRestConnector(
    @Param() path: RestConnectorPath,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorDto> {
    const { body, etag } = await this.connectors.get(path, consistency);
    res.setHeader('ETag', etag);
    return body;
  }

  @Post()
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({ summary: 'Create a connector', description: 'The secrets its authType needs are sent in clear; reads show their placeholders.' })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes retries safe for 24 h: the same key and body return the first answer and create nothing; the same key with another body is a 422; a retry while the first request runs is a 409.',
    // What IdempotencyKeyHeader enforces (400 otherwise): 1 to 255 visible ASCII characters.
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: ACCEPTABLE_IDEMPOTENCY_KEY.source },
  })
  @ApiChangeReasonHeader()
  @ApiBody({ type: RestConnectorWriteDto, examples: REST_CONNECTOR_CREATE_EXAMPLES })
  @ApiCreatedResponse({
    type: RestConnectorCreatedDto,
    description: 'Created',
    headers: { Location: { description: 'URL of the new connector', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(409, 413, 415, 422)
  async createRestConnector(
    @Param() path: BotPath,
    @Body() dto: RestConnectorWriteDto,
    @WriteAuthor() author: Author,
    @IdempotencyKeyHeader() key: string | undefined,
    @SentBody() sentBody: unknown,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorCreatedDto> {
    const created = await this.createConnectors.one({ path, dto, author, retry: key === undefined ? undefined : { key, sentBody }, consistency });
    logAlongside(res, { connectorId: created.uuid });
    res.setHeader('Location', `/${label}/org/${path.orgUUID}/env/${path.envUUID}/bot/${path.botUUID}/rest-connectors/${created.uuid}`);
    return created;
  }

  @Put(':serviceUUID')
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: 'Update a connector',
    description:
      "Replaces the connector; a secret's placeholder sent back keeps the stored secret. A write that changes no field answers 200 " +
      '(`Rest connector unchanged`) with the current ETag and records no version and no event; If-Match is checked all the same.',
  })
  @ApiIfMatchHeader('ETag of the version this write replaces; 412 when it is no longer current.')
  @ApiChangeReasonHeader()
  @ApiBody({ type: RestConnectorWriteDto, examples: REST_CONNECTOR_UPDATE_EXAMPLES })
  @ApiOkResponse({
    type: RestConnectorUpdatedDto,
    description: 'Updated, or unchanged',
    headers: { ETag: { description: 'The new ETag; the current one when nothing changed', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(409, 412, 413, 415)
  async updateRestConnector(
    @Param() path: RestConnectorPath,
    @Body() dto: RestConnectorWriteDto,
    @WriteAuthor() author: Author,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorUpdatedDto> {
    const { body, etag } = await this.updateConnector.execute({ path, dto, author, ifMatch, consistency });
    res.setHeader('ETag', etag);
    return body;
  }

  @Delete(':serviceUUID')
  @HttpCode(204)
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: 'Delete a connector (soft)',
    description:
      'The connector moves to the trash: it disappears from every read and its name is free again; restore it from the trash. With If-Match, only from that version.',
  })
  @ApiIfMatchHeader(
    'ETag of the version this delete applies to (`"v3"`, with the quotes); 412 naming the current ETag when it is no longer current, 400 when it is not an ETag.',
  )
  @ApiChangeReasonHeader()
  @ApiNoContentResponse({
    description: 'In the trash; the connector is gone from every read, its name is free again.',
    headers: { ETag: { description: 'Its version in the trash: the If-Match of a restore of exactly this version', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(412)
  async deleteRestConnector(
    @Param() path: RestConnectorPath,
    @WriteAuthor() author: Author,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<void> {
    res.setHeader('ETag', await this.deleteConnector.execute({ path, author, ifMatch, consistency }));
  }
}

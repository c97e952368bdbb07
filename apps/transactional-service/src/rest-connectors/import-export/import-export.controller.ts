import {
  BotPath,
  ConsistencyScope,
  IMPORT_LIMITS,
  REST_CONNECTOR_IMPORT_EXAMPLES,
  RestConnectorExportQueryDto,
  RestConnectorImportDto,
  RestConnectorImportResultDto,
  RestConnectorPath,
} from '@app/domain';
import {
  ACCEPTABLE_IDEMPOTENCY_KEY,
  Answer,
  AnswerHandle,
  CallerGone,
  ApiErrorResponses,
  CONNECTORS_WRITE_SCOPE,
  IdempotencyKeyHeader,
  RequestConsistency,
  RequireScope,
  SentBody,
} from '@app/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiChangeReasonHeader, Author, WriteAuthor } from '../author';
import { ConnectorExportService } from './connector-export.service';
import { ConnectorImportService } from './connector-import.service';

const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/bot/:botUUID/rest-connectors')
export class ImportExportController {
  constructor(
    private readonly importer: ConnectorImportService,
    private readonly exporter: ConnectorExportService,
  ) {}

  @Post('import')
  @HttpCode(200)
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: 'Import connectors from cURL, OpenAPI or Postman',
    description:
      `Reads a cURL command, an OpenAPI 3.x / Swagger 2.0 document or a Postman collection v2.1 (at most ${mib(IMPORT_LIMITS.sourceBytes)}; nothing it ` +
      `names is fetched or read) and makes one connector per request or selected operation (at most ${IMPORT_LIMITS.connectors}, holding at most ` +
      `${mib(IMPORT_LIMITS.connectorBytes)} of text together), tagged with the operation's tags or the request's folders. ` +
      'A caller has one import at a time per replica (another meanwhile is a 429 with Retry-After). Authorization headers, `-u`, API keys and security ' +
      'schemes become the auth settings and secrets, never plain headers. A dry run (the default) answers the create bodies, secrets shown as ' +
      'placeholders and listed by field, and warnings; `"dryRun": false` creates them all in one transaction, all or none, each with its ' +
      'version. Every problem of every connector is one 400, naming the connector and where in the source it comes from.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'With `"dryRun": false`: the same key and body within 24 h answer the first import again and create nothing; another body is a 422.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: ACCEPTABLE_IDEMPOTENCY_KEY.source },
  })
  @ApiChangeReasonHeader()
  @ApiBody({ type: RestConnectorImportDto, examples: REST_CONNECTOR_IMPORT_EXAMPLES })
  @ApiOkResponse({ type: RestConnectorImportResultDto, description: 'The connectors planned (a dry run) or created (with their uuids), and the warnings' })
  @ApiErrorResponses(409, 413, 415, 422)
  importRestConnectors(
    @Param() path: BotPath,
    @Body() dto: RestConnectorImportDto,
    @WriteAuthor() author: Author,
    @IdempotencyKeyHeader() key: string | undefined,
    @SentBody() sentBody: unknown,
    @Answer() answer: AnswerHandle,
    @CallerGone() callerGone: AbortSignal,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<RestConnectorImportResultDto> {
    return this.importer.import(path, dto, author, { retry: key === undefined ? undefined : { key, sentBody }, consistency, answer, callerGone });
  }

  @Get(':serviceUUID/export')
  @ApiOperation({
    summary: 'Export a connector as cURL, OpenAPI or Postman',
    description:
      'The connector as a cURL command (POSIX quoting, ANSI-C quoting for a value with control characters, `--data-raw` only: it never reads ' +
      "a file), a one-operation OpenAPI 3.1 document (no `$ref` of the connector's), or a " +
      'Postman collection v2.1. Secrets never appear: each is a variable (`$BEARER_TOKEN` in cURL, `{{bearerToken}}` in Postman) or a ' +
      'security scheme without a value. Importing the export gives the connector back.',
  })
  @ApiProduces('text/plain', 'application/json')
  @ApiOkResponse({ description: 'The connector in the format asked for, as a file (Content-Disposition: attachment)', schema: { type: 'string' } })
  async exportRestConnector(
    @Param() path: RestConnectorPath,
    @Query() query: RestConnectorExportQueryDto,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<string> {
    const file = await this.exporter.export(path, query.format, consistency);
    res.setHeader('Content-Type', file.mediaType);
    res.setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
    return file.content;
  }
}

import {
  BotPath,
  ConsistencyScope,
  ImportConflict,
  ImportFormat,
  IMPORT_LIMITS,
  REST_CONNECTOR_IMPORT_EXAMPLES,
  REST_CONNECTOR_IMPORT_SOURCE_EXAMPLES,
  RestConnectorExportQueryDto,
  RestConnectorImportDto,
  RestConnectorImportQueryDto,
  RestConnectorImportResultDto,
  RestConnectorPath,
} from '@app/domain';
import {
  ACCEPTABLE_IDEMPOTENCY_KEY,
  ApiAlternativeBodies,
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
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiChangeReasonHeader, Author, WriteAuthor } from '../author';
import { ConnectorExportService } from './connector-export.service';
import { ConnectorImportService } from './connector-import.service';
import { FILE_PART } from './import-body';

/** The source as it is, one body for each text media type an import takes. */
const sourceAsIs = (description: string, example: string) => ({
  schema: { type: 'string', maxLength: IMPORT_LIMITS.sourceBytes, description },
  example,
});

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
      'version. Every problem of every connector is one 400, naming the connector and where in the source it comes from. ' +
      'A name an active connector of the bot already has is a conflict: the dry run names the connector; `onConflict` says what it does ' +
      '(fail with a 409 naming every such name, skip, rename, update).\n\n' +
      'The body is the JSON import request, or the source as it is: `text/plain`, `application/yaml` (or `application/x-yaml`), or ' +
      '`application/json` holding the OpenAPI document or Postman collection itself, with `format` and the other options in the query ' +
      'string (an `application/json` body is the source itself exactly when the query string holds an import option); or a ' +
      '`multipart/form-data` upload, the source as its `file` part and the options as fields. Credentials never go in the query string: ' +
      "send them in the JSON import request or as the upload's `credentials` field (a JSON object).",
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'With `"dryRun": false`: the same key and body within 24 h answer the first import again and create nothing; another body is a 422.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: ACCEPTABLE_IDEMPOTENCY_KEY.source },
  })
  @ApiChangeReasonHeader()
  @ApiBody({ type: RestConnectorImportDto, examples: REST_CONNECTOR_IMPORT_EXAMPLES })
  @ApiAlternativeBodies({
    'text/plain': sourceAsIs(
      'The source as it is (a cURL command, an OpenAPI document, a Postman collection); `?format=` says which.',
      REST_CONNECTOR_IMPORT_SOURCE_EXAMPLES.curl,
    ),
    'application/yaml': sourceAsIs('An OpenAPI document in YAML, as it is, with `?format=openapi`.', REST_CONNECTOR_IMPORT_SOURCE_EXAMPLES.yaml),
    'application/x-yaml': sourceAsIs('As application/yaml.', REST_CONNECTOR_IMPORT_SOURCE_EXAMPLES.yaml),
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: [FILE_PART, 'format'],
        properties: {
          [FILE_PART]: {
            type: 'string',
            format: 'binary',
            maxLength: IMPORT_LIMITS.sourceBytes,
            description: `The source file (UTF-8, at most ${IMPORT_LIMITS.sourceBytes / 1024} KiB).`,
          },
          format: { type: 'string', enum: Object.values(ImportFormat) },
          dryRun: { type: 'boolean', default: true },
          select: { type: 'array', items: { type: 'string', maxLength: IMPORT_LIMITS.selector }, maxItems: IMPORT_LIMITS.select },
          onConflict: { type: 'string', enum: Object.values(ImportConflict), default: ImportConflict.FAIL },
          credentials: { allOf: [{ $ref: getSchemaPath('ImportCredentialsDto') }], description: 'As `credentials` of the JSON import request, a JSON object.' },
        },
      },
      encoding: { credentials: { contentType: 'application/json' } },
    },
  })
  @ApiOkResponse({ type: RestConnectorImportResultDto, description: 'The connectors planned (a dry run) or created (with their uuids), and the warnings' })
  @ApiErrorResponses(409, 413, 415, 422)
  importRestConnectors(
    @Param() path: BotPath,
    // The options of a source sent as the body: import-body.ts has made them part of the import request (`dto`).
    @Query() _options: RestConnectorImportQueryDto,
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
      'The connector as a cURL command that runs once its shell variables are set (every `{{variable}}` a shell variable `"${NAME}"`, ' +
      'basic auth as `-u "$BASIC_USER:$BASIC_PASSWORD"`; POSIX quoting, ANSI-C quoting for a value with control characters, `--data-raw` ' +
      'only: it never reads a file; comment lines name the variables to set and hold the name, description, output and tags), a ' +
      "one-operation OpenAPI 3.1 document (a camelCase operationId, no `$ref` of the connector's, `x-connector-name`, " +
      '`x-connector-output` and tags), or a Postman collection v2.1 (output and tags in a ```connector block of the description). ' +
      'Secrets never appear: each is a variable (`$BEARER_TOKEN` in cURL, `{{bearerToken}}` in Postman) or a security scheme without a ' +
      'value. Importing the export gives the connector back: every field it writes.',
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

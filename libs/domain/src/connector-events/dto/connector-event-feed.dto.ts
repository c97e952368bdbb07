import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { toInteger } from '../../rest-connectors/dto/pagination-query.dto';
import { ReasonProperty, RestConnectorSnapshotDto, RevertedToProperty } from '../../rest-connectors/dto/rest-connector-history.dto';
import { VersionOperation } from '../../rest-connectors/rest-connector.enums';
import { UUID_PATTERN } from '../../scope/uuid';
import { ConnectorVariableChangeDto, RecordedConnectorVariableDto } from '../../connector-variables/dto/connector-variables.dto';

export const EVENT_FEED = { defaultLimit: 100, maxLimit: 1000, maxWaitS: 30 } as const;

/**
 * What one read of change events loads at most, in bytes of their content as stored (snapshot, changed fields,
 * author) plus an envelope each: a feed page (about what its events weigh in the answer), a relay batch. One event
 * larger than this is read alone, so a read always advances (EventReads).
 */
export const EVENT_READ_BYTES = 4 * 1024 * 1024;
const EVENT_READ_MIB = `${EVENT_READ_BYTES / 1024 / 1024} MiB`;

/**
 * A feed cursor as the feed writes it: opaque text (base64url; a position sealed for the environment's feed,
 * EventCursors); or `now`: what the feed has numbered when the request is read (to follow only what comes next).
 * What the shape lets through, the feed reads, and refuses with a 400 that says how to go on.
 */
export const CURSOR_PATTERN = /^(now|[A-Za-z0-9_-]{1,64})$/;
export const CURSOR_NOW = 'now';

/** The CloudEvents `type` of each operation (`.v1`: the version of `data`'s shape). */
export const CONNECTOR_EVENT_TYPES = {
  [VersionOperation.CREATED]: 'connector.created.v1',
  [VersionOperation.UPDATED]: 'connector.updated.v1',
  [VersionOperation.DELETED]: 'connector.deleted.v1',
  [VersionOperation.RESTORED]: 'connector.restored.v1',
} as const;
export type ConnectorEventType = (typeof CONNECTOR_EVENT_TYPES)[VersionOperation];

export class ConnectorEventFeedQueryDto {
  @ApiPropertyOptional({
    type: 'string',
    maxLength: 64,
    pattern: CURSOR_PATTERN.source,
    // No example: Swagger UI would pre-fill it, and "Try it out" should read the feed from its oldest event.
    description:
      'Answer the events after this cursor: the `cursor` of the last answer (or of one of its events), sent back unchanged. Cursors are opaque: ' +
      "they say nothing of the platform's other tenants, and work only on the feed of the environment that gave them (a 400 otherwise, also for " +
      'the numeric cursors of before: follow again without after, skipping the events you have). Without it, from the oldest event kept; `now`: ' +
      'only the events to come (with `wait`, the next one). A cursor older than the retention (EVENTS_RETENTION_DAYS) is 410, checked after the ' +
      'path (a path outside your organization is a 404 first): list the connectors again, then follow the feed from its oldest event, skipping ' +
      'the versions the list already has.',
  })
  @IsOptional()
  @Matches(CURSOR_PATTERN, { message: 'after must be a cursor a previous answer of this feed gave (its cursor, unchanged), or now' })
  after?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: EVENT_FEED.maxLimit,
    default: EVENT_FEED.defaultLimit,
    description:
      `Events per answer, at most 1000. A page also stops before its events weigh ${EVENT_READ_MIB} in the answer (one event larger than that comes alone): ` +
      'fewer events than the limit do not mean the feed is caught up; go on from the cursor.',
  })
  @toInteger
  @Min(1)
  @Max(EVENT_FEED.maxLimit)
  @IsInt()
  limit: number = EVENT_FEED.defaultLimit;

  @ApiPropertyOptional({ format: 'uuid', maxLength: 36, description: 'Only the events of this bot of the environment.' })
  @IsOptional()
  @Matches(UUID_PATTERN, { message: 'botUUID must be a UUID' })
  @Transform(({ value }) => (typeof value === 'string' && UUID_PATTERN.test(value) ? value.toLowerCase() : value))
  botUUID?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: EVENT_FEED.maxWaitS,
    default: 0,
    description:
      'When no event is after the cursor: wait up to this many seconds for one (a long poll, as a Kubernetes watch), then answer what came, or none.',
  })
  @toInteger
  @Min(0)
  @Max(EVENT_FEED.maxWaitS)
  @IsInt()
  wait: number = 0;
}

/** What a write changed, as the event carries it. */
export class ConnectorEventDataDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, example: 3, description: "The connector's version after this write." })
  version: number;

  @ApiProperty({ example: '"v3"', description: 'The ETag a read answered right after this write (an If-Match for the next write).' })
  etag: string;

  @ApiProperty({ enum: VersionOperation, enumName: 'VersionOperation', example: VersionOperation.UPDATED })
  operation: VersionOperation;

  @ApiProperty({
    type: [String],
    example: ['url', 'bearerToken'],
    description: 'The record fields whose value the write changed, secrets by name only; every field set for a creation, none for a delete or a restore.',
  })
  changedFields: string[];

  @ApiProperty({ example: 'alice', description: 'Who made the write.' })
  updatedBy: string;

  @ReasonProperty()
  reason: string | null;

  @RevertedToProperty()
  revertedTo: number | null;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    example: null,
    description: 'The promotion this write was part of (`…/rest-connectors/promotions/{promotionId}`: its apply, or its revert); null for every other write.',
  })
  promotionId: string | null;

  @ApiProperty({ type: RestConnectorSnapshotDto, description: 'The record as a get showed it right after the write, without flows; secrets as placeholders.' })
  snapshot: RestConnectorSnapshotDto;
}

/** A CloudEvents 1.0 event in structured JSON mode (https://github.com/cloudevents/spec). */
export class ConnectorCloudEventDto {
  @ApiProperty({ enum: ['1.0'], example: '1.0' })
  specversion: '1.0';

  @ApiProperty({ format: 'uuid', description: "The event's id: the same in the feed and on JetStream, for ever. Deduplicate by it." })
  id: string;

  @ApiProperty({
    example: '/org/3fa85f64-5717-4562-b3fc-2c963f66afa6/env/…/bot/…/rest-connectors',
    description: "The bot's connectors: `/org/{orgUUID}/env/{envUUID}/bot/{botUUID}/rest-connectors`.",
  })
  source: string;

  @ApiProperty({ enum: Object.values(CONNECTOR_EVENT_TYPES), enumName: 'ConnectorEventType', example: CONNECTOR_EVENT_TYPES[VersionOperation.UPDATED] })
  type: ConnectorEventType;

  @ApiProperty({ format: 'uuid', description: "The connector's uuid." })
  subject: string;

  @ApiProperty({ format: 'date-time', description: 'When the write was made.' })
  time: string;

  @ApiProperty({ enum: ['application/json'], example: 'application/json' })
  datacontenttype: 'application/json';

  @ApiProperty({ type: ConnectorEventDataDto })
  data: ConnectorEventDataDto;
}

/** The CloudEvents `type` of a version of an environment's connector variables. */
export const CONNECTOR_VARIABLES_EVENT_TYPE = 'connector-variables.updated.v1';

/** What a write of an environment's connector variables changed, as its event carries it. */
export class ConnectorVariablesEventDataDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, example: 3, description: 'The version of the set after this write.' })
  version: number;

  @ApiProperty({ example: '"v3"', description: 'The ETag a read of the set answered right after this write.' })
  etag: string;

  @ApiProperty({ type: [ConnectorVariableChangeDto], description: 'The variables the write added, changed or removed; secrets by name only.' })
  changes: ConnectorVariableChangeDto[];

  @ApiProperty({ example: 'alice', description: 'Who made the write.' })
  updatedBy: string;

  @ReasonProperty()
  reason: string | null;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The promotion that made the write; null otherwise.' })
  promotionId: string | null;

  @ApiProperty({ type: [RecordedConnectorVariableDto], description: 'The set right after the write, by name; secret values as `<SECRET>` (null: none).' })
  variables: RecordedConnectorVariableDto[];
}

/** A change of an environment's connector variables, as a CloudEvents 1.0 event in structured JSON mode. */
export class ConnectorVariablesCloudEventDto {
  @ApiProperty({ enum: ['1.0'], example: '1.0' })
  specversion: '1.0';

  @ApiProperty({ format: 'uuid', description: "The event's id: the same in the feed and on JetStream, for ever. Deduplicate by it." })
  id: string;

  @ApiProperty({
    example: '/org/3fa85f64-5717-4562-b3fc-2c963f66afa6/env/…/connector-variables',
    description: "The environment's connector variables: `/org/{orgUUID}/env/{envUUID}/connector-variables`.",
  })
  source: string;

  @ApiProperty({ enum: [CONNECTOR_VARIABLES_EVENT_TYPE], example: CONNECTOR_VARIABLES_EVENT_TYPE })
  type: typeof CONNECTOR_VARIABLES_EVENT_TYPE;

  @ApiProperty({ format: 'uuid', description: "The environment's uuid." })
  subject: string;

  @ApiProperty({ format: 'date-time', description: 'When the write was made.' })
  time: string;

  @ApiProperty({ enum: ['application/json'], example: 'application/json' })
  datacontenttype: 'application/json';

  @ApiProperty({ type: ConnectorVariablesEventDataDto })
  data: ConnectorVariablesEventDataDto;
}

@ApiExtraModels(ConnectorCloudEventDto, ConnectorVariablesCloudEventDto)
export class ConnectorEventItemDto {
  @ApiProperty({
    example: 'q3Jt0cS1b2lM8WqTq5dR5m6J3E2FQW0hZk1w2lEoXg1c9vBn',
    description: 'Where this event is in the feed, opaque: `after` this cursor answers the events that follow it.',
  })
  cursor: string;

  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(ConnectorCloudEventDto) }, { $ref: getSchemaPath(ConnectorVariablesCloudEventDto) }],
    description: "A connector's change (`connector.*`), or a change of the environment's connector variables (`connector-variables.updated.v1`).",
  })
  event: ConnectorCloudEventDto | ConnectorVariablesCloudEventDto;
}

export class ConnectorEventFeedDto {
  @ApiProperty({
    type: [ConnectorEventItemDto],
    description: `The environment's events after the cursor, oldest first, in the one order every reader sees: at most \`limit\`, and at most ${EVENT_READ_MIB} of them.`,
  })
  events: ConnectorEventItemDto[];

  @ApiProperty({
    example: 'q3Jt0cS1b2lM8WqTq5dR5m6J3E2FQW0hZk1w2lEoXg1c9vBn',
    description:
      "Where to go on from, opaque: the last event's position when the page was cut (by `limit` or by bytes), else what the feed had numbered " +
      '(never behind the one sent). Send it as `after` next time.',
  })
  cursor: string;
}

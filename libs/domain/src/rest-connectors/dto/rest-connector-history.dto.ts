import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { VersionOperation } from '../rest-connector.enums';
import { INT32_MAX, PageNumber, toInteger } from './pagination-query.dto';
import { ConnectorUserDto, SpringPageDto } from './rest-connector-page.dto';
import { ConnectorTagDto } from './rest-connector-write.dto';
import { RestConnectorDto } from './rest-connector.dto';
import { PathUuid } from '../../scope/scope-params.dto';
import { CHANGE_REASON_MAX_LENGTH } from '../rest-connector-version.entity';

export const HISTORY_PAGE = { defaultSize: 20, maxSize: 100 } as const;

/** The record as a get showed it right after a write, without `flows`; secrets as placeholders. */
export class RestConnectorSnapshotDto extends OmitType(RestConnectorDto, ['flows'] as const) {}

/** Why a write was made, as its version and its event carry it. */
export const ReasonProperty = () =>
  ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: CHANGE_REASON_MAX_LENGTH,
    example: 'Vendor moved the API to v2 (ticket OPS-1234)',
    description: 'Why, as the writer said it in the Change-Reason header of the write; null when none was given.',
  });

/** The version a revert put back, as its version and its event carry it. */
export const RevertedToProperty = () =>
  ApiProperty({
    type: 'integer',
    format: 'int32',
    nullable: true,
    example: null,
    description: 'For a revert (an UPDATED version, a `connector.updated` event): the earlier version whose record the write put back; null otherwise.',
  });

/** One recorded write of a connector, as a page of versions lists it. */
export class RestConnectorVersionDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    example: 3,
    description: 'The connector\'s version after this write: its ETag then was `"v3"`.',
  })
  version: number;

  @ApiProperty({ enum: VersionOperation, enumName: 'VersionOperation', example: VersionOperation.UPDATED })
  operation: VersionOperation;

  @ApiProperty({ format: 'date-time', description: 'When the write was made.' })
  updatedAt: string;

  @ApiProperty({ example: 'alice', description: 'Who made the write.' })
  updatedBy: string;

  @ApiProperty({ type: ConnectorUserDto, description: 'Who made the write.' })
  user: ConnectorUserDto;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'auth0|64b7c0ffee',
    description: "The `sub` of the token that made the write, as the access log's `sub`; null for versions recorded before it was kept.",
  })
  sub: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '6f1c2b1e-9a53-4f5e-8d43-2f8f6f0b4a10',
    description:
      "The id of the request that made the write (its X-Request-Id, the access log line's `requestId`); null for versions recorded before it was kept.",
  })
  requestId: string | null;

  @ReasonProperty()
  reason: string | null;

  @RevertedToProperty()
  revertedTo: number | null;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    example: null,
    description:
      'The promotion that made this write (POST …/rest-connectors/promotions, or its revert: GET …/rest-connectors/promotions/{promotionId}); null for any other write.',
  })
  promotionId: string | null;

  @ApiProperty({
    type: [String],
    example: ['url', 'bearerToken', 'tags'],
    description:
      'The record fields whose value this write changed, secrets by name only. A creation lists every field it set; a deletion and a restore list none (the record is unchanged).',
  })
  changedFields: string[];
}

/** One version with the record it left. */
export class RestConnectorVersionDetailDto extends RestConnectorVersionDto {
  @ApiProperty({ type: RestConnectorSnapshotDto, description: 'The record as a get showed it right after this write, without flows; secrets as placeholders.' })
  snapshot: RestConnectorSnapshotDto;
}

export class RestConnectorVersionPageDto extends SpringPageDto {
  @ApiProperty({ type: [RestConnectorVersionDto], description: 'Newest first' })
  content: RestConnectorVersionDto[];
}

/** A deleted connector, as the trash lists it. */
export class DeletedRestConnectorDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty({ example: 'Weather forecast' })
  name: string;

  @ApiProperty({ type: [ConnectorTagDto] })
  tags: ConnectorTagDto[];

  @ApiProperty({ format: 'date-time' })
  deletedAt: string;

  @ApiProperty({ example: 'alice' })
  deletedBy: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, example: 4, description: "Its version in the trash (the delete's)" })
  version: number;

  @ApiProperty({ example: '"v4"', description: 'The If-Match of a restore of exactly this version (the ETag the delete answered)' })
  etag: string;
}

export class DeletedRestConnectorPageDto extends SpringPageDto {
  @ApiProperty({ type: [DeletedRestConnectorDto], description: 'Newest deletion first, uuid breaking ties' })
  content: DeletedRestConnectorDto[];
}

/** `page` and `linesPerPage` of the versions and the trash. */
export class HistoryPageQueryDto {
  @PageNumber()
  page: number = 1;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: HISTORY_PAGE.maxSize,
    default: HISTORY_PAGE.defaultSize,
    description: 'Items per page.',
  })
  @toInteger
  @Min(1)
  @Max(HISTORY_PAGE.maxSize)
  @IsInt()
  linesPerPage: number = HISTORY_PAGE.defaultSize;
}

const VERSION_MESSAGE = `$property must be a positive integer of at most ${INT32_MAX}`;

/** A version number in a path: an int32 of at least 1. */
function PathVersion(description: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX, description, example: 1 }),
    toInteger,
    Min(1, { message: VERSION_MESSAGE }),
    Max(INT32_MAX, { message: VERSION_MESSAGE }),
    IsInt({ message: VERSION_MESSAGE }),
  );
}

/** `…/{serviceUUID}/versions/{version}`: flat, as the other paths, so that validation reports in path order. */
export class RestConnectorVersionPath {
  @PathUuid('uuid of an organization')
  orgUUID: string;

  @PathUuid('uuid of an environment')
  envUUID: string;

  @PathUuid('uuid of a bot')
  botUUID: string;

  @PathUuid('uuid of a rest connector')
  serviceUUID: string;

  @PathVersion('A version number of the connector (the number of its ETag)')
  version: number;
}

/** `…/{serviceUUID}/versions/{version}/diff/{otherVersion}`. */
export class RestConnectorVersionDiffPath extends RestConnectorVersionPath {
  @PathVersion('The version to compare it with: the diff says what changed from `version` to this one')
  otherVersion: number;
}

/** One field whose value differs between two versions. */
export class RestConnectorFieldChangeDto {
  @ApiProperty({ example: 'url', description: 'A record field (one of those `changedFields` may name).' })
  field: string;

  @ApiProperty({ nullable: true, description: "Its value in `from`'s record; a secret as its placeholder (null when not set)." })
  from: unknown;

  @ApiProperty({ nullable: true, description: "Its value in `to`'s record; a secret as its placeholder (null when not set)." })
  to: unknown;
}

/** What changed in the record from one version to another. */
export class RestConnectorVersionDiffDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, example: 9, description: 'The version compared from.' })
  from: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, example: 12, description: 'The version compared to.' })
  to: number;

  @ApiProperty({
    type: [RestConnectorFieldChangeDto],
    description:
      "The fields whose value differs, in the record's order. A secret is listed when it was set, cleared or replaced by a write between the two " +
      '(values are never shown: both sides read as the placeholder); empty when the records are the same.',
  })
  changes: RestConnectorFieldChangeDto[];
}

export class RestConnectorRestoredDto {
  @ApiProperty({ example: 'Rest connector restored' })
  message: string;

  @ApiProperty({ format: 'uuid', description: 'uuid of the restored connector' })
  data: string;
}

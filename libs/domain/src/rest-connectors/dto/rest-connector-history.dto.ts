import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { VersionOperation } from '../rest-connector.enums';
import { INT32_MAX, PageNumber, toInteger } from './pagination-query.dto';
import { ConnectorUserDto, SpringPageDto } from './rest-connector-page.dto';
import { ConnectorTagDto } from './rest-connector-write.dto';
import { RestConnectorDto } from './rest-connector.dto';
import { PathUuid } from '../../scope/scope-params.dto';

export const HISTORY_PAGE = { defaultSize: 20, maxSize: 100 } as const;

/** The record as a get showed it right after a write, without `flows`; secrets as placeholders. */
export class RestConnectorSnapshotDto extends OmitType(RestConnectorDto, ['flows'] as const) {}

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

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: INT32_MAX,
    description: 'A version number of the connector (the number of its ETag)',
    example: 1,
  })
  @toInteger
  @Min(1, { message: VERSION_MESSAGE })
  @Max(INT32_MAX, { message: VERSION_MESSAGE })
  @IsInt({ message: VERSION_MESSAGE })
  version: number;
}

export class RestConnectorRestoredDto {
  @ApiProperty({ example: 'Rest connector restored' })
  message: string;

  @ApiProperty({ format: 'uuid', description: 'uuid of the restored connector' })
  data: string;
}

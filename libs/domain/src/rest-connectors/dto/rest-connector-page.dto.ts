import { ApiProperty } from '@nestjs/swagger';
import { ConnectorTagDto } from './rest-connector-write.dto';
import { FlowRefDto } from './rest-connector.dto';

export class ConnectorUserDto {
  @ApiProperty({ type: String, nullable: true, example: 'https://img.example.com/alice.png' })
  image: string | null;

  @ApiProperty({ example: 'alice' })
  username: string;
}

export class RestConnectorPageItemDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [FlowRefDto] })
  flows: FlowRefDto[];

  @ApiProperty({ type: [ConnectorTagDto] })
  tags: ConnectorTagDto[];

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty()
  updatedBy: string;

  @ApiProperty({ type: ConnectorUserDto, description: 'The user who last updated the connector.' })
  user: ConnectorUserDto;
}

export class SortDto {
  @ApiProperty({ example: false })
  empty: boolean;

  @ApiProperty({ example: true })
  sorted: boolean;

  @ApiProperty({ example: false })
  unsorted: boolean;
}

export class PageableDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 0 })
  offset: number;

  @ApiProperty({ type: SortDto })
  sort: SortDto;

  @ApiProperty({ example: true })
  paged: boolean;

  @ApiProperty({ example: false })
  unpaged: boolean;

  @ApiProperty({ type: 'integer', format: 'int32', description: '0-based page number', example: 0 })
  pageNumber: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 5 })
  pageSize: number;
}

/** Spring Data's `Page`, field for field, but its `content`: each page type adds that. */
export abstract class SpringPageDto {
  @ApiProperty({ type: 'integer', format: 'int32' })
  totalPages: number;

  @ApiProperty({ type: 'integer', format: 'int64' })
  totalElements: number;

  @ApiProperty({ type: 'integer', format: 'int32', description: 'linesPerPage' })
  size: number;

  @ApiProperty({ type: 'integer', format: 'int32', description: '0-based page number (page - 1)' })
  number: number;

  @ApiProperty({ type: 'integer', format: 'int32' })
  numberOfElements: number;

  @ApiProperty()
  first: boolean;

  @ApiProperty()
  last: boolean;

  @ApiProperty()
  empty: boolean;

  @ApiProperty({ type: SortDto })
  sort: SortDto;

  @ApiProperty({ type: PageableDto })
  pageable: PageableDto;
}

/** A page of the bot's active connectors. */
export class RestConnectorPageDto extends SpringPageDto {
  @ApiProperty({ type: [RestConnectorPageItemDto] })
  content: RestConnectorPageItemDto[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConnectorTagDto } from './rest-connector-write.dto';

/** An entry of a connector's `content`, as the flow editor stored it (meaning not given by the seed). */
export class ConnectorContentEntryDto {
  @ApiPropertyOptional() id?: string;
  @ApiPropertyOptional() option?: string;
  @ApiPropertyOptional() expressionCode?: string;
  @ApiPropertyOptional() connectedTo?: string;
  @ApiPropertyOptional() buttonText?: string;
  @ApiPropertyOptional() buttonType?: string;
  @ApiPropertyOptional() urlRedirect?: boolean;
  @ApiPropertyOptional() buttonUrl?: string;
  @ApiPropertyOptional() cockpitUUID?: string;
}

export class RestConnectorListItemDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [ConnectorTagDto] })
  tags: ConnectorTagDto[];

  @ApiProperty({ type: [ConnectorContentEntryDto] })
  content: ConnectorContentEntryDto[];
}

export class RestConnectorListDto {
  @ApiProperty({ type: [RestConnectorListItemDto] })
  data: RestConnectorListItemDto[];
}

import { ApiProperty } from '@nestjs/swagger';
import { SECRET_PLACEHOLDERS } from '../connector-secrets';
import { ApiKeyIn, AuthType, ContentType, GrantType, RequestType } from '../rest-connector.enums';
import { ConnectorHeaderDto, ConnectorTagDto } from './rest-connector-write.dto';

export class FlowRefDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty({ example: 'Order status' })
  name: string;
}

/** The full record of a connector (get by id). Secrets appear only as their placeholders. */
export class RestConnectorDto {
  @ApiProperty({ format: 'uuid', readOnly: true })
  uuid: string;

  @ApiProperty({ example: 'Weather forecast' })
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ enum: RequestType, enumName: 'RequestType' })
  requestType: RequestType;

  @ApiProperty({ example: 'https://api.weather.example.com/v1/forecast?city={{city}}' })
  url: string;

  @ApiProperty({ type: [ConnectorHeaderDto] })
  headers: ConnectorHeaderDto[];

  @ApiProperty({ enum: ContentType, enumName: 'ContentType' })
  contentType: ContentType;

  @ApiProperty({ enum: AuthType, enumName: 'AuthType' })
  authType: AuthType;

  @ApiProperty({ enum: GrantType, enumName: 'GrantType', nullable: true })
  grantType: GrantType | null;

  @ApiProperty({ type: String, nullable: true, example: SECRET_PLACEHOLDERS.basicToken })
  basicToken: string | null;

  @ApiProperty({ type: String, nullable: true, example: SECRET_PLACEHOLDERS.bearerToken })
  bearerToken: string | null;

  @ApiProperty({ type: String, nullable: true })
  clientId: string | null;

  @ApiProperty({ type: String, nullable: true, example: SECRET_PLACEHOLDERS.clientSecret })
  clientSecret: string | null;

  @ApiProperty({ type: String, nullable: true })
  oauthUrl: string | null;

  @ApiProperty({ type: String, nullable: true })
  authUsername: string | null;

  @ApiProperty({ type: String, nullable: true, example: SECRET_PLACEHOLDERS.authPassword })
  authPassword: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'X-API-Key', description: 'With AUTH_API_KEY: the header or query parameter carrying the key.' })
  apiKeyName: string | null;

  @ApiProperty({ enum: ApiKeyIn, enumName: 'ApiKeyIn', nullable: true, description: 'With AUTH_API_KEY: where the key is sent.' })
  apiKeyIn: ApiKeyIn | null;

  @ApiProperty({ type: String, nullable: true, example: SECRET_PLACEHOLDERS.apiKey })
  apiKey: string | null;

  @ApiProperty()
  body: string;

  @ApiProperty()
  output: string;

  @ApiProperty({ type: [ConnectorTagDto] })
  tags: ConnectorTagDto[];

  @ApiProperty({ type: [FlowRefDto], readOnly: true, description: 'Flows of the bot that use the connector.' })
  flows: FlowRefDto[];

  @ApiProperty({ format: 'date-time', readOnly: true, example: '2026-11-21T09:30:00.000Z' })
  updatedAt: string;

  @ApiProperty({ readOnly: true, example: 'alice' })
  updatedBy: string;
}

export class RestConnectorCreatedDto {
  @ApiProperty({
    format: 'uuid',
    description:
      "The new connector's id, assigned by the server: a version-7 UUID, time-ordered to the millisecond (it shows when the connector was created). Treat it as opaque.",
    example: '019a8f3e-5c1b-7d2a-9f4e-3b6c8d0e1f2a',
  })
  uuid: string;
}

export class RestConnectorUpdatedDto {
  @ApiProperty({ example: 'Rest connector updated' })
  message: string;

  @ApiProperty({ format: 'uuid', description: 'uuid of the updated connector' })
  data: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { Environment } from '../environment.entity';

export class EnvironmentApplicationDto {
  @ApiProperty({ example: '2.4.1' })
  version: string;

  @ApiProperty({ example: 'channel-gateway' })
  name: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { region: 'eu-west-1', replicas: '3' },
    description: 'Arbitrary keys, string values.',
  })
  properties: Record<string, string>;
}

/** An environment of an organization, field for field as the seed gives it. */
export class EnvironmentDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty({ format: 'uuid' })
  organizationUuid: string;

  @ApiProperty({ type: String, nullable: true })
  instanceUuid: string | null;

  @ApiProperty({ type: String, nullable: true })
  instanceName: string | null;

  @ApiProperty({ type: String, nullable: true })
  channelInstanceUuid: string | null;

  @ApiProperty({ type: String, nullable: true })
  channelInstanceName: string | null;

  @ApiProperty({ type: String, nullable: true })
  connectorInstanceUuid: string | null;

  @ApiProperty({ type: String, nullable: true })
  connectorInstanceName: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'acme-prod.bots.example.com' })
  dns: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://acme-prod.bots.example.com/api' })
  apiURL: string | null;

  @ApiProperty({ example: 'Production' })
  name: string;

  @ApiProperty({ description: 'True for an environment that was removed; it is still listed.' })
  removed: boolean;

  @ApiProperty({ type: String, nullable: true })
  channelApiUrl: string | null;

  @ApiProperty({ type: String, nullable: true })
  connectorApiUrl: string | null;

  @ApiProperty({ type: [EnvironmentApplicationDto] })
  applications: EnvironmentApplicationDto[];

  @ApiProperty({ type: [String], example: ['bots:read', 'connectors:write'] })
  permissions: string[];

  static from(environment: Environment): EnvironmentDto {
    return {
      uuid: environment.uuid,
      organizationUuid: environment.organizationUuid,
      instanceUuid: environment.instanceUuid,
      instanceName: environment.instanceName,
      channelInstanceUuid: environment.channelInstanceUuid,
      channelInstanceName: environment.channelInstanceName,
      connectorInstanceUuid: environment.connectorInstanceUuid,
      connectorInstanceName: environment.connectorInstanceName,
      dns: environment.dns,
      apiURL: environment.apiURL,
      name: environment.name,
      removed: Boolean(environment.removed),
      channelApiUrl: environment.channelApiUrl,
      connectorApiUrl: environment.connectorApiUrl,
      applications: environment.applications.map((app) => ({
        version: app.version,
        name: app.name,
        properties: { ...app.properties },
      })),
      permissions: [...environment.permissions],
    };
  }
}

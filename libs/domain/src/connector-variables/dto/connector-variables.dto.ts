import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ArrayOf } from '../../validation/array-of.validator';
import { SpringPageDto } from '../../rest-connectors/dto/rest-connector-page.dto';
import { ReasonProperty } from '../../rest-connectors/dto/rest-connector-history.dto';
import { ENV_VARIABLE_NAME, MAX_CONNECTOR_VARIABLES } from '../env-placeholders';
import { VariableChange } from '../connector-variable.entity';

/** The limits of a set of connector variables (docs/api-contract.md, "Connector variables"). */
export const CONNECTOR_VARIABLE_LIMITS = {
  variables: MAX_CONNECTOR_VARIABLES,
  name: 60,
  value: 8 * 1024,
  destinations: 20,
  destination: 2048,
} as const;

/** What a read shows, and a write may send back to keep it, for a stored secret variable's value. */
export const SECRET_VARIABLE_PLACEHOLDER = '<SECRET>';

const isSecret = (o: { secret?: unknown }) => o.secret === true;

/** One variable of a PUT: the whole set is sent, names left out are removed. */
export class ConnectorVariableWriteDto {
  @ApiProperty({
    example: 'BASE_URL',
    maxLength: CONNECTOR_VARIABLE_LIMITS.name,
    pattern: ENV_VARIABLE_NAME.source,
    description: 'What a connector writes as `{{env.NAME}}`: a letter or `_`, then letters, digits, `_`, `.` or `-`, at most 60 characters; case-sensitive.',
  })
  @IsDefined()
  @IsString()
  @Matches(ENV_VARIABLE_NAME, {
    message: 'name must start with a letter or _ and hold only letters, digits, _, . and -, at most 60 characters (connectors write it as {{env.NAME}})',
  })
  name: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: CONNECTOR_VARIABLE_LIMITS.value,
    example: 'https://api.example.com/v2',
    description:
      `The value, at most 8,192 characters. Of a secret variable: write-only; reads show \`${SECRET_VARIABLE_PLACEHOLDER}\`, and sending ` +
      `\`${SECRET_VARIABLE_PLACEHOLDER}\` back keeps the stored value while its destinations are not widened; null leaves it without a value ` +
      '(a connector that uses it cannot run until it is given). A plain variable needs a string.',
  })
  @ValidateIf((o: { secret?: unknown; value?: unknown }) => !isSecret(o) || o.value !== null)
  @IsDefined({ message: 'value must be a string (null only for a secret variable that is to be given its value later)' })
  @IsString({ message: 'value must be a string' })
  @MaxLength(CONNECTOR_VARIABLE_LIMITS.value, { message: `value must be at most ${CONNECTOR_VARIABLE_LIMITS.value} characters` })
  value: string | null;

  @ApiPropertyOptional({ default: false, description: 'A secret variable: sealed at rest, never answered, sent only to its destinations.' })
  @IsOptional()
  @IsBoolean()
  secret?: boolean;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: CONNECTOR_VARIABLE_LIMITS.destination },
    maxItems: CONNECTOR_VARIABLE_LIMITS.destinations,
    example: ['https://api.example.com'],
    description:
      'Of a secret variable: the origins (`scheme://host[:port]`, http or https) it may be sent to. Left out: the destinations of the ' +
      "environment's connectors that use it (a 400 when none uses it yet). Widening them requires the value again. Not allowed on a plain variable.",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CONNECTOR_VARIABLE_LIMITS.destinations, { message: `destinations must hold at most ${CONNECTOR_VARIABLE_LIMITS.destinations} origins` })
  @IsString({ each: true, message: 'each of destinations must be a string: an origin such as https://api.example.com' })
  @MaxLength(CONNECTOR_VARIABLE_LIMITS.destination, { each: true })
  destinations?: string[];
}

/** The body of `PUT …/connector-variables`: the whole set. */
export class ConnectorVariablesWriteDto {
  @ApiProperty({ type: [ConnectorVariableWriteDto], maxItems: CONNECTOR_VARIABLE_LIMITS.variables, description: 'The whole set; names left out are removed.' })
  @IsDefined()
  @ArrayOf(() => ConnectorVariableWriteDto, CONNECTOR_VARIABLE_LIMITS.variables)
  variables: ConnectorVariableWriteDto[];

  @ApiPropertyOptional({
    default: false,
    description:
      "Go on although the new values move where some connectors' stored secrets, or secret variables, would be sent (else 409 DESTINATIONS_MOVED): " +
      'those secrets and values are cleared, and must be sent again.',
  })
  @IsOptional()
  @IsBoolean()
  confirmDestinationMoves?: boolean;
}

/** One variable as a version recorded it (secrets as `<SECRET>`). */
export class RecordedConnectorVariableDto {
  @ApiProperty({ example: 'BASE_URL', maxLength: CONNECTOR_VARIABLE_LIMITS.name })
  name: string;

  @ApiProperty({ example: false })
  secret: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'https://api.example.com/v2',
    description: `A secret's as \`${SECRET_VARIABLE_PLACEHOLDER}\` (or null: no value).`,
  })
  value: string | null;

  @ApiProperty({ type: [String], example: [], description: 'Where a secret variable may be sent (`scheme://host:port`); empty for a plain one.' })
  destinations: string[];
}

/** One variable as a read shows it. */
export class ConnectorVariableDto extends RecordedConnectorVariableDto {
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ example: 'alice' })
  updatedBy: string;
}

/** An environment's connector variables. */
export class ConnectorVariablesDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    example: 3,
    description: 'The version of the set (its ETag is `"v3"`); 0 before its first write.',
  })
  version: number;

  @ApiProperty({ type: [ConnectorVariableDto], description: 'By name (byte order)' })
  variables: ConnectorVariableDto[];
}

/** A connector whose moved secrets a confirmed write cleared, or would clear. */
export class MovedConnectorSecretsDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty({ example: 'Weather forecast' })
  name: string;

  @ApiProperty({ format: 'uuid' })
  botUUID: string;

  @ApiProperty({ type: [String], example: ['bearerToken'], description: 'The secrets (fields, `headers.<name>`) whose destination moves.' })
  secrets: string[];

  @ApiProperty({ type: 'string', nullable: true, example: 'https://api.example.com', description: 'Where they were bound.' })
  from: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'https://api.example.net', description: 'Where they would now go; null when it cannot be told.' })
  to: string | null;
}

/** A secret variable the new set would send outside its destinations. */
export class MovedVariableDto {
  @ApiProperty({ example: 'STRIPE_KEY' })
  name: string;

  @ApiProperty({ type: [String], example: ['https://api.stripe.com'] })
  destinations: string[];

  @ApiProperty({
    type: [String],
    example: ['https://api.example.net'],
    description: 'Where the connectors that use it would now send it (null: cannot be told).',
  })
  to: Array<string | null>;
}

/** The answer of a PUT: the set as a read shows it, and what a confirmed move cleared. */
export class ConnectorVariablesWrittenDto extends ConnectorVariablesDto {
  @ApiProperty({
    example: 'Connector variables updated',
    description: '`Connector variables updated`, or `Connector variables unchanged` (no version, no event).',
  })
  message: string;

  @ApiProperty({ type: [MovedConnectorSecretsDto], description: 'Connectors whose moved secrets this write cleared (confirmDestinationMoves).' })
  clearedSecrets: MovedConnectorSecretsDto[];

  @ApiProperty({ type: [String], example: [], description: 'Secret variables whose value this write cleared (confirmDestinationMoves).' })
  clearedVariables: string[];
}

/** The 409 DESTINATIONS_MOVED: the platform's error body, and what would move. */
export class DestinationsMovedDto {
  @ApiProperty({ example: 409 })
  statusCode: number;

  @ApiProperty({ example: 'Conflict' })
  error: string;

  @ApiProperty({ example: 'DESTINATIONS_MOVED' })
  code: string;

  @ApiProperty({ example: 'The new connector variables move where 1 connector sends its secrets: …' })
  message: string;

  @ApiProperty()
  path: string;

  @ApiProperty({ format: 'date-time' })
  timestamp: string;

  @ApiProperty()
  requestId: string;

  @ApiProperty({ type: [MovedConnectorSecretsDto] })
  connectors: MovedConnectorSecretsDto[];

  @ApiProperty({ type: [MovedVariableDto] })
  variables: MovedVariableDto[];
}

/** What a version of the set did to one variable. */
export class ConnectorVariableChangeDto {
  @ApiProperty({ example: 'BASE_URL' })
  name: string;

  @ApiProperty({ example: false })
  secret: boolean;

  @ApiProperty({ enum: VariableChange, enumName: 'VariableChange', example: VariableChange.CHANGED })
  change: VariableChange;
}

/** One version of an environment's connector variables. */
export class ConnectorVariableSetVersionDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, example: 3 })
  version: number;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ example: 'alice' })
  updatedBy: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'auth0|64b7c0ffee', description: 'The `sub` of the token that made the write.' })
  sub: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The id of the request that made the write.' })
  requestId: string | null;

  @ReasonProperty()
  reason: string | null;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The promotion that made this version; null otherwise.' })
  promotionId: string | null;

  @ApiProperty({ type: [ConnectorVariableChangeDto], description: 'The variables this version added, changed or removed; secrets by name only.' })
  changes: ConnectorVariableChangeDto[];

  @ApiProperty({ type: [RecordedConnectorVariableDto], description: 'The set this version left, secrets as placeholders.' })
  variables: RecordedConnectorVariableDto[];
}

export class ConnectorVariableSetVersionPageDto extends SpringPageDto {
  @ApiProperty({ type: [ConnectorVariableSetVersionDto], description: 'Newest first' })
  content: ConnectorVariableSetVersionDto[];
}

import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsEnum,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { HTTP_TOKEN, IsHttpToken } from '../../http/validators/http-token.validator';
import { IsHttpUrlWithPlaceholders } from '../../http/validators/http-url.validator';
import { MaxBytes } from '../../http/validators/max-bytes.validator';
import { RequiredIf } from '../../http/validators/required-if.validator';
import { AuthType, ContentType, GrantType, RequestType } from '../rest-connector.enums';

export const LIMITS = {
  name: 100,
  description: 1000,
  url: 2048,
  headers: 50,
  headerName: 256,
  headerValueBytes: 8 * 1024,
  tags: 20,
  tagName: 50,
  payloadBytes: 64 * 1024,
  credential: 1000,
  secret: 8 * 1024,
} as const;

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

const isOAuth = (o: Record<string, unknown>) => o.authType === AuthType.AUTH_OAUTH2;
const grant = (g: GrantType) => (o: Record<string, unknown>) => isOAuth(o) && o.grantType === g;

/** A secret: write-only, required by one auth type, discarded by the others. */
const Secret = (placeholder: string, condition: (o: Record<string, unknown>) => boolean, when: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      maxLength: LIMITS.secret,
      example: placeholder,
      description: `Write-only. Required when ${when}. Reads show \`${placeholder}\`; sending \`${placeholder}\` back keeps the stored value.`,
    }),
    RequiredIf(condition, when),
    IsString(),
    MaxLength(LIMITS.secret),
  );

export class ConnectorHeaderDto {
  @ApiProperty({ example: 'Accept', maxLength: LIMITS.headerName, pattern: HTTP_TOKEN.source, description: 'An HTTP header name (RFC 9110 token).' })
  @IsDefined()
  @IsString()
  @IsHttpToken()
  @MaxLength(LIMITS.headerName)
  header: string;

  @ApiProperty({ example: 'application/json', maxLength: LIMITS.headerValueBytes, description: 'At most 8 KiB.' })
  @IsDefined()
  @IsString()
  @MaxBytes(LIMITS.headerValueBytes)
  value: string;
}

export class ConnectorTagDto {
  @ApiProperty({ example: 'weather', minLength: 1, maxLength: LIMITS.tagName })
  @IsDefined()
  @IsString()
  @trim
  @Length(1, LIMITS.tagName)
  name: string;
}

/** The body of create and update (both full writes). */
export class RestConnectorWriteDto {
  @ApiProperty({ example: 'Weather forecast', minLength: 1, maxLength: LIMITS.name, description: 'Unique among the bot\'s active connectors, case-insensitively; trimmed.' })
  @IsDefined()
  @IsString()
  @trim
  @Length(1, LIMITS.name)
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.description })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  description?: string | null;

  @ApiProperty({ enum: RequestType, enumName: 'RequestType', description: 'The HTTP method the connector uses.' })
  @IsDefined()
  @IsEnum(RequestType)
  requestType: RequestType;

  @ApiProperty({ example: 'https://api.weather.example.com/v1/forecast?city={{city}}', maxLength: LIMITS.url, description: 'Absolute http(s) URL; `{{variable}}` placeholders allowed.' })
  @IsDefined()
  @IsHttpUrlWithPlaceholders(LIMITS.url)
  url: string;

  @ApiPropertyOptional({ type: [ConnectorHeaderDto], maxItems: LIMITS.headers })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIMITS.headers)
  @ValidateNested({ each: true })
  @Type(() => ConnectorHeaderDto)
  headers?: ConnectorHeaderDto[];

  @ApiProperty({ enum: ContentType, enumName: 'ContentType', description: 'Content type of the request.' })
  @IsDefined()
  @IsEnum(ContentType)
  contentType: ContentType;

  @ApiProperty({ enum: AuthType, enumName: 'AuthType', description: 'Whether the connector authenticates, and how.' })
  @IsDefined()
  @IsEnum(AuthType)
  authType: AuthType;

  @ApiPropertyOptional({ enum: GrantType, enumName: 'GrantType', nullable: true, description: 'OAuth grant type; required with AUTH_OAUTH2.' })
  @RequiredIf(isOAuth, 'authType is AUTH_OAUTH2')
  @IsEnum(GrantType)
  grantType?: GrantType | null;

  @Secret('<BASIC_TOKEN>', (o) => o.authType === AuthType.AUTH_BASIC, 'authType is AUTH_BASIC')
  basicToken?: string | null;

  @Secret('<BEARER_TOKEN>', (o) => o.authType === AuthType.AUTH_BEARER, 'authType is AUTH_BEARER')
  bearerToken?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.credential, description: 'OAuth client id; required with AUTH_OAUTH2.' })
  @RequiredIf(isOAuth, 'authType is AUTH_OAUTH2')
  @IsString()
  @MaxLength(LIMITS.credential)
  clientId?: string | null;

  @Secret('<CLIENT_SECRET>', grant(GrantType.CLIENT_CREDENTIALS), 'authType is AUTH_OAUTH2 and grantType is CLIENT_CREDENTIALS')
  clientSecret?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.url, example: 'https://id.example.com/oauth/token', description: 'URL for OAuth authentication; required with AUTH_OAUTH2.' })
  @RequiredIf(isOAuth, 'authType is AUTH_OAUTH2')
  @IsHttpUrlWithPlaceholders(LIMITS.url)
  oauthUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.credential, description: 'OAuth username; required with grant type PASSWORD.' })
  @RequiredIf(grant(GrantType.PASSWORD), 'authType is AUTH_OAUTH2 and grantType is PASSWORD')
  @IsString()
  @MaxLength(LIMITS.credential)
  authUsername?: string | null;

  @Secret('<PASSWORD>', grant(GrantType.PASSWORD), 'authType is AUTH_OAUTH2 and grantType is PASSWORD')
  authPassword?: string | null;

  // maxLength in characters: 64 KiB of UTF-8 is at most that many; MaxBytes is the exact limit.
  @ApiProperty({ example: '', maxLength: LIMITS.payloadBytes, description: 'Body of the connector\'s request; may be empty; at most 64 KiB.' })
  @IsDefined()
  @IsString()
  @MaxBytes(LIMITS.payloadBytes)
  body: string;

  @ApiProperty({ example: '$.data', maxLength: LIMITS.payloadBytes, description: 'Expected parsing of the connector\'s output; may be empty; at most 64 KiB.' })
  @IsDefined()
  @IsString()
  @MaxBytes(LIMITS.payloadBytes)
  output: string;

  @ApiPropertyOptional({ type: [ConnectorTagDto], maxItems: LIMITS.tags, description: 'De-duplicated case-insensitively, first spelling kept.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIMITS.tags)
  @ValidateNested({ each: true })
  @Type(() => ConnectorTagDto)
  tags?: ConnectorTagDto[];

  // Read-only fields of the record: accepted and ignored, so that a GET-then-PUT round trip works.
  @ApiHideProperty() @Allow() uuid?: unknown;
  @ApiHideProperty() @Allow() flows?: unknown;
  @ApiHideProperty() @Allow() updatedAt?: unknown;
  @ApiHideProperty() @Allow() updatedBy?: unknown;
  @ApiHideProperty() @Allow() user?: unknown;
}

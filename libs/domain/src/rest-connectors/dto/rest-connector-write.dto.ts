import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsDefined, IsEnum, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { ArrayOf } from '../../validation/array-of.validator';
import { IsBasicCredentials } from '../../validation/basic-credentials.validator';
import { IsApiKeyName, IsApiKeyValue } from '../../validation/api-key-name.validator';
import { HTTP_TOKEN, IsHttpToken } from '../../validation/http-token.validator';
import { IsHttpUrlWithPlaceholders } from '../../validation/http-url.validator';
import { MaxBytes } from '../../validation/max-bytes.validator';
import { RequiredIf } from '../../validation/required-if.validator';
import { SingleLine } from '../../validation/single-line.validator';
import type { SecretField } from '../connector-fields';
import { SECRET_HEADER_PLACEHOLDER, SECRETS, usesSecret, whenSecretIsUsed } from '../connector-secrets';
import { MULTIPART_LIMITS } from '../multipart-parts';
import { ApiKeyIn, AuthType, ContentType, GrantType, RequestType } from '../rest-connector.enums';

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
const isApiKey = (o: Record<string, unknown>) => o.authType === AuthType.AUTH_API_KEY;

/** A secret: write-only, required by the auth settings that use it (SECRETS), discarded by the others. */
const Secret = (field: SecretField, what = '') => {
  const { placeholder, placement } = SECRETS[field];
  const placed = placement ? ` and ${placement.map((setting) => `\`${setting}\``).join(' and ')} stay as they were` : '';
  const when = whenSecretIsUsed(field);
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      maxLength: LIMITS.secret,
      example: placeholder,
      description:
        `Write-only. ${what}Required when ${when}. Reads show \`${placeholder}\`; sending \`${placeholder}\` back keeps the stored value ` +
        `while the URLs it is sent to keep their scheme, host, port and user info${placed}.`,
    }),
    RequiredIf((o) => usesSecret(field, o.authType, o.grantType), when),
    IsString(),
    MaxLength(LIMITS.secret),
    // Sent in the Authorization header of the connector's call.
    SingleLine(),
  );
};

export class ConnectorHeaderDto {
  @ApiProperty({ example: 'Accept', maxLength: LIMITS.headerName, pattern: HTTP_TOKEN.source, description: 'An HTTP header name (RFC 9110 token).' })
  @IsDefined()
  @IsString()
  @IsHttpToken()
  @MaxLength(LIMITS.headerName)
  header: string;

  @ApiProperty({
    example: 'application/json',
    maxLength: LIMITS.headerValueBytes,
    description:
      `At most 8 KiB; no CR, LF or NUL. Of a secret header: reads show \`${SECRET_HEADER_PLACEHOLDER}\`, and sending \`${SECRET_HEADER_PLACEHOLDER}\` ` +
      'back keeps the stored value.',
  })
  @IsDefined()
  @IsString()
  @MaxBytes(LIMITS.headerValueBytes)
  @SingleLine()
  value: string;

  @ApiPropertyOptional({
    type: Boolean,
    example: true,
    description:
      "A secret header (an API key, a tenant key beside the auth type's credential): its value is sealed at rest, sent as written (no " +
      `\`{{variable}}\` is filled in it), and shown only as \`${SECRET_HEADER_PLACEHOLDER}\` by reads, history, events, test runs and exports. ` +
      `Sending \`${SECRET_HEADER_PLACEHOLDER}\` with \`secret: true\` keeps the value stored for the secret header of that name ` +
      '(compared case-insensitively) while `url` keeps its scheme, host, port and user info. Reads show `secret: true` on secret headers only.',
  })
  @IsOptional()
  @IsBoolean()
  secret?: boolean;
}

export class ConnectorTagDto {
  @ApiProperty({ example: 'weather', minLength: 1, maxLength: LIMITS.tagName })
  @IsDefined()
  @IsString()
  @trim
  @Length(1, LIMITS.tagName)
  @SingleLine()
  name: string;
}

/** The body of create and update (both full writes). */
export class RestConnectorWriteDto {
  @ApiProperty({
    example: 'Weather forecast',
    minLength: 1,
    maxLength: LIMITS.name,
    description: "Unique among the bot's active connectors, case-insensitively; trimmed.",
  })
  @IsDefined()
  @IsString()
  @trim
  @Length(1, LIMITS.name)
  @SingleLine()
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

  @ApiProperty({
    example: 'https://api.weather.example.com/v1/forecast?city={{city}}',
    maxLength: LIMITS.url,
    description:
      'Absolute http(s) URL; `{{variable}}` placeholders allowed, but not in the scheme, user info, host or port when authType is not ' +
      'AUTH_NONE or a header is secret. `{{env.NAME}}` is the connector variable NAME of the environment in the path, filled as written: it may ' +
      'start the URL (`{{env.BASE_URL}}/v1/charges`, `{{env.SCHEME}}://{{env.HOST}}:{{env.PORT}}`) and stand in the destination of a URL that ' +
      'carries a secret when the environment defines it as a plain variable (a secret is bound to the destination so resolved); a secret ' +
      'variable never stands in a destination. Stored and read back with a lower-case scheme and exactly `//` after it (`HTTPS:host` becomes `https://host`).',
  })
  @IsDefined()
  @IsHttpUrlWithPlaceholders(LIMITS.url)
  @SingleLine()
  url: string;

  @ApiPropertyOptional({
    type: [ConnectorHeaderDto],
    maxItems: LIMITS.headers,
    description:
      'When authType is not AUTH_NONE, a header that names the host a front end routes by (`Host`, `X-Forwarded-Host`, `X-Host`, ' +
      "`X-Original-Host`, `X-Forwarded-Server`, `X-HTTP-Host-Override`, `X-Envoy-Original-Host`, `X-Envoy-Original-Dst-Host`, `Forwarded`'s " +
      '`host=`) must name the host and port of `url`, without `{{variable}}` placeholders, and one that routes by a path, scheme or port ' +
      '(`X-Original-URL`, `X-Rewrite-URL`, `X-Original-URI`, `X-Forwarded-Prefix`, `X-Forwarded-Uri`, `X-Forwarded-Path`, ' +
      '`X-Envoy-Original-Path`, `X-Forwarded-Proto`, `X-Forwarded-Scheme`, `X-Url-Scheme`, `X-Forwarded-Ssl`, `Front-End-Https`, ' +
      '`X-Forwarded-Port`) is refused. One `Content-Type` header may declare the media type the body is sent as, which must fit ' +
      '`contentType` (see contentType).',
  })
  @IsOptional()
  @ArrayOf(() => ConnectorHeaderDto, LIMITS.headers)
  headers?: ConnectorHeaderDto[];

  @ApiProperty({
    enum: ContentType,
    enumName: 'ContentType',
    description:
      'Content type of the request: how variables are written into the body, and the media type sent unless a `Content-Type` header ' +
      'declares one that fits (sent as written): APPLICATION_JSON `application/json` and every `+json` type (`application/merge-patch+json`), ' +
      'APPLICATION_FORM_URLENCODED `application/x-www-form-urlencoded`, MULTIPART_FORM_DATA `multipart/form-data` (the platform adds the ' +
      'boundary), TEXT_PLAIN and APPLICATION_XML any other non-multipart type (`text/csv`), NONE none. Another is a 400 naming what fits.',
  })
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

  @Secret('basicToken', 'The Base64 of `user-id:password` (RFC 7617), sent as `Authorization: Basic <basicToken>`. ')
  @IsBasicCredentials((o) => usesSecret('basicToken', o.authType, o.grantType), SECRETS.basicToken.placeholder)
  basicToken?: string | null;

  @Secret('bearerToken')
  bearerToken?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.credential, description: 'OAuth client id; required with AUTH_OAUTH2.' })
  @RequiredIf(isOAuth, 'authType is AUTH_OAUTH2')
  @IsString()
  @MaxLength(LIMITS.credential)
  @SingleLine()
  clientId?: string | null;

  @Secret('clientSecret')
  clientSecret?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: LIMITS.url,
    example: 'https://id.example.com/oauth/token',
    description:
      'URL for OAuth authentication; required with AUTH_OAUTH2, and then without `{{variable}}` in its scheme, user info, host or port ' +
      '(a plain `{{env.NAME}}` the environment defines may stand there, as in `url`). Stored in the canonical form of `url`.',
  })
  @RequiredIf(isOAuth, 'authType is AUTH_OAUTH2')
  @IsHttpUrlWithPlaceholders(LIMITS.url)
  @SingleLine()
  oauthUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.credential, description: 'OAuth username; required with grant type PASSWORD.' })
  // The username goes with the password: required exactly where authPassword is.
  @RequiredIf((o) => usesSecret('authPassword', o.authType, o.grantType), whenSecretIsUsed('authPassword'))
  @IsString()
  @MaxLength(LIMITS.credential)
  @SingleLine()
  authUsername?: string | null;

  @Secret('authPassword')
  authPassword?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: LIMITS.headerName,
    example: 'X-API-Key',
    description:
      'The header (an HTTP token) or query parameter that carries the API key; required with AUTH_API_KEY, kept only with it. ' +
      'A header the HTTP client sets itself, or one that routes the call (Host, Forwarded, …), cannot carry it.',
  })
  @RequiredIf(isApiKey, 'authType is AUTH_API_KEY')
  @IsString()
  @MaxLength(LIMITS.headerName)
  @SingleLine()
  @IsApiKeyName()
  apiKeyName?: string | null;

  @ApiPropertyOptional({ enum: ApiKeyIn, enumName: 'ApiKeyIn', nullable: true, description: 'Where the API key is sent; required with AUTH_API_KEY.' })
  @RequiredIf(isApiKey, 'authType is AUTH_API_KEY')
  @IsEnum(ApiKeyIn)
  apiKeyIn?: ApiKeyIn | null;

  @Secret('apiKey', 'Sent as the header (printable ASCII) or query parameter (percent-encoded) `apiKeyName`. ')
  @IsApiKeyValue()
  apiKey?: string | null;

  // maxLength in characters: 64 KiB of UTF-8 is at most that many; MaxBytes is the exact limit.
  @ApiProperty({
    example: '',
    maxLength: LIMITS.payloadBytes,
    description:
      "Body of the connector's request; may be empty; at most 64 KiB. With MULTIPART_FORM_DATA, the text of a JSON array of at most " +
      `${MULTIPART_LIMITS.parts} parts, each \`{"name": "…", "value": "…"}\` (text, \`{{variable}}\` placeholders allowed) or ` +
      '`{"name": "…", "base64": "…"}` (a file\'s bytes), with an optional one-line `filename` and a `contentType` media type: ' +
      '`[{"name": "to", "value": "{{email}}"}, {"name": "photo", "base64": "iVBORw0KGgo=", "filename": "p.png", "contentType": "image/png"}]`.',
  })
  @IsDefined()
  @IsString()
  @MaxBytes(LIMITS.payloadBytes)
  body: string;

  @ApiProperty({ example: '$.data', maxLength: LIMITS.payloadBytes, description: "Expected parsing of the connector's output; may be empty; at most 64 KiB." })
  @IsDefined()
  @IsString()
  @MaxBytes(LIMITS.payloadBytes)
  output: string;

  @ApiPropertyOptional({ type: [ConnectorTagDto], maxItems: LIMITS.tags, description: 'De-duplicated case-insensitively, first spelling kept.' })
  @IsOptional()
  @ArrayOf(() => ConnectorTagDto, LIMITS.tags)
  tags?: ConnectorTagDto[];

  // Read-only fields of the record: accepted and ignored, so that a GET-then-PUT round trip works.
  @ApiHideProperty() @Allow() uuid?: unknown;
  @ApiHideProperty() @Allow() flows?: unknown;
  @ApiHideProperty() @Allow() updatedAt?: unknown;
  @ApiHideProperty() @Allow() updatedBy?: unknown;
  @ApiHideProperty() @Allow() user?: unknown;
}

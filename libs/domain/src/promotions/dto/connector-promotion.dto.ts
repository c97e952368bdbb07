import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ArrayOf } from '../../validation/array-of.validator';
import { HTTP_TOKEN, IsHttpToken } from '../../validation/http-token.validator';
import { MaxBytes } from '../../validation/max-bytes.validator';
import { SingleLine } from '../../validation/single-line.validator';
import { ReasonProperty } from '../../rest-connectors/dto/rest-connector-history.dto';
import { SpringPageDto } from '../../rest-connectors/dto/rest-connector-page.dto';
import { LIMITS } from '../../rest-connectors/dto/rest-connector-write.dto';
import { PathUuid } from '../../scope/scope-params.dto';
import { PromotionAction } from '../connector-promotion.entity';

/** How many connectors' secrets one promotion request may give. */
export const PROMOTION_LIMITS = { secrets: 1000 } as const;

/** `sha256:` and 64 hexadecimal digits. */
export const PROMOTION_DIGEST = /^sha256:[0-9a-f]{64}$/;

/** What the target needs of a secret the promoted connector uses. */
export enum PromotionSecretStatus {
  /** The target stores one for it, and where it goes in the target's environment is unchanged: it stays. */
  KEPT = 'KEPT',
  /** The request gives it. */
  GIVEN = 'GIVEN',
  /** Neither: an apply is refused until the request gives it. */
  NEEDED = 'NEEDED',
}

/** `…/bot/{botUUID}/rest-connectors/promotions/{promotionId}`: flat, as the other paths. */
export class PromotionPath {
  @PathUuid('uuid of an organization')
  orgUUID: string;

  @PathUuid('uuid of an environment')
  envUUID: string;

  @PathUuid('uuid of a bot')
  botUUID: string;

  @PathUuid('id of a promotion of the bot')
  promotionId: string;
}

/** The bot a promotion takes its connectors from. */
export class PromotionSourceDto {
  @PathUuid('uuid of the source environment, in the same organization')
  envUUID: string;

  @PathUuid('uuid of the source bot, in that environment')
  botUUID: string;
}

/** A secret given for the target: write-only, never answered. */
const Given = (what: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: LIMITS.secret, writeOnly: true, description: `Write-only: ${what} for this connector in the target.` }),
    IsOptional(),
    IsString(),
    MaxLength(LIMITS.secret),
    SingleLine(),
  );

export class PromotionSecretHeaderDto {
  @ApiProperty({
    example: 'X-Api-Key',
    maxLength: LIMITS.headerName,
    pattern: HTTP_TOKEN.source,
    description: 'A secret header of the connector, by name (case-insensitively).',
  })
  @IsDefined()
  @IsString()
  @IsHttpToken()
  @MaxLength(LIMITS.headerName)
  header: string;

  @ApiProperty({ maxLength: LIMITS.headerValueBytes, writeOnly: true, description: "Write-only: the header's value in the target." })
  @IsDefined()
  @IsString()
  @MaxBytes(LIMITS.headerValueBytes)
  @SingleLine()
  value: string;
}

/** The target's secrets of one promoted connector, given by the request: never copied from the source. */
export class PromotionSecretsDto {
  @ApiProperty({ example: 'Weather forecast', maxLength: LIMITS.name, description: 'The connector, by its name in the source (case-insensitively).' })
  @IsDefined()
  @IsString()
  @MaxLength(LIMITS.name)
  connector: string;

  @Given('the basic token')
  basicToken?: string;

  @Given('the bearer token')
  bearerToken?: string;

  @Given('the OAuth 2.0 client secret')
  clientSecret?: string;

  @Given('the OAuth 2.0 password')
  authPassword?: string;

  @Given('the API key')
  apiKey?: string;

  @ApiPropertyOptional({ type: [PromotionSecretHeaderDto], maxItems: LIMITS.headers, description: 'The values of its secret headers.' })
  @IsOptional()
  @ArrayOf(() => PromotionSecretHeaderDto, LIMITS.headers)
  headers?: PromotionSecretHeaderDto[];
}

/** Body of `POST …/rest-connectors/promotions`. */
export class PromotionRequestDto {
  @ApiProperty({ type: PromotionSourceDto, description: "The bot whose connectors are promoted into the path's bot: another bot of the organization." })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PromotionSourceDto)
  source: PromotionSourceDto;

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'true (the default): answer the plan and write nothing. false: apply the plan named by `digest`.',
  })
  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === null ? true : value))
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: "Delete the target's connectors that the source has no connector of that name for." })
  @IsOptional()
  @IsBoolean()
  prune?: boolean;

  @ApiPropertyOptional({
    type: String,
    maxLength: 71,
    pattern: PROMOTION_DIGEST.source,
    example: 'sha256:9f2c0d3b5e6a7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f701',
    description: "The plan's digest, as a dry run answered it: required with dryRun false. 409 when either side changed since.",
  })
  @IsOptional()
  @IsString()
  @Matches(PROMOTION_DIGEST, { message: 'digest must be the digest a dry run answered (sha256: and 64 hexadecimal digits)' })
  digest?: string;

  @ApiPropertyOptional({
    type: [PromotionSecretsDto],
    maxItems: PROMOTION_LIMITS.secrets,
    description: 'Secrets the target needs (the plan lists them as NEEDED), per connector: a secret is never copied from the source.',
  })
  @IsOptional()
  @ArrayOf(() => PromotionSecretsDto, PROMOTION_LIMITS.secrets)
  secrets?: PromotionSecretsDto[];
}

export class PromotionBotDto {
  @ApiProperty({ format: 'uuid' })
  envUUID: string;

  @ApiProperty({ format: 'uuid' })
  botUUID: string;
}

export class PromotionSecretDto {
  @ApiProperty({ example: 'bearerToken', description: 'A secret field (`bearerToken`, …) or a secret header (`headers.X-Api-Key`).' })
  secret: string;

  @ApiProperty({ enum: PromotionSecretStatus, enumName: 'PromotionSecretStatus', example: PromotionSecretStatus.KEPT })
  status: PromotionSecretStatus;
}

export class PromotionPlanItemDto {
  @ApiProperty({ example: 'Weather forecast' })
  name: string;

  @ApiProperty({ enum: PromotionAction, enumName: 'PromotionAction', example: PromotionAction.UPDATE })
  action: PromotionAction;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The source connector; null for a DELETE.' })
  sourceUuid: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The target connector; null for a CREATE.' })
  targetUuid: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, example: 7 })
  sourceVersion: number | null;

  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, example: 3 })
  targetVersion: number | null;

  @ApiProperty({
    type: [String],
    example: ['url', 'tags'],
    description: 'The record fields the promotion changes (secrets by name: set, cleared or given); every field set for a CREATE.',
  })
  changedFields: string[];

  @ApiProperty({ type: [PromotionSecretDto], description: 'Each secret the promoted connector uses, and where its value comes from in the target.' })
  secrets: PromotionSecretDto[];
}

export class PromotionVariablesDto {
  @ApiProperty({
    type: [String],
    example: ['BASE_URL'],
    description: "`{{env.NAME}}` the source's connectors use that the target environment does not define.",
  })
  missing: string[];

  @ApiProperty({
    type: [String],
    example: [],
    description: "Secret variables of the target environment that the source's connectors use and that have no value.",
  })
  withoutValue: string[];
}

export class PromotionCountsDto {
  @ApiProperty({ type: 'integer', format: 'int32', example: 1 })
  create: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 2 })
  update: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 0 })
  delete: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 5 })
  unchanged: number;
}

/** A dry run's answer: what an apply with its digest would do. */
export class PromotionPlanDto {
  @ApiProperty({ type: PromotionBotDto })
  source: PromotionBotDto;

  @ApiProperty({ type: PromotionBotDto })
  target: PromotionBotDto;

  @ApiProperty({
    example: 'sha256:9f2c0d3b5e6a7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f701',
    description: 'Send it back with dryRun false to apply this plan.',
  })
  digest: string;

  @ApiProperty()
  prune: boolean;

  @ApiProperty({ type: [PromotionPlanItemDto], description: 'Every connector of either side, by name.' })
  connectors: PromotionPlanItemDto[];

  @ApiProperty({ type: PromotionVariablesDto })
  variables: PromotionVariablesDto;

  @ApiProperty({ type: PromotionCountsDto })
  counts: PromotionCountsDto;
}

export class PromotionItemDto {
  @ApiProperty({ format: 'uuid' })
  connectorUuid: string;

  @ApiProperty({ example: 'Weather forecast' })
  name: string;

  @ApiProperty({ enum: [PromotionAction.CREATE, PromotionAction.UPDATE, PromotionAction.DELETE], enumName: 'PromotionItemAction' })
  action: PromotionAction;

  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, description: 'Its version before the promotion; null for a created one.' })
  versionBefore: number | null;

  @ApiProperty({ type: 'integer', format: 'int32', description: 'The version the promotion wrote: a revert is refused while it is no longer the current one.' })
  versionAfter: number;
}

/** An applied promotion as its list shows it. */
export class PromotionSummaryDto {
  @ApiProperty({ format: 'uuid', description: "The promotion's id: the versions and change events it wrote name it (`promotionId`)." })
  uuid: string;

  @ApiProperty({ type: PromotionBotDto })
  source: PromotionBotDto;

  @ApiProperty({ type: PromotionBotDto })
  target: PromotionBotDto;

  @ApiProperty()
  prune: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ example: 'alice' })
  createdBy: string;

  @ApiProperty({ type: String, nullable: true, example: 'auth0|64b7c0ffee' })
  sub: string | null;

  @ApiProperty({ example: '6f1c2b1e-9a53-4f5e-8d43-2f8f6f0b4a10' })
  requestId: string;

  @ReasonProperty()
  reason: string | null;

  @ApiProperty({ type: PromotionCountsDto })
  counts: PromotionCountsDto;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was reverted; null while it is not.' })
  revertedAt: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  revertedBy: string | null;
}

/** An applied promotion with what it did to each connector. */
export class PromotionDto extends PromotionSummaryDto {
  @ApiProperty({ type: [PromotionItemDto], description: 'Each connector it created, updated or deleted (unchanged ones are only counted).' })
  items: PromotionItemDto[];
}

export class PromotionPageDto extends SpringPageDto {
  @ApiProperty({ type: [PromotionSummaryDto], description: 'Newest first' })
  content: PromotionSummaryDto[];
}

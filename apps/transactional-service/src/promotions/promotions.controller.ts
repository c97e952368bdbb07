import {
  BotPath,
  ConsistencyScope,
  HistoryPageQueryDto,
  PromotionDto,
  PromotionPageDto,
  PromotionPath,
  PromotionPlanDto,
  PromotionRequestDto,
} from '@app/domain';
import {
  ACCEPTABLE_IDEMPOTENCY_KEY,
  ApiErrorResponses,
  CONNECTORS_WRITE_SCOPE,
  IdempotencyKeyHeader,
  PLATFORM_APPS,
  RequestConsistency,
  RequireScope,
  SentBody,
} from '@app/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiChangeReasonHeader, Author, WriteAuthor } from '../rest-connectors/author';
import { PROMOTION_EXAMPLES } from './promotion.examples';
import { PromotionReads } from './promotion-reads.service';
import { PromoteConnectors } from './use-cases/promote-connectors.use-case';
import { RevertPromotion } from './use-cases/revert-promotion.use-case';

const { label } = PLATFORM_APPS.transactionalService;

// Registered before the connectors' `:serviceUUID`, which would otherwise capture `promotions`.
@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@ApiExtraModels(PromotionPlanDto)
@Controller('org/:orgUUID/env/:envUUID/bot/:botUUID/rest-connectors/promotions')
export class PromotionsController {
  constructor(
    private readonly promote: PromoteConnectors,
    private readonly revert: RevertPromotion,
    private readonly reads: PromotionReads,
  ) {}

  @Post()
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: "Promote another bot's connectors into this bot",
    description:
      "Plans, then applies, the promotion of the source bot's connectors (another bot of the organization, usually in another environment) into " +
      "the path's bot, matched by name: CREATE, UPDATE (the fields that change), UNCHANGED, and with `prune` DELETE. `dryRun` (the default) answers " +
      "the plan (200) with its digest, the connector variables the source's connectors use that the target environment lacks, and each secret the " +
      "target needs: secrets are never copied from the source; the target's own is KEPT while where it goes in the target's environment is unchanged, " +
      'or is given in `secrets`. `dryRun: false` with the digest applies that plan in one transaction (201 with the promotion): a version and a change ' +
      'event per connector, each naming the promotion; 409 when either side changed since the plan; 400 naming each NEEDED secret or missing variable.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Makes retries of an apply safe for 24 h, as for creates: the same key and body answer the first promotion and apply nothing again.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: ACCEPTABLE_IDEMPOTENCY_KEY.source },
  })
  @ApiChangeReasonHeader()
  @ApiBody({ type: PromotionRequestDto, examples: PROMOTION_EXAMPLES })
  @ApiOkResponse({ type: PromotionPlanDto, description: 'The plan (a dry run): nothing was written' })
  @ApiCreatedResponse({
    type: PromotionDto,
    description: 'Applied',
    headers: { Location: { description: 'URL of the promotion', schema: { type: 'string' } } },
  })
  @ApiErrorResponses(409, 413, 415, 422)
  async promoteRestConnectors(
    @Param() path: BotPath,
    @Body() dto: PromotionRequestDto,
    @WriteAuthor() author: Author,
    @IdempotencyKeyHeader() key: string | undefined,
    @SentBody() sentBody: unknown,
    @Res({ passthrough: true }) res: Response,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<PromotionPlanDto | PromotionDto> {
    if (dto.dryRun !== false) {
      res.status(200);
      return this.promote.plan(path, dto);
    }
    const promotion = await this.promote.apply({ path, dto, author, retry: key === undefined ? undefined : { key, sentBody }, consistency });
    res.status(201);
    res.setHeader('Location', `/${label}/org/${path.orgUUID}/env/${path.envUUID}/bot/${path.botUUID}/rest-connectors/promotions/${promotion.uuid}`);
    return promotion;
  }

  @Get()
  @ApiOperation({
    summary: "The bot's promotions",
    description: 'Every promotion applied to the bot, newest first: who, when, from which bot, the counts, and whether it was reverted.',
  })
  @ApiOkResponse({ type: PromotionPageDto, description: "A page of the bot's promotions (Spring Data `Page`)" })
  restConnectorPromotions(
    @Param() path: BotPath,
    @Query() query: HistoryPageQueryDto,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<PromotionPageDto> {
    return this.reads.page(path, query, consistency);
  }

  @Get(':promotionId')
  @ApiOperation({ summary: 'One promotion', description: 'The promotion with what it did to each connector: its version before and the version it left.' })
  @ApiOkResponse({ type: PromotionDto, description: 'The promotion' })
  restConnectorPromotion(@Param() { promotionId, ...path }: PromotionPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<PromotionDto> {
    return this.reads.get(path, promotionId, consistency);
  }

  @Post(':promotionId/revert')
  @HttpCode(200)
  @RequireScope(CONNECTORS_WRITE_SCOPE)
  @ApiOperation({
    summary: 'Revert a promotion',
    description:
      'Puts every connector the promotion wrote back to its version before it, in one transaction: updated ones get their record back (their stored ' +
      'secrets kept while their destinations are unchanged), created ones go to the trash, deleted ones are restored; each a version and a change ' +
      'event naming the promotion. 409 naming every connector changed since the promotion, or when it was reverted already.',
  })
  @ApiChangeReasonHeader()
  @ApiOkResponse({ type: PromotionDto, description: 'Reverted: the promotion, with `revertedAt` and `revertedBy`' })
  @ApiErrorResponses(409)
  revertRestConnectorPromotion(
    @Param() path: PromotionPath,
    @WriteAuthor() author: Author,
    @RequestConsistency() consistency?: ConsistencyScope,
  ): Promise<PromotionDto> {
    return this.revert.execute({ path, author, consistency });
  }
}

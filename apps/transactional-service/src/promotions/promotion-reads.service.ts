import {
  BotPath,
  ConnectorPromotion,
  ConnectorPromotionRepository,
  HistoryPageQueryDto,
  PromotionAction,
  PromotionDto,
  PromotionPageDto,
  PromotionSummary,
  PromotionSummaryDto,
  ReadFrom,
  ScopeService,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { toPage } from '../rest-connectors/connector-views';
import { PromotionNotFoundException } from './promotion.exceptions';

/** A promotion as its list shows it. */
export function toPromotionSummary(row: PromotionSummary): PromotionSummaryDto {
  return {
    uuid: row.uuid,
    source: { envUUID: row.sourceEnvironmentUuid, botUUID: row.sourceBotUuid },
    target: { envUUID: row.environmentUuid, botUUID: row.botUuid },
    prune: row.prune,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    sub: row.createdBySub,
    requestId: row.requestId,
    reason: row.reason,
    counts: { create: row.created, update: row.updated, delete: row.deleted, unchanged: row.unchanged },
    revertedAt: row.revertedAt?.toISOString() ?? null,
    revertedBy: row.revertedBy,
  };
}

/** A promotion with its items. */
export function toPromotion(row: ConnectorPromotion): PromotionDto {
  return {
    ...toPromotionSummary(row),
    items: row.items.map(({ connectorUuid, name, action, versionBefore, versionAfter }) => ({
      connectorUuid,
      name,
      action: action as PromotionAction,
      versionBefore,
      versionAfter,
    })),
  };
}

/** The reads of a bot's promotions: the list, newest first, and one with its items; each in the path's scope or its 404. */
@Injectable()
export class PromotionReads {
  constructor(
    private readonly scope: ScopeService,
    private readonly promotions: ConnectorPromotionRepository,
  ) {}

  async page(path: BotPath, { page, linesPerPage }: HistoryPageQueryDto, from?: ReadFrom): Promise<PromotionPageDto> {
    const found = (await this.scope.inPath(path, await this.promotions.page(path, (page - 1) * linesPerPage, linesPerPage, from), from)) ?? {
      rows: [],
      total: 0,
    };
    return toPage(found.rows.map(toPromotionSummary), found.total, page, linesPerPage);
  }

  async get(path: BotPath, promotionId: string, from?: ReadFrom): Promise<PromotionDto> {
    const found = await this.scope.inPath(path, await this.promotions.one(path, promotionId, from), from);
    if (!found) throw new PromotionNotFoundException(path.botUUID, promotionId);
    return toPromotion(found);
  }
}

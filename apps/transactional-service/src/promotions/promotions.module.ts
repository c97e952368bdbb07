import { ConnectorPromotionRepository, ConnectorVariableRepository, DomainModule } from '@app/domain';
import { Module } from '@nestjs/common';
import { RestConnectorsModule } from '../rest-connectors/rest-connectors.module';
import { PromotionReads } from './promotion-reads.service';
import { PromotionsController } from './promotions.controller';
import { PromoteConnectors } from './use-cases/promote-connectors.use-case';
import { RevertPromotion } from './use-cases/revert-promotion.use-case';

/** Promotions of a bot's connectors from another bot: plan, apply, list, revert; through the connectors' own writes (RestConnectorsModule). */
@Module({
  imports: [RestConnectorsModule, DomainModule.with(ConnectorPromotionRepository, ConnectorVariableRepository)],
  controllers: [PromotionsController],
  providers: [PromoteConnectors, RevertPromotion, PromotionReads],
})
export class PromotionsModule {}

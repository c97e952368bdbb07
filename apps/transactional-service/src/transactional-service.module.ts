import { Module } from '@nestjs/common';
import { ConnectorEventsModule } from './connector-events/connector-events.module';
import { ConnectorVariablesModule } from './connector-variables/connector-variables.module';
import { PromotionsModule } from './promotions/promotions.module';
import { RestConnectorsModule } from './rest-connectors/rest-connectors.module';

/**
 * The platform-transactional-service group: rest connectors (with test runs, history and trash), their promotions,
 * the environments' connector variables, and their change events. PromotionsModule first: its routes (`…/rest-connectors/promotions`) are registered before the
 * connectors' `:serviceUUID`, which would otherwise capture them.
 */
@Module({ imports: [PromotionsModule, RestConnectorsModule, ConnectorVariablesModule, ConnectorEventsModule] })
export class TransactionalServiceModule {}

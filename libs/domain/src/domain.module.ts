import { Module } from '@nestjs/common';
import { BotRepository } from './bots/bot.repository';
import { EnvironmentRepository } from './environments/environment.repository';
import { IdempotencyRepository } from './idempotency/idempotency.repository';
import { IdempotencyService } from './idempotency/idempotency.service';
import { ConnectorHistoryRepository } from './rest-connectors/connector-history.repository';
import { ConnectorRelationsRepository } from './rest-connectors/connector-relations.repository';
import { RestConnectorSearchRepository } from './rest-connectors/rest-connector-search.repository';
import { RestConnectorRepository } from './rest-connectors/rest-connector.repository';
import { ScopeRepository } from './scope/scope.repository';
import { ScopeService } from './scope/scope.service';

const PROVIDERS = [
  EnvironmentRepository,
  BotRepository,
  ScopeRepository,
  ScopeService,
  RestConnectorRepository,
  RestConnectorSearchRepository,
  ConnectorRelationsRepository,
  ConnectorHistoryRepository,
  IdempotencyRepository,
  IdempotencyService,
];

/** The repositories and domain services the apps' feature modules build on; the Database they use is the platform's (DatabaseModule). */
@Module({
  providers: PROVIDERS,
  exports: PROVIDERS,
})
export class DomainModule {}

import { DomainModule } from '@app/domain';
import { Module } from '@nestjs/common';
import { RestConnectorSearchService } from './rest-connector-search.service';
import { RestConnectorsController } from './rest-connectors.controller';
import { RestConnectorsService } from './rest-connectors.service';
import { Outbound } from './test-runs/outbound.providers';
import { TestRunRateLimitGuard, TestRunSlots } from './test-runs/test-run-limits';
import { TestRunMetrics } from './test-runs/test-run-metrics';
import { TestRunsController } from './test-runs/test-runs.controller';
import { TestRunsService } from './test-runs/test-runs.service';

/** Rest connectors of a bot: the operations of the platform-transactional-service group, and their test runs. */
@Module({
  imports: [DomainModule],
  // The test runs' fixed `test` sub-path before the connectors' `:serviceUUID`.
  controllers: [TestRunsController, RestConnectorsController],
  providers: [RestConnectorsService, RestConnectorSearchService, TestRunsService, Outbound, TestRunSlots, TestRunRateLimitGuard, TestRunMetrics],
})
export class RestConnectorsModule {}

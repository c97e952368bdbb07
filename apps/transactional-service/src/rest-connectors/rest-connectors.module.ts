import {
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  ConnectorRelationsRepository,
  ConnectorTestRunRepository,
  ConnectorVariableRepository,
  DomainModule,
  IdempotencyRepository,
  IdempotencyService,
  RestConnectorRepository,
  RestConnectorSearchRepository,
} from '@app/domain';
import { Module } from '@nestjs/common';
import { ConnectorVariablesModule } from '../connector-variables/connector-variables.module';
import { ConnectorEnvironments } from './connector-environment';
import { ConnectorHistoryController } from './history/connector-history.controller';
import { ConnectorExportService } from './import-export/connector-export.service';
import { ConnectorImportService } from './import-export/connector-import.service';
import { ImportExportController } from './import-export/import-export.controller';
import { ImportReader } from './import-export/import-reader';
import { ConnectorHistoryService } from './history/connector-history.service';
import { RestConnectorSearchService } from './rest-connector-search.service';
import { RestConnectorsController } from './rest-connectors.controller';
import { RestConnectorsService } from './rest-connectors.service';
import { Outbound } from './test-runs/outbound.providers';
import { TestRunRateLimit, TestRunSlots } from './test-runs/test-run-limits';
import { TestRunMetrics } from './test-runs/test-run-metrics';
import { TestRunRecordsController } from './test-runs/test-run-records.controller';
import { TestRunRecordsService } from './test-runs/test-run-records.service';
import { TestRunsController } from './test-runs/test-runs.controller';
import { TestRunsService } from './test-runs/test-runs.service';
import { ConditionalWrites } from './use-cases/conditional-writes';
import { CreateConnectors } from './use-cases/create-connectors.use-case';
import { DeleteConnector } from './use-cases/delete-connector.use-case';
import { RestoreConnector } from './use-cases/restore-connector.use-case';
import { RevertConnector } from './use-cases/revert-connector.use-case';
import { SecretSealing } from './use-cases/secret-sealing';
import { UpdateConnector } from './use-cases/update-connector.use-case';

/** Rest connectors of a bot: the operations of the platform-transactional-service group, their test runs, history, trash and restore. */
@Module({
  imports: [
    ConnectorVariablesModule,
    DomainModule.with(
      RestConnectorRepository,
      RestConnectorSearchRepository,
      ConnectorRelationsRepository,
      ConnectorHistoryRepository,
      ConnectorEventOutbox,
      ConnectorTestRunRepository,
      ConnectorVariableRepository,
      IdempotencyRepository,
      IdempotencyService,
    ),
  ],
  // The fixed sub-paths (`test`, `test-runs`, `deleted`) before the connectors' `:serviceUUID`.
  controllers: [TestRunsController, TestRunRecordsController, ImportExportController, ConnectorHistoryController, RestConnectorsController],
  providers: [
    ConnectorImportService,
    ImportReader,
    ConnectorExportService,
    RestConnectorsService,
    CreateConnectors,
    UpdateConnector,
    RevertConnector,
    DeleteConnector,
    RestoreConnector,
    ConditionalWrites,
    ConnectorEnvironments,
    SecretSealing,
    RestConnectorSearchService,
    ConnectorHistoryService,
    TestRunsService,
    TestRunRecordsService,
    Outbound,
    TestRunSlots,
    TestRunRateLimit,
    TestRunMetrics,
  ],
  // The writes a promotion makes through (PromotionsModule).
  exports: [CreateConnectors, UpdateConnector, DeleteConnector, RestoreConnector, ConnectorEnvironments],
})
export class RestConnectorsModule {}

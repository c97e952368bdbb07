import { ConnectorEventOutbox, ConnectorHistoryRepository, ConnectorVariableRepository, DomainModule } from '@app/domain';
import { Module } from '@nestjs/common';
import { ConnectorVariableWrites } from './use-cases/connector-variable-writes.use-case';
import { ConnectorVariablesController } from './connector-variables.controller';
import { ConnectorVariablesService } from './connector-variables.service';

/** The connector variables of environments: read, write (with their history and change events), and the writes other parts reuse. */
@Module({
  imports: [DomainModule.with(ConnectorVariableRepository, ConnectorHistoryRepository, ConnectorEventOutbox)],
  controllers: [ConnectorVariablesController],
  providers: [ConnectorVariablesService, ConnectorVariableWrites],
  exports: [ConnectorVariableWrites],
})
export class ConnectorVariablesModule {}

import { Module } from '@nestjs/common';
import { ConnectorEventsModule } from './connector-events/connector-events.module';
import { ConnectorVariablesModule } from './connector-variables/connector-variables.module';
import { RestConnectorsModule } from './rest-connectors/rest-connectors.module';

/** The platform-transactional-service group: rest connectors (with test runs, history and trash), the environments' connector variables, and their change events. */
@Module({ imports: [RestConnectorsModule, ConnectorVariablesModule, ConnectorEventsModule] })
export class TransactionalServiceModule {}

import { Module } from '@nestjs/common';
import { ConnectorEventsModule } from './connector-events/connector-events.module';
import { RestConnectorsModule } from './rest-connectors/rest-connectors.module';

/** The platform-transactional-service group: rest connectors (with test runs, history and trash) and their change events. */
@Module({ imports: [RestConnectorsModule, ConnectorEventsModule] })
export class TransactionalServiceModule {}

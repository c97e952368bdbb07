import { DomainModule } from '@app/domain';
import { Module } from '@nestjs/common';
import { RestConnectorSearchService } from './rest-connector-search.service';
import { RestConnectorsController } from './rest-connectors.controller';
import { RestConnectorsService } from './rest-connectors.service';

/** Rest connectors of a bot: the seven operations of the platform-transactional-service group. */
@Module({
  imports: [DomainModule],
  controllers: [RestConnectorsController],
  providers: [RestConnectorsService, RestConnectorSearchService],
})
export class RestConnectorsModule {}

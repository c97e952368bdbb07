import { DomainModule } from '@app/domain';
import { Module } from '@nestjs/common';

/** Rest connectors of a bot. The seven operations arrive with the rest-connector issue. */
@Module({
  imports: [DomainModule],
})
export class RestConnectorsModule {}

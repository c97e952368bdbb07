import { BotRepository, DomainModule } from '@app/domain';
import { Module } from '@nestjs/common';
import { BotsController } from './bots.controller';
import { BotsService } from './bots.service';

@Module({
  imports: [DomainModule.with(BotRepository)],
  controllers: [BotsController],
  providers: [BotsService],
})
export class BotsModule {}

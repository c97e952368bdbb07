import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BotRepository } from './bots/bot.repository';
import { ENTITIES } from './database/entities';
import { EnvironmentRepository } from './environments/environment.repository';
import { ScopeRepository } from './scope/scope.repository';
import { ScopeService } from './scope/scope.service';

const PROVIDERS = [EnvironmentRepository, BotRepository, ScopeRepository, ScopeService];

/** The repositories and domain services the apps' feature modules build on. */
@Module({
  imports: [TypeOrmModule.forFeature(ENTITIES)],
  providers: PROVIDERS,
  exports: PROVIDERS,
})
export class DomainModule {}

import { DynamicModule, Module, Type } from '@nestjs/common';
import { ScopeRepository } from './scope/scope.repository';
import { ScopeService } from './scope/scope.service';

/**
 * The repositories and domain services a feature module uses, and only those: each app registers what it reads
 * (`DomainModule.with(BotRepository)`), so the read-only apps hold no connector repository. Every app gets the
 * scope check (ScopeService and its repository), which every scoped read answers through. The Database they use
 * is the platform's (DatabaseModule).
 */
@Module({})
export class DomainModule {
  static with(...providers: Array<Type<unknown>>): DynamicModule {
    const all = [ScopeRepository, ScopeService, ...providers];
    return { module: DomainModule, providers: all, exports: all };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { Logger } from 'pino';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import { JwtVerifier } from '../auth/jwt-verifier.service';
import { AppConfig } from '../config/app-config';
import { AppConfigModule } from '../config/app-config.module';
import { DatabaseModule } from '../database/database.module';
import { ReadYourWritesGuard } from '../database/read-your-writes';
import { HealthController } from '../health/health.controller';
import { ReadinessDetails } from '../health/readiness-details';
import { MetricsController } from '../metrics/metrics.controller';
import { PlatformMetrics } from '../metrics/metrics';
import { AllExceptionsFilter } from '../http/all-exceptions.filter';
import { DeclaredQueryGuard } from '../validation/declared-query.guard';
import { createValidationPipe } from '../performance/performance-overrides';
import { CallerRateLimitGuard, RATE_LIMIT_PER_MINUTE } from '../rate-limit/caller-rate-limit.guard';
import { RateLimitCounters } from '../performance/rate-limit-counters';
import { RateLimitStore } from '../rate-limit/rate-limit-store';
import { connectRateLimitRedis, RedisRateLimitStore } from '../rate-limit/redis-rate-limit-store';
import { AddressRateLimit } from '../rate-limit/address-rate-limit';
import { SecretCipherProvider } from '../secrets/secret-cipher.provider';
import { ShutdownState } from '../shutdown/shutdown';

/**
 * What every app of the platform shares: validated config, database, structured logs, the global
 * validation pipe, the one exception filter, the JWT guard, the health probes and the metrics. Registered as
 * APP_* providers so every app and every test module gets the same safety net.
 */
@Module({})
export class PlatformModule {
  static forRoot(label: string, config: AppConfig, logger: Logger, metrics: PlatformMetrics, shutdown: ShutdownState): DynamicModule {
    return {
      module: PlatformModule,
      // Global: feature modules inject what it exports (the secret cipher) without importing it.
      global: true,
      imports: [
        AppConfigModule.forRoot(config),
        // Nest's own log lines through the root logger. No routes: the request logger is createPlatformApp's,
        // and nestjs-pino's per-request AsyncLocalStorage would put a hook on every promise of the request.
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
        DatabaseModule.forRoot(config.database, { logger, metrics, redisUrl: config.redisUrl }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        JwtVerifier,
        { provide: PlatformMetrics, useValue: metrics },
        { provide: ShutdownState, useValue: shutdown },
        ReadinessDetails,
        SecretCipherProvider,
        // The limits are per rolling minute: in Redis with REDIS_URL (one limit for all replicas), else in this process.
        {
          provide: RateLimitStore,
          useFactory: async () =>
            config.redisUrl
              ? new RedisRateLimitStore(await connectRateLimitRedis(config.redisUrl), `rate-limit:${label}`, 60_000, logger, metrics.registry)
              : new RateLimitCounters(60_000),
        },
        { provide: RATE_LIMIT_PER_MINUTE, useValue: config.rateLimitPerMinute },
        AddressRateLimit,
        { provide: APP_PIPE, useFactory: () => createValidationPipe(config.performanceOverrides) },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Guards run in this order: authenticate first, so the rate limit counts per caller.
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        // Before the rate limit: the caller's last write is looked up while the limit is counted.
        { provide: APP_GUARD, useClass: ReadYourWritesGuard },
        { provide: APP_GUARD, useClass: CallerRateLimitGuard },
        // Where the pipe's 400s come too: after the token and the organization are checked.
        { provide: APP_GUARD, useClass: DeclaredQueryGuard },
      ],
      exports: [JwtVerifier, SecretCipherProvider, PlatformMetrics, RateLimitStore, ShutdownState, ReadinessDetails],
    };
  }
}

import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { LoggerModule } from 'nestjs-pino';
import { Logger } from 'pino';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import { JwtVerifier } from '../auth/jwt-verifier.service';
import { AppConfig } from '../config/app-config';
import { AppConfigModule } from '../config/app-config.module';
import { DatabaseModule } from '../database/database.module';
import { HealthController } from '../health/health.controller';
import { MetricsController } from '../metrics/metrics.controller';
import { PlatformMetrics } from '../metrics/metrics';
import { AllExceptionsFilter } from '../http/all-exceptions.filter';
import { createValidationPipe } from '../http/validation.pipe';
import { CallerThrottlerGuard } from '../rate-limit/caller-throttler.guard';
import { SlidingWindowThrottlerStorage } from '../rate-limit/sliding-window.storage';
import { SecretCipherProvider } from '../secrets/secret-cipher.provider';
import { ShutdownState } from './shutdown';

/**
 * What every app of the platform shares: validated config, database, structured logs, the global
 * validation pipe, the one exception filter, the JWT guard, the health probes and the metrics. Registered as
 * APP_* providers so every app and every test module gets the same safety net.
 */
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, logger: Logger, metrics: PlatformMetrics, shutdown: ShutdownState): DynamicModule {
    return {
      module: PlatformModule,
      // Global: feature modules inject what it exports (the secret cipher) without importing it.
      global: true,
      imports: [
        AppConfigModule.forRoot(config),
        // The HTTP logger itself is installed by createPlatformApp before the body parser.
        // `{*path}`: Express 5's wildcard (nestjs-pino's default `*` makes Nest warn at every start).
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }] }),
        DatabaseModule.forRoot(config.database),
        ThrottlerModule.forRoot({
          throttlers: [{ ttl: 60_000, limit: config.rateLimitPerMinute }],
          // One budget per caller across every route (the default key would add the route).
          generateKey: (_context, tracker, name) => `${name}:${tracker}`,
          errorMessage: `Rate limit of ${config.rateLimitPerMinute} requests per minute exceeded`,
          storage: new SlidingWindowThrottlerStorage(),
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        JwtVerifier,
        { provide: PlatformMetrics, useValue: metrics },
        { provide: ShutdownState, useValue: shutdown },
        SecretCipherProvider,
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Guards run in this order: authenticate first, so the rate limit counts per caller.
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: CallerThrottlerGuard },
      ],
      exports: [JwtVerifier, SecretCipherProvider],
    };
  }
}

/**
 * The transactional service on a Nest HTTP adapter without the platform's HTTP edge, for `npm run bench:frameworks`
 * (bench/framework-bench.ts): BENCH_FRAMEWORK=express (Nest's ExpressAdapter) or fastify (@nestjs/platform-fastify's
 * FastifyAdapter, its defaults). The same application module as production (PlatformModule with its guards,
 * validation pipe and exception filter, and the app's RestConnectorsModule: the real controllers, services and
 * repositories on the real database), the same config, global prefix and server timeouts; none of createPlatformApp's
 * Express middleware (request id, request log, shutdown and metrics counters, helmet's replay, CORS, the address
 * check, the bearer-before-body check, the JSON body pipeline).
 *
 * PERFORMANCE_OVERRIDES=off: the stock path, as Nest ships it (its ExpressAdapter, the stock ValidationPipe with the
 * platform's input rules, class-validator unpatched). On: the overrides that apply to the adapter, as production
 * installs them: on Express PlatformExpressAdapter and production's Express settings (no ETag hashing, no
 * X-Powered-By, `trust proxy`); on both the remembering pipe with ValidityCheck and the cached validation metadata,
 * which know nothing of the framework.
 *
 * One adaptation on Fastify: the get's handler (`res.setHeader('ETag', …)`) and CallerRateLimitGuard
 * (`res.setHeader('X-RateLimit-…', …)`) call Node's ServerResponse#setHeader, which Express's response inherits and
 * Fastify's reply does not have; the reply is decorated with a `setHeader` that calls `reply.header`. Nothing else of
 * the request path touches an Express-only object while a request succeeds (the exception filter's `res.status().json()`
 * does, on errors: the bench checks that every answer is a 2xx).
 *
 * Built by `nest build framework-bench` (nest-cli.json) into dist/bench/framework-app.js, a webpack bundle as the apps'
 * are, so that it runs as dist/apps/transactional-service/main.js does.
 */
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { TRANSACTIONAL_SERVICE_APP } from '../apps/transactional-service/src/transactional-service.app';
import { loadConfigOrExit } from '../libs/platform/src/app/run-platform-app';
import { PlatformModule } from '../libs/platform/src/app/platform.module';
import { applyServerTimeouts } from '../libs/platform/src/app/server-timeouts';
import { AppConfig } from '../libs/platform/src/config/app-config';
import { createRootLogger } from '../libs/platform/src/logging/logger';
import { PlatformMetrics } from '../libs/platform/src/metrics/metrics';
import { installPerformanceOverrides } from '../libs/platform/src/performance/performance-overrides';
import { cacheValidationMetadata } from '../libs/platform/src/performance/validation-metadata-cache';
import { ShutdownState } from '../libs/platform/src/shutdown/shutdown';

const FRAMEWORKS = ['express', 'fastify'] as const;
type Framework = (typeof FRAMEWORKS)[number];

/** Operations endpoints stay at the root, as createPlatformApp leaves them. */
const ROOT_ROUTES = ['health/live', 'health/ready', 'metrics'];

/** PlatformModule and the app's feature module: what createPlatformApp's root module imports, without the test-only providers. */
@Module({})
class FrameworkBenchRootModule {
  static register(config: AppConfig): DynamicModule {
    const { label } = TRANSACTIONAL_SERVICE_APP;
    const logger = createRootLogger(config, label);
    return {
      module: FrameworkBenchRootModule,
      imports: [PlatformModule.forRoot(label, config, logger, new PlatformMetrics(label), new ShutdownState()), TRANSACTIONAL_SERVICE_APP.module],
    };
  }
}

async function createFrameworkApp(framework: Framework, config: AppConfig): Promise<INestApplication> {
  const module = FrameworkBenchRootModule.register(config);
  const options = { bufferLogs: true };
  let app: INestApplication;
  if (framework === 'fastify') {
    if (config.performanceOverrides) cacheValidationMetadata();
    const fastify = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), options);
    // Node's ServerResponse#setHeader, which the get's handler and CallerRateLimitGuard call (see above).
    fastify
      .getHttpAdapter()
      .getInstance()
      .decorateReply('setHeader', function (this: FastifyReply, name: string, value: unknown) {
        return this.header(name, value);
      });
    app = fastify;
  } else {
    const express = await NestFactory.create<NestExpressApplication>(module, installPerformanceOverrides(config.performanceOverrides), options);
    if (config.performanceOverrides) {
      // createPlatformApp's Express settings.
      express.disable('x-powered-by');
      express.set('etag', false);
      express.set('trust proxy', config.trustProxyHops);
    }
    app = express;
  }
  applyServerTimeouts(app.getHttpServer(), config.httpTimeouts);
  app.useLogger(app.get(NestPinoLogger));
  app.setGlobalPrefix(TRANSACTIONAL_SERVICE_APP.label, { exclude: ROOT_ROUTES });
  return app;
}

async function main(): Promise<void> {
  const framework = process.env.BENCH_FRAMEWORK as Framework;
  if (!FRAMEWORKS.includes(framework)) throw new Error(`BENCH_FRAMEWORK must be one of ${FRAMEWORKS.join(', ')}`);
  const config = loadConfigOrExit(TRANSACTIONAL_SERVICE_APP.defaultPort);
  const app = await createFrameworkApp(framework, config);
  // A literal loopback address: Fastify's default host is the name `localhost`, which is looked up.
  await app.listen(config.port, '127.0.0.1');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

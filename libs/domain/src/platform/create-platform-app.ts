import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { DestinationStream, Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { jsonBody } from '../http/json-body.middleware';
import { securityHeaders } from '../http/security-headers.middleware';
import { requestIdMiddleware } from '../http/request-id.middleware';
import { createHttpLogger, createRootLogger } from '../logging/logger';
import { PlatformAppDefinition } from './platform-app.definition';
import { PlatformExpressAdapter } from './platform-express.adapter';
import { PlatformModule } from './platform.module';
import { ShutdownState } from './shutdown';
import { PlatformMetrics } from '../metrics/metrics';
import { DataSource } from 'typeorm';
import { setupSwagger } from './swagger';

export const BODY_LIMIT = '256kb';
/** Operations endpoints stay at the root, outside the label prefix. */
const ROOT_ROUTES = ['health/live', 'health/ready', 'metrics'];

/** Response headers a browser client may read. */
const EXPOSED_HEADERS = ['X-Request-Id', 'ETag', 'Location', 'Retry-After'];
/** helmet's CSP, loosened only as far as Swagger UI's inline bootstrap needs. */
const SWAGGER_UI_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'unsafe-inline'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  // TLS ends at the ingress; upgrading would break Swagger UI's "Try it out" on plain http.
  upgradeInsecureRequests: null,
};

export interface PlatformAppOptions {
  /** Where log lines go (tests capture them); stdout by default. */
  logDestination?: DestinationStream;
}

@Module({})
class PlatformAppRootModule {
  static register(
    definition: PlatformAppDefinition,
    config: AppConfig,
    logger: Logger,
    metrics: PlatformMetrics,
    shutdown: ShutdownState,
  ): DynamicModule {
    return {
      module: PlatformAppRootModule,
      imports: [PlatformModule.forRoot(config, logger, metrics, shutdown), definition.module],
    };
  }
}

/** Builds one app of the platform, ready to `listen` (main.ts) or `init` (tests). */
export async function createPlatformApp(
  definition: PlatformAppDefinition,
  config: AppConfig,
  options: PlatformAppOptions = {},
): Promise<NestExpressApplication> {
  const logger = createRootLogger(config, definition.label, options.logDestination);
  const metrics = new PlatformMetrics(definition.label);
  const shutdown = new ShutdownState();
  const app = await NestFactory.create<NestExpressApplication>(
    PlatformAppRootModule.register(definition, config, logger, metrics, shutdown),
    new PlatformExpressAdapter(),
    { bodyParser: false, bufferLogs: true },
  );
  metrics.watchPool(app.get(DataSource));
  app.useLogger(app.get(NestPinoLogger));
  app.disable('x-powered-by');
  // No automatic weak ETag (a SHA-1 of every body): the connector reads and writes set their own strong one.
  app.set('etag', false);

  // Order matters: every request gets an id and a log line, even one the body parser rejects.
  app.use(requestIdMiddleware);
  app.use(shutdown.middleware);
  app.use(metrics.middleware);
  app.use(createHttpLogger(logger));
  app.use(securityHeaders({ contentSecurityPolicy: { directives: SWAGGER_UI_CSP } }));
  app.enableCors({ origin: config.corsOrigins, exposedHeaders: EXPOSED_HEADERS });
  app.use(jsonBody(BODY_LIMIT));

  app.setGlobalPrefix(definition.label, { exclude: ROOT_ROUTES });
  setupSwagger(app, definition, config);
  // No enableShutdownHooks(): exitGracefullyOnSignals drains first (see shutdown.ts).
  return app;
}

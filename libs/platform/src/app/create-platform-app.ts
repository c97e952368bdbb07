import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, RequestHandler } from 'express';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { DestinationStream, Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { jsonBody } from '../http/json-body.middleware';
import { securityHeaders } from '../http/security-headers.middleware';
import { requestIdMiddleware } from '../http/request-id.middleware';
import { createRootLogger } from '../logging/logger';
import { createHttpLogger } from '../performance/request-log';
import { PlatformAppDefinition } from './platform-app.definition';
import { installPerformanceOverrides } from '../performance/performance-overrides';
import { PlatformModule } from './platform.module';
import { ShutdownState } from '../shutdown/shutdown';
import { PlatformMetrics } from '../metrics/metrics';
import { AddressRateLimit } from '../rate-limit/address-rate-limit';
import { requireBearerBeforeBody } from '../auth/bearer-before-body.middleware';
import { DataSource } from 'typeorm';
import { applyServerTimeouts } from './server-timeouts';
import { asyncApiDocumentPath } from '../swagger/asyncapi-document';
import { setupSwagger } from '../swagger/swagger';
import { readsReplicas, type ReadReplicas } from '@app/domain';
import { CONSISTENCY_TOKEN_HEADER } from '../database/consistency-token';
import { READ_REPLICAS } from '../database/database.module';
import { consistencyScopes } from '../database/read-your-writes';

/** Operations endpoints stay at the root, outside the label prefix. */
const ROOT_ROUTES = ['health/live', 'health/ready', 'metrics'];

/** Response headers a browser client may read: every header the API documents on its answers. */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'ETag',
  'Location',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Allow',
  CONSISTENCY_TOKEN_HEADER,
];
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
  /**
   * Global providers an app's feature module may ask for with @Optional(): tests answer for what would
   * otherwise leave the machine (the outbound resolver of connector test runs).
   */
  providers?: Provider[];
}

/** PlatformAppOptions.providers, visible to every module of the app. */
@Global()
@Module({})
class AppOptionsModule {
  static register(providers: Provider[]): DynamicModule {
    return { module: AppOptionsModule, providers, exports: providers };
  }
}

@Module({})
class PlatformAppRootModule {
  static register(
    definition: PlatformAppDefinition,
    config: AppConfig,
    logger: Logger,
    metrics: PlatformMetrics,
    shutdown: ShutdownState,
    providers: Provider[],
  ): DynamicModule {
    return {
      module: PlatformAppRootModule,
      imports: [PlatformModule.forRoot(definition.label, config, logger, metrics, shutdown), AppOptionsModule.register(providers), definition.module],
    };
  }
}

/**
 * `handlers`, in order, for every request but the reads of the operations endpoints and the API
 * documentation (GET or HEAD of /health/*, /metrics, /{label}/docs, its assets, docs-json, docs-yaml and docs-asyncapi):
 * those need no token and take no body, so nothing of theirs is parsed. Every other request, unknown paths
 * and other methods on those paths included, passes `handlers`. Express matches routes ignoring case and
 * a trailing slash; so does this.
 */
function exceptOpenReads(definition: PlatformAppDefinition, ...handlers: RequestHandler[]): RequestHandler {
  const open = new Set(ROOT_ROUTES.map((route) => `/${route}`));
  const docs = `/${definition.label}/docs`.toLowerCase();
  open.add(docs).add(`${docs}-json`).add(`${docs}-yaml`);
  if (definition.asyncApiDocument) open.add(asyncApiDocumentPath(definition.label).toLowerCase());
  const isOpenRead = (req: Request) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = req.path.toLowerCase().replace(/(.)\/$/, '$1');
    return open.has(path) || path.startsWith(`${docs}/`);
  };
  return (req, res, next) => {
    if (isOpenRead(req)) return next();
    let i = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined || i === handlers.length) next(error);
      else void handlers[i++](req, res, step);
    };
    step();
  };
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
    PlatformAppRootModule.register(definition, config, logger, metrics, shutdown, options.providers ?? []),
    installPerformanceOverrides(config.performanceOverrides),
    { bodyParser: false, bufferLogs: true },
  );
  // Here, not in runPlatformApp: every server built from this (tests too) bounds slow clients alike.
  applyServerTimeouts(app.getHttpServer(), config.httpTimeouts);
  metrics.watchDatabase(app.get(DataSource), app.get<ReadReplicas | null>(READ_REPLICAS));
  metrics.watchRequests(() => shutdown.inFlight);
  app.useLogger(app.get(NestPinoLogger));
  app.disable('x-powered-by');
  // No automatic weak ETag (a SHA-1 of every body): the connector reads and writes set their own strong one.
  app.set('etag', false);
  // `req.ip`, the client address the rate limit counts refusals by: the socket's peer, or behind N proxies
  // the address the outermost one saw (the last N entries of X-Forwarded-For are theirs). Never more hops
  // than there are proxies: a client could then choose its own address.
  app.set('trust proxy', config.trustProxyHops);

  // Order matters: every request gets an id and a log line, even one the body parser rejects.
  app.use(requestIdMiddleware);
  // With replicas only: each request a unit of work whose reads see what it and its caller wrote.
  if (readsReplicas(config.database)) app.use(consistencyScopes);
  app.use(shutdown.middleware);
  app.use(metrics.middleware);
  app.use(createHttpLogger(logger));
  app.use(securityHeaders({ contentSecurityPolicy: { directives: SWAGGER_UI_CSP } }));
  app.enableCors({ origin: config.corsOrigins, exposedHeaders: EXPOSED_HEADERS });
  // Before the body is read: an address that has used up its refusals (401/403) is refused at once, and a
  // body without a plausible bearer token is never read. Only then is a body parsed.
  app.use(exceptOpenReads(definition, app.get(AddressRateLimit).refuseBlocked, requireBearerBeforeBody, jsonBody(definition.largeBodies)));

  app.setGlobalPrefix(definition.label, { exclude: ROOT_ROUTES });
  if (config.apiDocs) setupSwagger(app, definition, config);
  // No enableShutdownHooks(): exitGracefullyOnSignals drains first (see shutdown.ts).
  return app;
}

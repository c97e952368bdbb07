import type { Request, Response } from 'express';
import pino, { DestinationStream, Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { AppConfig } from '../config/app-config';
import { routeOf } from '../http/route-of';

/** Never logged: credentials of callers and the connector secrets. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.basicToken',
  '*.bearerToken',
  '*.clientSecret',
  '*.authPassword',
  '*.password',
  '*.secret',
];

export function createRootLogger(config: AppConfig, app: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { app },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    },
    destination,
  );
}

/** One JSON line per request: request id, method, route template, status, duration, caller `sub`. */
export function createHttpLogger(logger: Logger) {
  return pinoHttp<Request, Response>({
    logger,
    genReqId: (req) => req.id,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${routeOf(req)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeOf(req)} ${res.statusCode}`,
    customProps: (req) => ({ route: routeOf(req), sub: req.caller?.sub }),
    serializers: {
      req: (req: { method: string }) => ({ method: req.method }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

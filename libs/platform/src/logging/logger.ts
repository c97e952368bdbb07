import pino, { DestinationStream, Logger } from 'pino';
import { AppConfig } from '../config/app-config';

/** Never logged: credentials of callers and the connector secrets. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.basicToken',
  '*.bearerToken',
  '*.apiKey',
  '*.clientSecret',
  '*.authPassword',
  '*.password',
  '*.secret',
];

/**
 * The root logger. Production writes to stdout asynchronously (sonic-boom, `sync: false`): a line does
 * not wait for the write, lines queued behind a write in flight go out together, and pino flushes what
 * is left when the process exits. Tests pass their own destination.
 */
export function createRootLogger(config: AppConfig, app: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { app },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

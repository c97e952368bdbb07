import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
// Its declarations type `req.id` and `req.log`.
import type {} from 'pino-http';
import { closedByCaller } from '../http/caller-gone';
import { onceAnswered } from '../http/on-answered';
import { routeOf } from '../http/route-of';

/**
 * Fields a handler adds to its request's access line (a write's `connectorId`): strings only, no secret, set
 * before the answer is sent.
 */
export function logAlongside(res: Response, fields: Record<string, string>): void {
  res.locals.accessLog = { ...(res.locals.accessLog as Record<string, string> | undefined), ...fields };
}

/**
 * One JSON line per request when its response is done: request id, method, route template, status,
 * duration in ms, the caller's `sub` and what the handler added (logAlongside); `warn` for 4xx and 503 (a refusal with Retry-After), `error` for the other 5xx
 * and for an answer the server cut short;
 * `info` for one whose caller closed the connection first (it stopped waiting: a long poll's client, a timeout of its own).
 * Written with the root logger, not a child per request (pino-http's), which cost more than the rest of
 * the logging (a performance override: README.md here). `req.log` is the root logger, redacting, for the error filter.
 */
export function createHttpLogger(logger: Logger): RequestHandler {
  // The line holds only the fields below, none of them a secret: no redaction pass over it (the paths of
  // REDACTED_PATHS are wildcards, matched against every field of every line).
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const started = Date.now();
    req.log = logger;
    onceAnswered(req, res, () => {
      const status = res.statusCode;
      const cut = !res.writableFinished;
      const callerLeft = cut && closedByCaller(req.socket);
      const level = callerLeft ? 'info' : cut || (status >= 500 && status !== 503) ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!lines.isLevelEnabled(level)) return;
      const route = routeOf(req);
      lines[level](
        {
          requestId: req.id,
          req: { method: req.method },
          res: { statusCode: status },
          route,
          sub: req.caller?.sub,
          ...(res.locals.accessLog as Record<string, string> | undefined),
          durationMs: Date.now() - started,
        },
        `${req.method} ${route} ${status}${callerLeft ? ' (the caller closed the connection before the answer was sent)' : cut ? ' (connection closed before the answer was sent)' : ''}`,
      );
    });
    next();
  };
}

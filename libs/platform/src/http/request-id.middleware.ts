import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A caller's id is echoed only if it is short and plain, so it cannot forge log lines or headers. */
export const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** First middleware of every app: every request, even one rejected by the body parser, has an id. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.header(REQUEST_ID_HEADER);
  // `req.id` is declared by pino-http, which logs it as `requestId`.
  req.id = given !== undefined && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, String(req.id));
  next();
}

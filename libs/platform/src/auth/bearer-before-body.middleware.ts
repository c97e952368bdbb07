import type { NextFunction, Request, Response } from 'express';
import { carriesBody, refusedUnread } from '../http/json-body.middleware';
import { bearerToken } from './bearer-token';

/**
 * A request that carries a body (POST, PUT, PATCH, or any other) without a plausible bearer token is
 * answered 401 before its body is read: otherwise anyone could make the server parse 256 KiB bodies at
 * will. The answer is JwtAuthGuard's own (bearerToken), and counts against the client address like it.
 * The unread body is never read: the answer carries `Connection: close`, and the server closes the
 * connection after it instead of reading and discarding the rest (docs/decisions.md).
 */
export function requireBearerBeforeBody(req: Request, res: Response, next: NextFunction): void {
  if (!carriesBody(req)) return next();
  try {
    bearerToken(req.headers.authorization);
  } catch (error) {
    return next(refusedUnread(req, res, error));
  }
  next();
}

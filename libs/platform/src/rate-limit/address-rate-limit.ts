import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RATE_LIMIT_PER_MINUTE } from './caller-rate-limit.guard';
import { RateLimitStore } from './rate-limit-store';
import { refusedUnread } from '../http/json-body.middleware';
import { addressKey, tooManyRequests } from './rate-limit-keys';

/**
 * The rate limit of refused requests, per client address (`req.ip`: the socket's peer, or with
 * TRUST_PROXY_HOPS the address the outermost trusted proxy saw). JwtAuthGuard refuses before
 * CallerRateLimitGuard counts anything, so without this, token guessing and probing of other
 * organizations would run at any speed. Every 401 and 403 answer of a route that needs a token counts, wherever
 * it was decided (the JWT guard, the bearer check before the body), in the same RateLimitStore (key `ip:<address>`, shared with the
 * unauthenticated callers of CallerRateLimitGuard) against the same RATE_LIMIT_PER_MINUTE; an address
 * that has used it up gets 429 on every request that needs a token, before its token is verified or its
 * body read (docs/decisions.md). With Redis the counts are shared, and the check before the body needs no round
 * trip: a replica refuses an address once it has seen the address's block in one answer of Redis (its first
 * refusal of that address after the limit was reached elsewhere).
 */
@Injectable()
export class AddressRateLimit {
  constructor(
    private readonly store: RateLimitStore,
    @Inject(RATE_LIMIT_PER_MINUTE) private readonly limit: number,
  ) {}

  /**
   * Express middleware for the routes that need a token, placed before the body parser: where an address's requests
   * are counted. A blocked address gets its 429 at once; any other request counts against its address once its
   * answer is written, if that answer is a 401 or a 403.
   */
  readonly refuseBlocked = (req: Request, res: Response, next: NextFunction): void => {
    const key = addressKey(req);
    const blockedFor = this.store.blockedFor(key, this.limit);
    if (blockedFor > 0) return next(refusedUnread(req, res, tooManyRequests(res, this.limit, blockedFor)));
    res.once('finish', () => {
      // Nothing waits for the count (the answer is already written); the Redis store never rejects.
      if (res.statusCode === 401 || res.statusCode === 403) void this.store.hit(key, this.limit);
    });
    next();
  };
}

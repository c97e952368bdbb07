import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { addressKey, tooManyRequests } from './rate-limit-keys';
import { RateLimitHit, RateLimitStore, whenCounted } from './rate-limit-store';

const SKIP_RATE_LIMIT = 'platform:skipRateLimit';
export const RATE_LIMIT_PER_MINUTE = Symbol('RATE_LIMIT_PER_MINUTE');

/** Operations endpoints (health, metrics): never rate-limited. */
export const SkipRateLimit = () => SetMetadata(SKIP_RATE_LIMIT, true);

/**
 * Limits each caller (the token's `sub`; the client address before authentication) to
 * RATE_LIMIT_PER_MINUTE requests in any rolling minute, across all routes: 429 with Retry-After beyond,
 * and X-RateLimit-Limit/-Remaining/-Reset on every answer. Runs after JwtAuthGuard; what that guard
 * refuses (401, 403) is counted per client address by AddressRateLimit, in the same store: in Redis with
 * REDIS_URL (one limit across replicas), else in each process (docs/decisions.md, "Limits across replicas").
 */
@Injectable()
export class CallerRateLimitGuard implements CanActivate {
  /** Whether a route skips the limit, looked up once per controller and handler. */
  private readonly skips = new WeakMap<Function, WeakMap<Function, boolean>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly store: RateLimitStore,
    @Inject(RATE_LIMIT_PER_MINUTE) private readonly limit: number,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.skipsLimit(context.getClass(), context.getHandler())) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const tracker = req.caller ? `sub:${req.caller.sub}` : addressKey(req);
    return whenCounted(this.store.hit(tracker, this.limit), (answer) => this.admit(answer, res));
  }

  /** The 429, or the headers of what is left (none while the store cannot count). */
  private admit({ totalHits, timeToExpire, isBlocked, timeToBlockExpire, unenforced }: RateLimitHit, res: Response): boolean {
    if (isBlocked) throw tooManyRequests(res, this.limit, timeToBlockExpire);
    if (unenforced) return true;
    res.setHeader('X-RateLimit-Limit', this.limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, this.limit - totalHits));
    res.setHeader('X-RateLimit-Reset', timeToExpire);
    return true;
  }

  private skipsLimit(controller: Function, handler: Function): boolean {
    let handlers = this.skips.get(controller);
    if (!handlers) this.skips.set(controller, (handlers = new WeakMap()));
    let skip = handlers.get(handler);
    if (skip === undefined) {
      skip = this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [handler, controller]) ?? false;
      handlers.set(handler, skip);
    }
    return skip;
  }
}

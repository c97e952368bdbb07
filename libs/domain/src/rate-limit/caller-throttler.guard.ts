import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Request } from 'express';

/**
 * Limits each caller (the token's `sub`; the client address before authentication) to
 * RATE_LIMIT_PER_MINUTE requests a minute; 429 with Retry-After beyond. Runs after JwtAuthGuard.
 * The counters live in each replica's memory: the limit is per replica (docs/decisions.md).
 */
@Injectable()
export class CallerThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Request): Promise<string> {
    return req.caller ? `sub:${req.caller.sub}` : `ip:${req.ip}`;
  }
}

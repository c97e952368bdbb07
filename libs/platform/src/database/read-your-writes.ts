import { CallHandler, CanActivate, ExecutionContext, Inject, Injectable, NestInterceptor, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '../auth/auth.decorators';
import { ConsistencyScope, ReadConsistency } from '@app/domain';
import type { NextFunction, Request, Response } from 'express';
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { CONSISTENCY_TOKEN_HEADER, parseConsistencyToken } from './consistency-token';
import { WritePositions } from './write-positions';

export const WRITE_POSITIONS = Symbol('WRITE_POSITIONS');

/**
 * Express middleware, with replicas only: each request is a unit of work of its own (ReadConsistency), so
 * that its reads know what they must see and its writes are recorded.
 */
export function consistencyScopes(req: Request, res: Response, next: NextFunction): void {
  ReadConsistency.run(() => next());
}

/**
 * Global guard, after JwtAuthGuard: what the request's reads must see. A Consistency-Token header (a 400 when
 * it is not one), and the caller's last write, looked up now (in Redis with REDIS_URL) while the request goes
 * through its other checks, so that it costs no round trip of its own. Without replicas it only checks the header.
 * The public operations endpoints (health, metrics, docs) read nothing a token is about: they ignore it.
 */
@Injectable()
export class ReadYourWritesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Optional() @Inject(WRITE_POSITIONS) private readonly positions?: WritePositions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const token = req.headers['consistency-token'];
    const scope = ReadConsistency.current();
    // Without replicas and without the header (most requests), nothing to do: no metadata is looked up.
    if (token === undefined && !(scope && this.positions && req.caller)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    if (token !== undefined) {
      const position = parseConsistencyToken(token);
      scope?.require(position);
    }
    if (scope && this.positions && req.caller) scope.requireLater(this.positions.lastWrite(req.caller.sub));
    return true;
  }
}

/**
 * Global interceptor: after a request that wrote, the caller's last write position is stored (before the
 * answer leaves, so the caller's next read, on any replica of the app, finds it) and answered in the
 * Consistency-Token header. Also when the request fails after its write committed.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(@Optional() @Inject(WRITE_POSITIONS) private readonly positions?: WritePositions) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const scope = ReadConsistency.current();
    if (!scope || !this.positions) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      mergeMap((body) => from(this.remember(scope, req, res).then(() => body))),
      catchError((error: unknown) => from(this.remember(scope, req, res).then(() => Promise.reject(error)))),
    );
  }

  private async remember(scope: ConsistencyScope, req: Request, res: Response): Promise<void> {
    const written = scope.writes;
    if (!written) return;
    if (!res.headersSent) res.setHeader(CONSISTENCY_TOKEN_HEADER, written.toString());
    if (req.caller) await this.positions!.wrote(req.caller.sub, written);
  }
}

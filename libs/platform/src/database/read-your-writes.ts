import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '../auth/auth.decorators';
import { ConsistencyScope } from '@app/domain';
import type { NextFunction, Request, Response } from 'express';
import { CONSISTENCY_TOKEN_HEADER, parseConsistencyToken } from './consistency-token';
import { WritePositions } from './write-positions';

export const WRITE_POSITIONS = Symbol('WRITE_POSITIONS');

declare module 'http' {
  interface IncomingMessage {
    /** With replicas: what the request's reads must see and where its writes committed (consistencyScopes). */
    consistency?: ConsistencyScope;
  }
}

/**
 * Express middleware, with replicas only: each request is a unit of work of its own (a ConsistencyScope), so
 * that its reads know what they must see and its writes are recorded. Controllers hand it down (RequestConsistency).
 */
export function consistencyScopes(req: Request, _res: Response, next: NextFunction): void {
  req.consistency = new ConsistencyScope();
  next();
}

/**
 * The request's ConsistencyScope (undefined without replicas), for the controller to hand to its service: reads
 * pass it as their `ReadFrom`, a unit of work to `Database.transaction`.
 */
export const RequestConsistency = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ConsistencyScope | undefined => ctx.switchToHttp().getRequest<Request>().consistency,
);

/**
 * Global guard, after JwtAuthGuard: what the request's reads must see. A Consistency-Token header (a 400 when
 * it is not one), and the caller's last write, looked up now (in Redis with REDIS_URL) while the request goes
 * through its other checks, so that it costs no round trip of its own; when Redis cannot tell, the request reads
 * the primary. Without replicas it only checks the header.
 * The public operations endpoints (health, metrics, docs) read nothing a token is about: they ignore it.
 *
 * It also tells the scope what to do after each write of the request: answer the position in the
 * Consistency-Token header and store it as the caller's last write (in Redis too), which the write waits for, so
 * both are done before the answer leaves (also when the request fails after its write committed). Done by the
 * write itself rather than by an interceptor: a global interceptor puts every request, reads too, on Nest's
 * interceptor path (rxjs, AsyncResource.bind), which the bench measured (docs/performance.md, "Read replicas").
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
    const scope = req.consistency;
    // Without replicas and without the header (most requests), nothing to do: no metadata is looked up.
    if (token === undefined && !(scope && this.positions && req.caller)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    if (token !== undefined) {
      const position = parseConsistencyToken(token);
      scope?.require(position);
    }
    if (scope && this.positions && req.caller) {
      const caller = req.caller.sub;
      const positions = this.positions;
      const res = context.switchToHttp().getResponse<Response>();
      scope.requireLast(positions.lastWrite(caller));
      scope.onWrite((writes) => {
        if (!res.headersSent) res.setHeader(CONSISTENCY_TOKEN_HEADER, writes.toString());
        return positions.wrote(caller, writes);
      });
    }
    return true;
  }
}

import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { Caller } from './caller';

export const IS_PUBLIC = 'platform:isPublic';
export const REQUIRED_SCOPE = 'platform:requiredScope';

/** Operations endpoints (health, docs): no token needed. Nothing sensitive may be public. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The token must carry this scope (e.g. `connectors:write`), else 403. */
export const RequireScope = (scope: string) => SetMetadata(REQUIRED_SCOPE, scope);

declare module 'http' {
  interface IncomingMessage {
    caller?: Caller;
  }
}

/** The verified caller of the request, set by JwtAuthGuard. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const caller = ctx.switchToHttp().getRequest<Request>().caller;
  if (!caller) throw new Error('CurrentCaller used on a public route');
  return caller;
});

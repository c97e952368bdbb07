import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { isUuid } from '@app/domain';
import { IS_PUBLIC, REQUIRED_SCOPE } from './auth.decorators';
import { mayUseOrganization } from './caller';
import { bearerToken } from './bearer-token';
import { JwtVerifier } from './jwt-verifier.service';

/**
 * Global guard of every app: a valid bearer token (401), the path's organization among the token's
 * `orgs` (403), and the route's scope (403). A malformed orgUUID is left to validation (400), so the
 * order a caller sees is 401, 400, 403, 404.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: JwtVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const req = context.switchToHttp().getRequest<Request>();
    const token = bearerToken(req.headers.authorization);
    const caller = await this.verifier.verify(token);
    req.caller = caller;

    const orgUuid = req.params?.orgUUID;
    if (typeof orgUuid === 'string' && isUuid(orgUuid) && !mayUseOrganization(caller, orgUuid)) {
      throw new ForbiddenException(`Not allowed to access organization ${orgUuid.toLowerCase()}`);
    }
    const scope = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_SCOPE, targets);
    if (scope !== undefined && !caller.scopes.includes(scope)) {
      throw new ForbiddenException(`This operation needs the ${scope} scope`);
    }
    return true;
  }
}

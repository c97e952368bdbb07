import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { quoted } from '../http/quoted';
import { validationFailure } from './validation.pipe';

/** The query parameters a route takes: `undefined` when a query DTO declares them (the pipe checks those). */
type Declared = ReadonlySet<string> | undefined;

/**
 * Unknown query parameters are a 400 on every operation, naming them, as unknown body fields are: a typo
 * must never fall back to a default silently. A route whose `@Query()` DTO declares its parameters is
 * checked by the validation pipe (forbidNonWhitelisted); this guard covers every other route, which takes
 * no query parameter (or only those it names with `@Query('name')`), so no operation can forget it.
 */
@Injectable()
export class DeclaredQueryGuard implements CanActivate {
  /** What each handler declares, read once from Nest's route metadata. */
  private readonly declared = new WeakMap<Function, Declared>();

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    // Most requests carry no query string: nothing to parse.
    if (!req.url.includes('?')) return true;
    const declared = this.declaredBy(context.getClass(), context.getHandler());
    if (declared === undefined) return true;
    const unknown = Object.keys(req.query).filter((name) => !declared.has(name));
    if (unknown.length === 0) return true;
    throw validationFailure(unknown.map((name) => `property ${quoted(name)} should not exist`));
  }

  private declaredBy(controller: Function, handler: Function): Declared {
    if (this.declared.has(handler)) return this.declared.get(handler);
    const args: Record<string, { data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {};
    const queries = Object.entries(args)
      .filter(([key]) => key.split(':')[0] === String(RouteParamtypes.QUERY))
      .map(([, arg]) => arg.data);
    const declared = queries.some((data) => data === undefined) ? undefined : new Set(queries.map(String));
    this.declared.set(handler, declared);
    return declared;
  }
}

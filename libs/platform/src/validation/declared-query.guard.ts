import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { quoted } from '../http/quoted';
import { suggestionFor, validatedProperties } from './validation-messages';
import { validationFailure } from './validation.pipe';

/** The query parameters a route takes: those its `@Query()` DTO validates, or those it names with `@Query('name')`. */
type Declared = ReadonlySet<string>;

/**
 * Unknown query parameters are a 400 on every operation, naming them, as unknown body fields are: a typo
 * must never fall back to a default silently. The names a route takes are read once from its metadata: the
 * properties its `@Query()` DTO validates, or the ones it names with `@Query('name')`, or none. Checked here
 * for every route, a parameter named after an Object.prototype member (`constructor`, `toString`, `__proto__`)
 * is unknown like any other (the validation pipe's whitelist takes those for the object's own).
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
    const unknown = Object.keys(req.query).filter((name) => !declared.has(name));
    if (unknown.length === 0) return true;
    throw validationFailure(unknown.map((name) => unknownParameter(name, declared)));
  }

  private declaredBy(controller: Function, handler: Function): Declared {
    const known = this.declared.get(handler);
    if (known) return known;
    const args: Record<string, { data?: unknown; index: number }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {};
    const types: unknown[] = Reflect.getMetadata('design:paramtypes', controller.prototype, handler.name) ?? [];
    const names = Object.entries(args)
      .filter(([key]) => key.split(':')[0] === String(RouteParamtypes.QUERY))
      .flatMap(([, arg]) => (arg.data === undefined ? validatedProperties(types[arg.index]) : [String(arg.data)]));
    const declared = new Set(names);
    this.declared.set(handler, declared);
    return declared;
  }
}

/** `size is not a query parameter of this operation; did you mean linesPerPage?` */
function unknownParameter(name: string, declared: Declared): string {
  const known = [...declared];
  const suggestion = suggestionFor(name, known);
  const takes = known.length === 0 ? ' (it takes none)' : '';
  return `${quoted(name)} is not a query parameter of this operation${takes}${suggestion ? `; did you mean ${suggestion}?` : ''}`;
}

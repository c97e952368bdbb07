import type { Request } from 'express';

/** The matched route template (`/platform-bot-admin/org/:orgUUID/…`), never the raw path with its ids. */
export function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route?.path;
  return typeof route === 'string' ? `${req.baseUrl ?? ''}${route}` : '(unmatched)';
}

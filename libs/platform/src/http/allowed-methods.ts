import type { Request } from 'express';

/** What Express 5's router keeps of a route: its path matcher and its methods. */
interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The methods the app's routes answer on the request's path (HEAD wherever GET is), from Express's own route
 * table, so that a method a path does not serve is a 405 with `Allow` rather than a 404. Empty for a path no route
 * matches.
 */
export function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(req.path)) continue;
    for (const [method, served] of Object.entries(layer.route.methods)) if (served && method !== '_all') methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return ORDER.filter((method) => methods.has(method));
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Whether a 404 is Nest's own for a request no route took (`Cannot <METHOD> <url>`), not an application 404. */
export function isUnroutedRequest(message: unknown, req: Request): boolean {
  return message === `Cannot ${req.method} ${req.originalUrl}`;
}

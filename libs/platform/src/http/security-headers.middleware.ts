import type { Request, RequestHandler, Response } from 'express';
import helmet, { HelmetOptions } from 'helmet';

/**
 * helmet's response headers, computed once by helmet itself and set in one step on every response. With
 * options that hold no per-request function (no CSP nonces), helmet answers every request alike, and
 * running its dozen middlewares per request cost about a tenth of a cheap read (docs/performance.md).
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => set.set(name, String(value)),
    removeHeader: (name: string) => removed.push(name),
    getHeader: (name: string) => set.get(name),
  } as unknown as Response;
  let failure: unknown;
  helmet(options)({ headers: {} } as Request, recorder, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  if (set.size === 0) throw new Error('helmet set no header: its options need a request (per-request functions are not supported here)');
  return (_req, res, next) => {
    res.setHeaders(set);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

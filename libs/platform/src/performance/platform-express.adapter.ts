import { NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

/** Express settings that change what `res.json` writes (`etag fn`: ETags it computes): a reply takes the short way only while none is set. */
const SEND_SETTINGS = ['json escape', 'json replacer', 'json spaces', 'etag fn'] as const;
/** Statuses whose replies Express strips or rewrites (no body, or an empty one). */
const BODILESS = new Set([204, 205, 304]);

/**
 * Nest's Express adapter, with two changes. node:http creates every request and response with Express's
 * prototypes (`app.request`, `app.response`) already in place; and a JSON reply is written as Express's
 * `res.json` would write it, without the work of `res.json` and `res.send` that changes nothing for it.
 *
 * Express gives each request and response its own prototype chain with `Object.setPrototypeOf` on
 * arrival. V8 then sees objects change shape on every request, and property accesses on them miss their
 * inline caches, in Express, Nest and every middleware. That cost 0.17-0.22 ms of CPU per request in the
 * apps, more than half of a cheap read (docs/performance.md). When the objects are born with that prototype,
 * Express's `setPrototypeOf` finds it already set and changes nothing.
 *
 * HTTPS and forced connection closing (neither used by the platform: TLS ends at the ingress) keep Nest's own
 * server.
 */
export class PlatformExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: withPrototype(IncomingMessage, app.request),
        ServerResponse: withPrototype(ServerResponse, app.response),
      },
      app,
    );
  }

  /**
   * An object body Nest hands over (a controller's return value, the error filter's body) is written as
   * `res.json` writes it: `JSON.stringify` of it, `application/json; charset=utf-8`, its byte length and the
   * status. `res.json` and `res.send` also parse and rebuild the content type, validate the status and check
   * freshness: 0.008 ms of CPU a get, 2-3% of it (docs/performance.md). Everything those steps could change
   * takes Nest's and Express's own way: a body that is not a plain object or array (a stream, an Error, a
   * Buffer), a content type already set, a HEAD, a conditional request (Express may answer 304), a status
   * Express strips the body of, and an app that has Express compute ETags or set any `json *` setting.
   */
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!writesAsJson(response, body, statusCode ?? response.statusCode)) return super.reply(response, body, statusCode);
    const json = JSON.stringify(body);
    if (statusCode) response.statusCode = statusCode;
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(json));
    response.end(json);
    return response;
  }
}

/** Whether `res.json` would write `body` with `status` as JSON.stringify, its type and length, and nothing else. */
function writesAsJson(response: Response, body: unknown, status: number): boolean {
  if (typeof body !== 'object' || body === null || body instanceof StreamableFile || body instanceof Error || Buffer.isBuffer(body)) return false;
  if (!Number.isInteger(status) || BODILESS.has(status)) return false;
  const { method, headers } = response.req;
  if (method === 'HEAD' || headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
  if (response.getHeader('content-type') !== undefined) return false;
  return SEND_SETTINGS.every((setting) => response.app.get(setting) === undefined);
}

/**
 * A constructor that builds what `base` builds, on `prototype` (which must inherit from `base.prototype`).
 * A plain function calling `base`: `Reflect.construct` with a new target measured 4x slower in V8. This needs
 * node's IncomingMessage and ServerResponse to stay plain functions (they are, in Node 20 and 22); were they
 * ES classes, the call would throw on the first request and platform-express.adapter.spec.ts would fail.
 */
function withPrototype<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  function Constructed(this: InstanceType<T>, ...args: ConstructorParameters<T>): void {
    (base as unknown as (...params: unknown[]) => void).apply(this, args);
  }
  Constructed.prototype = prototype;
  return Constructed as unknown as T;
}

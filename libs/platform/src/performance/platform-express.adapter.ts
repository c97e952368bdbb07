import { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nest's Express adapter, with one change: node:http creates every request and response with Express's
 * prototypes (`app.request`, `app.response`) already in place.
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

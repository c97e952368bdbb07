import type { Express } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { ExpressAdapter } from '@nestjs/platform-express';
import { PlatformExpressAdapter } from './platform-express.adapter';

describe('PlatformExpressAdapter', () => {
  let adapter: PlatformExpressAdapter;
  let server: Server;

  beforeEach(async () => {
    adapter = new PlatformExpressAdapter();
    adapter.initHttpServer({});
    server = adapter.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("creates every request and response on Express's prototypes, before Express sees them", async () => {
    const app = adapter.getInstance<Express>();
    const born: { request?: object; response?: object } = {};
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      born.request = Object.getPrototypeOf(req) as object;
      born.response = Object.getPrototypeOf(res) as object;
    });
    app.get('/ping', (req, res) => {
      res.json({ request: req instanceof IncomingMessage, response: res instanceof ServerResponse, query: req.query });
    });

    const { port } = server.address() as AddressInfo;
    const res = await request(`http://127.0.0.1:${port}`).get('/ping?a=1').expect(200);

    expect(born.request).toBe(app.request);
    expect(born.response).toBe(app.response);
    // Still node's objects, and Express's own methods work on them.
    expect(res.body).toEqual({ request: true, response: true, query: { a: '1' } });
  });
});

describe('PlatformExpressAdapter.reply', () => {
  /** Each server answers `/reply` by handing `reply` the case's body and status, as Nest's router does. */
  interface ReplyCase {
    name: string;
    body: unknown;
    status?: number;
    method?: 'get' | 'post' | 'head';
    headers?: Record<string, string>;
    /** A header the handler sets before the reply, as a controller does. */
    preset?: Record<string, string>;
    /** Whether the short way (no res.json) must be taken. */
    short: boolean;
  }
  const cases: ReplyCase[] = [
    { name: 'an object', body: { uuid: 'a', tags: [{ name: 'x' }], n: 1, none: null }, short: true },
    { name: 'an object with a status', body: { created: true }, status: 201, method: 'post', short: true },
    { name: 'an array', body: [1, 'two', { three: 3 }], short: true },
    { name: 'text beyond ASCII (the length is in bytes)', body: { name: 'Zürich 東京 🚀', long: 'é'.repeat(2_000) }, short: true },
    { name: 'an error body', body: { statusCode: 404, message: 'Not found' }, status: 404, short: true },
    { name: 'a HEAD', body: { a: 1 }, method: 'head', short: false },
    { name: 'a conditional GET that matches the ETag', body: { a: 1 }, preset: { ETag: '"v3"' }, headers: { 'if-none-match': '"v3"' }, short: false },
    { name: 'a conditional GET that does not match', body: { a: 1 }, preset: { ETag: '"v3"' }, headers: { 'if-none-match': '"v2"' }, short: false },
    { name: 'a content type already set', body: { type: 'problem' }, preset: { 'Content-Type': 'application/problem+json' }, short: false },
    { name: 'a 204', body: { ignored: true }, status: 204, short: false },
    { name: 'an Error', body: Object.assign(new Error('boom'), { config: { secret: 'x' } }), status: 500, short: false },
    { name: 'text', body: 'plain', short: false },
    { name: 'no body', body: undefined, short: false },
  ];

  const servers: Server[] = [];
  const start = async (adapter: ExpressAdapter, body: () => ReplyCase): Promise<{ url: string; app: Express }> => {
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    app.set('etag', false); // as createPlatformApp sets it
    app.all('/reply', (_req, res) => {
      const c = body();
      for (const [name, value] of Object.entries(c.preset ?? {})) res.setHeader(name, value);
      adapter.reply(res, c.body, c.status);
    });
    const server = adapter.getHttpServer() as Server;
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, app };
  };
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const answer = async (url: string, c: ReplyCase) => {
    const agent = request(url);
    const res = await agent[c.method ?? 'get']('/reply').set(c.headers ?? {});
    return { status: res.status, type: res.headers['content-type'], length: res.headers['content-length'], etag: res.headers.etag, text: res.text };
  };

  it.each(cases)('answers $name as the stock adapter does', async (c) => {
    const stock = await start(new ExpressAdapter(), () => c);
    const platform = await start(new PlatformExpressAdapter(), () => c);
    const json = jest.spyOn(platform.app.response, 'json');
    try {
      expect(await answer(platform.url, c)).toEqual(await answer(stock.url, c));
      // Express's way for an object is res.json; text and no body go to res.send.
      expect(json).toHaveBeenCalledTimes(!c.short && typeof c.body === 'object' ? 1 : 0);
    } finally {
      json.mockRestore();
    }
  });

  it("takes Express's way when the app has Express compute ETags, also when set after a first reply", async () => {
    const c = cases[0];
    const stock = await start(new ExpressAdapter(), () => c);
    const platform = await start(new PlatformExpressAdapter(), () => c);
    expect((await answer(platform.url, c)).etag).toBeUndefined();
    stock.app.set('etag', 'strong');
    platform.app.set('etag', 'strong');
    const theirs = await answer(stock.url, c);
    expect(theirs.etag).toBeDefined();
    expect(await answer(platform.url, c)).toEqual(theirs);
  });
});

import type { Express } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
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

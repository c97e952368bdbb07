import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { securityHeaders } from './security-headers.middleware';

const OPTIONS = { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", "'unsafe-inline'"], upgradeInsecureRequests: null } } };

async function headersOf(middleware: express.RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  const res = await request(app).get('/').expect(200);
  const { date: _date, etag: _etag, ...headers } = res.headers as Record<string, string>;
  return headers;
}

describe('securityHeaders', () => {
  it('sets exactly the headers helmet sets with the same options, x-powered-by removed as helmet removes it', async () => {
    const precomputed = await headersOf(securityHeaders(OPTIONS));
    expect(precomputed).toEqual(await headersOf(helmet(OPTIONS)));
    expect(precomputed['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(precomputed['x-powered-by']).toBeUndefined();
  });
});

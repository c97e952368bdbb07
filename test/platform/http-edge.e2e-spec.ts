import { JwtVerifier } from '@app/platform';
import type { Express } from 'express';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { BOT_ADMIN_APP } from '../../apps/bot-admin/src/bot-admin.app';
import { TRANSACTIONAL_SERVICE_APP } from '../../apps/transactional-service/src/transactional-service.app';
import { aConnectorBody, tenantPath } from '../rest-connectors/connector-factories';
import { seedTenant, Tenant } from '../support/fixtures';
import { committedDocument } from '../openapi/committed-documents';
import { openRaw, parseRawResponse } from '../support/raw-http';
import { mysqlTestConfig } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { bearer, signToken } from '../support/tokens';

describe('HTTP edge', () => {
  let sut: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    sut = await startTestApp(TRANSACTIONAL_SERVICE_APP, mysqlTestConfig({ corsOrigins: ['https://console.example.com'] }));
    tenant = await seedTenant(sut.dataSource);
    token = await signToken({ scope: 'connectors:write' });
  });
  afterAll(() => sut.close());

  it.each(['post', 'put'] as const)('answers 415 to a %s whose body is not JSON', async (method) => {
    const url = method === 'post' ? tenantPath(tenant) : `${tenantPath(tenant)}/3fa85f64-5717-4562-b3fc-2c963f66afa6`;

    const res = await sut.http[method](url).set(bearer(token)).set('Content-Type', 'application/x-www-form-urlencoded').send('name=x');

    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type', message: 'The request body must be application/json in UTF-8' });
  });

  it('refuses a body that is not valid UTF-8 instead of storing U+FFFD in its place', async () => {
    // The name `A\xED\xA0A`: half of a surrogate encoded in CESU-8, which no UTF-8 decoder may accept.
    const [before, after] = JSON.stringify(aConnectorBody({ name: 'A__A' })).split('__');
    const body = Buffer.concat([Buffer.from(before), Buffer.from([0xed, 0xa0]), Buffer.from(after)]);

    const res = await sut.http
      .post(tenantPath(tenant))
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .serialize((bytes: Buffer) => bytes as never)
      .send(body);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is not valid UTF-8');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a field named %s, which class-transformer would drop silently', async (key) => {
    const json = JSON.stringify(aConnectorBody()).replace(/^\{/, `{"${key}": {"x": 1},`);

    const res = await sut.http.post(tenantPath(tenant)).set(bearer(token)).set('Content-Type', 'application/json').send(json);

    expect(res.status).toBe(400);
    expect(res.body.message).toEqual([`${key} is not a field of this body`]);
  });

  it.each(['constructor', 'valueOf', 'toString', 'hasOwnProperty', '__proto__'])(
    'refuses a query parameter named %s on every read that takes a query, like any unknown parameter',
    async (name) => {
      const base = tenantPath(tenant);
      for (const path of [`${base}/pagination`, `${base}/quicksearch?searchTerm=a`, `${base}/deleted`, `${base}/list`]) {
        const res = await sut.http.get(`${path}${path.includes('?') ? '&' : '?'}${name}=1`).set(bearer(token));

        const takesNone = path.endsWith('/list') ? ' (it takes none)' : '';
        expect({ path, status: res.status, message: res.body.message }).toEqual({
          path,
          status: 400,
          message: [`${name} is not a query parameter of this operation${takesNone}`],
        });
      }
    },
  );

  it('takes Content-Length: 0 for no body, whatever its media type: the empty body is validated', async () => {
    const res = await sut.http.post(tenantPath(tenant)).set(bearer(token)).set('Content-Type', 'text/plain').set('Content-Length', '0');

    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(expect.arrayContaining([expect.stringContaining('name')]));
  });

  it('answers malformed JSON with where it stops being JSON and why, never quoting the body', async () => {
    const res = await sut.http.post(tenantPath(tenant)).set(bearer(token)).set('Content-Type', 'application/json').send('{"bearerToken": s3cr3t-value}');

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Malformed JSON in request body at line 1, column 17: a value must start here');
    expect(res.text).not.toContain('s3cr3t');
  });

  it('names the line and column of malformed JSON on every JSON route, a PUT as a POST', async () => {
    const res = await sut.http
      .put(`${tenantPath(tenant)}/${randomUUID()}`)
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .send('{\n  "name": "a",\n  "url": "https://x.example",\n}');

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Malformed JSON in request body at line 4, column 1: a property name must be a double-quoted string (no trailing comma)');
  });

  it('answers 413 to a body over 256 KiB', async () => {
    const res = await sut.http
      .post(tenantPath(tenant))
      .set(bearer(token))
      .send(aConnectorBody({ body: 'x'.repeat(300 * 1024) }));

    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('answers 400 to a body nested too deeply, before validation sees it', async () => {
    const deep = `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`;

    const res = await sut.http.post(tenantPath(tenant)).set(bearer(token)).set('Content-Type', 'application/json').send(deep);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is nested more than 32 levels deep');
  });

  it('answers 400 to a body of too many values, before validation sees it', async () => {
    const res = await sut.http
      .post(tenantPath(tenant))
      .set(bearer(token))
      .send({ ...aConnectorBody(), headers: Array.from({ length: 50_000 }, () => 1) });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body holds more than 1000 JSON values');
  });

  it("sets helmet's security headers", async () => {
    const res = await sut.http.get('/health/live').expect(200);

    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'strict-transport-security': expect.stringContaining('max-age='),
    });
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows CORS for a configured origin only', async () => {
    const allowed = await sut.http.get('/health/live').set('Origin', 'https://console.example.com').expect(200);
    const other = await sut.http.get('/health/live').set('Origin', 'https://evil.example.com').expect(200);

    expect(allowed.headers['access-control-allow-origin']).toBe('https://console.example.com');
    expect(allowed.headers['access-control-expose-headers']).toContain('X-Request-Id');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets a browser client read every header the API documents on its answers (Access-Control-Expose-Headers)', async () => {
    const documented = new Set<string>();
    for (const app of ['transactional-service', 'environment', 'bot-admin'] as const) {
      const document = committedDocument(app);
      for (const name of Object.keys(document.components?.headers ?? {})) documented.add(name);
      for (const item of Object.values(document.paths)) {
        for (const operation of Object.values(item as Record<string, { responses?: Record<string, { headers?: object }> }>)) {
          for (const response of Object.values(operation.responses ?? {})) for (const name of Object.keys(response.headers ?? {})) documented.add(name);
        }
      }
    }
    // Safelisted for browsers whatever the server says (Fetch standard), and the bearer challenge, read by no script.
    for (const name of ['Content-Type', 'WWW-Authenticate']) documented.delete(name);

    const res = await sut.http.get('/health/live').set('Origin', 'https://console.example.com').expect(200);

    expect(documented.size).toBeGreaterThan(5);
    expect(res.headers['access-control-expose-headers'].split(',').sort()).toEqual(expect.arrayContaining([...documented].sort()));
  });

  it("serves requests that are born on Express's prototypes (PlatformExpressAdapter)", async () => {
    const express = sut.app.getHttpAdapter().getInstance() as Express;
    const server = sut.app.getHttpServer() as Server;
    const born: object[] = [];
    const record = (req: IncomingMessage, res: ServerResponse) => born.push(Object.getPrototypeOf(req), Object.getPrototypeOf(res));
    server.prependListener('request', record);
    try {
      await sut.http.get('/health/live').expect(200);
    } finally {
      server.off('request', record);
    }

    expect(born).toHaveLength(2);
    expect(born[0]).toBe(express.request);
    expect(born[1]).toBe(express.response);
  });
});

/** A bot-admin app that allows 3 requests a minute, and the bots route of a tenant of its own. */
async function startBotAdminLimitedTo3(trustProxyHops = 0): Promise<{ sut: TestApp; url: string }> {
  const sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig({ rateLimitPerMinute: 3, trustProxyHops }));
  const tenant = await seedTenant(sut.dataSource);
  return { sut, url: `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin` };
}

describe('Rate limit per caller', () => {
  let sut: TestApp;
  let url: string;

  beforeAll(async () => ({ sut, url } = await startBotAdminLimitedTo3()));
  afterAll(() => sut.close());

  it('answers 429 with Retry-After once a caller passes RATE_LIMIT_PER_MINUTE, across routes, and only for that caller', async () => {
    const alice = await signToken({ sub: 'alice' });
    const bob = await signToken({ sub: 'bob' });

    const first = await sut.http.get(url).set(bearer(alice)).expect(200);
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' });
    await sut.http.get(`${url}/3fa85f64-5717-4562-b3fc-2c963f66afa6`).set(bearer(alice)).expect(404);
    await sut.http.get(url).set(bearer(alice)).expect(200);
    const limited = await sut.http.get(url).set(bearer(alice)).expect(429);

    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: 'Rate limit of 3 requests per minute exceeded' });
    await sut.http.get(url).set(bearer(bob)).expect(200);
    await sut.http.get('/health/ready').expect(200);
  });
});

describe('Rate limit of refused requests, per client address', () => {
  let sut: TestApp;
  let url: string;

  beforeAll(async () => ({ sut, url } = await startBotAdminLimitedTo3()));
  afterAll(() => sut.close());

  it('counts 401 and 403 answers per address, then answers 429 with Retry-After before verifying any token', async () => {
    const outsider = await signToken({ sub: 'mallory', orgs: ['0c2b6a57-7f0e-4f43-9e5e-3cb1d2a8a1aa'] });
    const valid = await signToken({ sub: 'alice' });
    // Refused before its body is read (requireBearerBeforeBody), counted all the same.
    await sut.http.post(url).send({ name: 'x' }).expect(401);
    await sut.http
      .get(url)
      .set(bearer(`${valid.slice(0, -4)}AAAA`))
      .expect(401);
    await sut.http.get(url).set(bearer(outsider)).expect(403);
    const verify = jest.spyOn(sut.app.get(JwtVerifier), 'verify');

    const limited = await sut.http.get(url).set(bearer(valid)).expect(429);

    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: 'Rate limit of 3 requests per minute exceeded' });
    expect(verify).not.toHaveBeenCalled();
    // A refused body is not read off the connection either: the answer closes it.
    const refusedWrite = await sut.http.post(url).set(bearer(valid)).send({ name: 'x' }).expect(429);
    expect(refusedWrite.headers.connection).toBe('close');
    // Trusting no proxy, a forwarded address changes nothing.
    await sut.http.get(url).set(bearer(valid)).set('X-Forwarded-For', '198.51.100.2').expect(429);
    // What needs no token stays open.
    await sut.http.get('/health/ready').expect(200);
    await sut.http.get('/metrics').expect(200);
    await sut.http.get('/platform-bot-admin/docs-json').expect(200);
  });
});

describe('Rate limit of refused requests behind a proxy (TRUST_PROXY_HOPS=1)', () => {
  let sut: TestApp;
  let url: string;

  beforeAll(async () => ({ sut, url } = await startBotAdminLimitedTo3(1)));
  afterAll(() => sut.close());

  it("counts the address the proxy saw, so one prober does not block the proxy's other clients", async () => {
    const prober = { 'X-Forwarded-For': '198.51.100.66, 203.0.113.7' };
    for (let i = 0; i < 3; i++) await sut.http.get(url).set(prober).expect(401);
    await sut.http.get(url).set(prober).expect(429);

    await sut.http
      .get(url)
      .set(bearer(await signToken({ sub: 'alice' })))
      .set('X-Forwarded-For', '203.0.113.8')
      .expect(200);
  });
});

describe('Server timeouts', () => {
  let sut: TestApp;
  let port: number;

  beforeAll(async () => {
    const httpTimeouts = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 1_000 };
    sut = await startTestApp(BOT_ADMIN_APP, mysqlTestConfig({ httpTimeouts }));
    await sut.app.listen(0, '127.0.0.1');
    port = (sut.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => sut.close());

  /**
   * Sends `head`, then `chunk` every 50 ms, until the server closes the connection or 200 chunks are sent
   * (ten seconds, many times the timeouts under test); what the server answered.
   */
  async function trickle(head: string, chunk: string): Promise<string> {
    const { socket, closed } = await openRaw(port);
    socket.write(head);
    let sent = 0;
    const writing = setInterval(() => {
      if (++sent > 200) socket.destroy();
      else if (socket.writable) socket.write(chunk);
    }, 50);
    try {
      return await closed;
    } finally {
      clearInterval(writing);
    }
  }

  it('cuts off a client that trickles its headers: 408 and the connection closed', async () => {
    const answer = await trickle('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: y\r\n');

    expect(parseRawResponse(answer).status).toBe(408);
  });

  it('cuts off a client that trickles its body: 408 and the connection closed', async () => {
    const token = await signToken({ scope: 'connectors:write' });
    const head = `POST /platform-bot-admin/anything HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":"`;

    const answer = await trickle(head, 'x');

    expect(parseRawResponse(answer).status).toBe(408);
  });
});

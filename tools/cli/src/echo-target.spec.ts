import { DEMO_ECHO_TARGET } from '@app/domain';
import { loadAppConfig } from '@app/platform';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { echoHandler } from './echo-target';

describe(echoHandler.name, () => {
  let sut: Server;
  let origin: string;

  beforeAll(async () => {
    sut = createServer(echoHandler);
    await new Promise<void>((done) => sut.listen(0, '127.0.0.2', done));
    origin = `http://127.0.0.2:${(sut.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => sut.close(() => done())));

  it('answers 200 with what the request carried: method, path, query, headers, body and the body parsed', async () => {
    const res = await fetch(`${origin}/v1/forecast?city=Lisbon`, { method: 'POST', headers: { 'x-tenant': 'acme' }, body: '{"a": 1}' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      data: {
        method: 'POST',
        path: '/v1/forecast',
        query: { city: 'Lisbon' },
        headers: expect.objectContaining({ 'x-tenant': 'acme' }),
        body: '{"a": 1}',
        json: { a: 1 },
      },
    });
  });

  it('is the one address the development default of OUTBOUND_ALLOWED_CIDRS admits', () => {
    expect(loadAppConfig({}).connectorTests.allowedCidrs).toEqual([DEMO_ECHO_TARGET.cidr]);
    expect(DEMO_ECHO_TARGET.url).toBe(`http://${DEMO_ECHO_TARGET.host}:${DEMO_ECHO_TARGET.port}`);
  });

  it('answers a bearer token to a POST to /oauth/token', async () => {
    const res = await fetch(`${origin}/oauth/token`, { method: 'POST', body: 'grant_type=client_credentials' });

    expect(await res.json()).toEqual({ access_token: 'demo-access-token', token_type: 'Bearer', expires_in: 3600 });
  });
});

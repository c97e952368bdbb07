import { callOnce, MAX_READ_BYTES, MAX_RETURNED_BYTES } from './outbound-call';
import { OutboundGuard } from './outbound-guard';
import { farSide } from './testing/far-side';

const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => []).dispatcher({ connectTimeoutMs: 2_000 });
afterAll(() => dispatcher.close());

const get = (url: string) => ({ method: 'GET', url, headers: [], body: null });

describe('callOnce', () => {
  it('sends the method, headers and body, and reports a 2xx as SUCCESS with the answer', async () => {
    const side = await farSide(({ method, headers, body }, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method, tenant: headers['x-tenant'], type: headers['content-type'], body }));
    });
    const result = await callOnce(dispatcher, { method: 'POST', url: `${side.url}/items`, headers: [{ header: 'X-Tenant', value: 'acme' }, { header: 'Content-Type', value: 'application/json' }], body: '{"a":1}' }, 2_000);
    expect(result).toMatchObject({ outcome: 'SUCCESS', message: null, answer: { status: 200, bodyTruncated: false } });
    expect(JSON.parse(result.answer!.body)).toEqual({ method: 'POST', tenant: 'acme', type: 'application/json', body: '{"a":1}' });
    expect(result.answer!.headers).toContainEqual({ header: 'content-type', value: 'application/json' });
    await side.close();
  });

  it('reports another status as HTTP_ERROR, and a redirect with its Location, not followed', async () => {
    const side = await farSide((received, res) => {
      if (received.url === '/missing') res.writeHead(404).end('no');
      else res.writeHead(302, { location: 'http://127.0.0.1/metadata' }).end();
    });
    expect(await callOnce(dispatcher, get(`${side.url}/missing`), 2_000)).toMatchObject({ outcome: 'HTTP_ERROR', message: 'The far side answered 404', answer: { status: 404, body: 'no' } });
    expect(await callOnce(dispatcher, get(`${side.url}/moved`), 2_000)).toMatchObject({
      outcome: 'HTTP_ERROR',
      message: 'The far side answered 302, redirecting to http://127.0.0.1/metadata (not followed)',
    });
    await side.close();
  });

  it('abandons a call that has not answered whole in time: TIMEOUT, no answer', async () => {
    const side = await farSide((_received, res) => {
      res.writeHead(200);
      res.write('the first bytes, then nothing');
    });
    const result = await callOnce(dispatcher, get(side.url), 300);
    expect(result).toMatchObject({ outcome: 'TIMEOUT', answer: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    await side.close();
  });

  it('reads at most 1 MiB and returns at most 64 KiB, never cutting a character in two', async () => {
    const side = await farSide((_received, res) => res.end('é'.repeat(MAX_READ_BYTES)));
    const result = await callOnce(dispatcher, get(side.url), 5_000);
    expect(result.outcome).toBe('SUCCESS');
    expect(result.answer).toMatchObject({ bodyTruncated: true, fullBodyTruncated: true });
    expect(Buffer.byteLength(result.answer!.body)).toBe(MAX_RETURNED_BYTES);
    expect(result.answer!.body).toBe('é'.repeat(MAX_RETURNED_BYTES / 2));
    expect(Buffer.byteLength(result.answer!.fullBody)).toBeLessThanOrEqual(MAX_READ_BYTES);
    await side.close();
  });

  it('reports a refused connection as CONNECTION_FAILED and a refused address as BLOCKED_DESTINATION', async () => {
    const side = await farSide((_received, res) => res.end());
    const closedPort = side.url;
    await side.close();
    expect(await callOnce(dispatcher, get(closedPort), 2_000)).toMatchObject({ outcome: 'CONNECTION_FAILED', message: 'Could not reach the far side: ECONNREFUSED', answer: null });
    expect(await callOnce(dispatcher, get('http://127.0.0.1:9/'), 2_000)).toMatchObject({ outcome: 'BLOCKED_DESTINATION', answer: null });
  });
});

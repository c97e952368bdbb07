import { callOnce, destinationInWords, failureOf, MAX_READ_BYTES } from './outbound-call';
import { OutboundGuard } from './outbound-guard';
import { RunDeadline } from './run-deadline';
import { farSide } from './testing/far-side';
import { AddressInfo, createServer } from 'node:net';

const dispatcher = new OutboundGuard(['127.0.0.2/32'], async () => []).dispatcher({ connectTimeoutMs: 2_000 });
afterAll(() => dispatcher.close());

const get = (url: string) => ({ method: 'GET', url, headers: [], body: null });
const within = (ms: number) => new RunDeadline(ms);

describe('callOnce', () => {
  it('sends the method, headers and body, and reports a 2xx as SUCCESS with the answer', async () => {
    const side = await farSide(({ method, headers, body }, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method, tenant: headers['x-tenant'], type: headers['content-type'], body }));
    });
    const call = {
      method: 'POST',
      url: `${side.url}/items`,
      headers: [
        { header: 'X-Tenant', value: 'acme' },
        { header: 'Content-Type', value: 'application/json' },
      ],
      body: '{"a":1}',
    };
    const result = await callOnce(dispatcher, call, within(2_000));
    expect(result).toMatchObject({ outcome: 'SUCCESS', message: null, answer: { status: 200, truncated: false } });
    expect(JSON.parse(result.answer!.bytes.toString())).toEqual({ method: 'POST', tenant: 'acme', type: 'application/json', body: '{"a":1}' });
    expect(result.answer!.headers).toContainEqual({ header: 'content-type', value: 'application/json' });
    await side.close();
  });

  it('reports another status as HTTP_ERROR, and a redirect with its Location, not followed', async () => {
    const side = await farSide((received, res) => {
      if (received.url === '/missing') res.writeHead(404).end('no');
      else res.writeHead(302, { location: 'http://127.0.0.1/metadata' }).end();
    });
    const missing = await callOnce(dispatcher, get(`${side.url}/missing`), within(2_000));
    expect(missing).toMatchObject({ outcome: 'HTTP_ERROR', message: 'The far side answered 404', answer: { status: 404 } });
    expect(missing.answer!.bytes.toString()).toBe('no');
    expect(await callOnce(dispatcher, get(`${side.url}/moved`), within(2_000))).toMatchObject({
      outcome: 'HTTP_ERROR',
      message: 'The far side answered 302, redirecting to http://127.0.0.1/metadata (not followed)',
    });
    await side.close();
  });

  it('abandons a call that has not answered whole by the deadline, even one that trickles: TIMEOUT, no answer', async () => {
    const side = await farSide((_received, res) => {
      res.writeHead(200);
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('.')), 50);
    });
    const result = await callOnce(dispatcher, get(side.url), within(300));
    expect(result).toEqual({ outcome: 'TIMEOUT', message: `127.0.0.2 port ${side.port} gave no whole answer within 300 ms, the run's limit`, answer: null });
    await side.close();
  });

  it('reads at most 1 MiB, and says the body went on', async () => {
    const side = await farSide((_received, res) => res.end('é'.repeat(MAX_READ_BYTES)));
    const result = await callOnce(dispatcher, get(side.url), within(5_000));
    expect(result.outcome).toBe('SUCCESS');
    expect(result.answer!.truncated).toBe(true);
    expect(result.answer!.bytes.length).toBeGreaterThan(MAX_READ_BYTES);
    expect(result.answer!.bytes.length).toBeLessThan(MAX_READ_BYTES + 256 * 1024);
    await side.close();
  });

  it('says in plain words which host and port could not be reached, and why; a refused address is BLOCKED_DESTINATION', async () => {
    const side = await farSide((_received, res) => res.end());
    const closedPort = side.url;
    await side.close();
    expect(await callOnce(dispatcher, get(closedPort), within(2_000))).toEqual({
      outcome: 'CONNECTION_FAILED',
      message: `Could not reach 127.0.0.2 port ${side.port}: the connection was refused (ECONNREFUSED)`,
      answer: null,
    });
    expect(await callOnce(dispatcher, get('http://127.0.0.1:9/'), within(2_000))).toMatchObject({
      outcome: 'BLOCKED_DESTINATION',
      answer: null,
      blocked: { address: '127.0.0.1' },
    });
  });

  it.each([
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nBad Header\r\n\r\n', /^answered, but not in valid HTTP\/1\.1 \(Invalid header token\)$/],
    [
      'a Content-Length twice',
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
      /^answered, but its body does not match its Content-Length \(UND_ERR_RES_CONTENT_LENGTH_MISMATCH\)$/,
    ],
  ])('says the far side answered, and what is wrong with it, for %s', async (_, answer, message) => {
    const raw = createServer((socket) => socket.once('data', () => socket.end(answer)));
    await new Promise<void>((done) => raw.listen(0, '127.0.0.2', done));
    const { port } = raw.address() as AddressInfo;
    try {
      const result = await callOnce(dispatcher, get(`http://127.0.0.2:${port}/`), within(2_000));
      expect(result).toMatchObject({ outcome: 'CONNECTION_FAILED', answer: null });
      expect(result.message!.replace(`127.0.0.2 port ${port} `, '')).toMatch(message);
    } finally {
      await new Promise((done) => raw.close(done));
    }
  });

  it('says in plain words why TLS failed, with host and port', () => {
    const deadline = within(2_000);
    expect(failureOf(Object.assign(new Error('self-signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'https://api.example.com/x', deadline)).toEqual({
      outcome: 'TLS_ERROR',
      message: 'TLS with api.example.com port 443 failed: its certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)',
    });
    expect(failureOf(Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'https://api.example.com:8443/', deadline).message).toBe(
      'TLS with api.example.com port 8443 failed: its certificate is not for this host name (ERR_TLS_CERT_ALTNAME_INVALID)',
    );
    deadline.end();
  });

  it('names the port a URL leaves to its scheme', () => {
    expect(destinationInWords('https://api.example.com/x')).toBe('api.example.com port 443');
    expect(destinationInWords('http://[::1]:8080/')).toBe('[::1] port 8080');
  });
});

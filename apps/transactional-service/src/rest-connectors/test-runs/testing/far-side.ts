import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A request as the far side received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Names and values as they came, alternating: Node's `headers` drops a header named `__proto__`. */
  rawHeaders: string[];
  body: string;
}

export type FarSideHandler = (received: ReceivedRequest, res: ServerResponse) => void;

/** The default answer: 200, JSON `{ "data": { "level": 7 } }`. */
export const answerLevel7: FarSideHandler = (_received, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ data: { level: 7 } }));
};

/**
 * The far side of a test run in tests: a real HTTP server on a loopback address (127.0.0.2 unless told), that
 * records every request and counts every connection, so a test can prove that nothing arrived. No test-run
 * test ever listens, resolves or connects outside 127.0.0.0/8 and ::1.
 */
export async function farSide(handle: FarSideHandler = answerLevel7, host = '127.0.0.2') {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const one = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body };
      received.push(one);
      handle(one, res);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((done) => server.listen(0, host, done));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    /** `http://host:port`, no trailing slash. */
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    received,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

export type FarSide = Awaited<ReturnType<typeof farSide>>;

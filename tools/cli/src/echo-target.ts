import { DEMO_ECHO_TARGET } from '@app/domain';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/** How much of a request body the echo reads: a connector sends at most 128 KiB filled. */
const MAX_BODY = 256 * 1024;

/**
 * The demo echo target (DEMO_ECHO_TARGET), which `npm start` serves in development only: every request is answered 200
 * with what it carried, `{ "data": { method, path, query, headers, body, json } }`, so that a first test run succeeds
 * and its answer shows what the connector sent; a POST to /oauth/token answers a bearer token (an hour), so that the
 * OAuth 2.0 example runs too. It holds nothing and calls nothing.
 */
export function echoHandler(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  });
  req.on('end', () => {
    const url = new URL(req.url ?? '/', DEMO_ECHO_TARGET.url);
    const answer =
      req.method === 'POST' && url.pathname === '/oauth/token'
        ? { access_token: 'demo-access-token', token_type: 'Bearer', expires_in: 3600 }
        : { data: echoed(req, url, Buffer.concat(chunks).toString('utf8')) };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer));
  });
}

function echoed(req: IncomingMessage, url: URL, body: string): object {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return {
    method: req.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    ...(json !== undefined && { json }),
  };
}

/** Listens at DEMO_ECHO_TARGET; the reason it cannot (its port taken, its address missing on this machine) otherwise. */
export function startEchoTarget(): Promise<{ server: Server } | { problem: string }> {
  const server = createServer(echoHandler);
  return new Promise((done) => {
    server.once('error', (error: NodeJS.ErrnoException) => done({ problem: error.code ?? error.message }));
    server.listen(DEMO_ECHO_TARGET.port, DEMO_ECHO_TARGET.host, () => done({ server }));
  });
}

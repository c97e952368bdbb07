import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:http';
import { connect, Socket } from 'node:net';

export interface RawConnection {
  socket: Socket;
  /** Everything the server sent, once it has closed the connection (end or reset). */
  closed: Promise<string>;
}

/** A plain TCP connection to a loopback port, for requests no HTTP client would send (partial, trickled). */
export function openRaw(port: number): Promise<RawConnection> {
  return new Promise((opened, failed) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    // A reset after the answer is a close too: what matters is what arrived before it.
    socket.on('error', () => undefined);
    socket.once('connect', () => opened({ socket, closed }));
    socket.once('error', failed);
  });
}

/** The status code and the lower-cased headers of a raw HTTP/1.1 answer, and its body. */
export function parseRawResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

/** What a GET on a connection of its own came to: the whole answer, or the socket error's code. */
export type Outcome = { status: number; headers: IncomingHttpHeaders; body: string } | { error: string };

/** One GET to a loopback port on a connection of its own (no agent, no keep-alive pool): its whole answer, or the socket error. */
export function getAlone(port: number, path: string, headers: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end();
  });
}

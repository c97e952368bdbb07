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

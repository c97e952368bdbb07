import express from 'express';
import { createServer, Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createHttpLogger } from './request-log';

describe('createHttpLogger', () => {
  let server: Server;
  let port: number;
  const lines: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = express();
    app.use(createHttpLogger(pino({}, destination)));
    app.get('/fast', (_req, res) => {
      res.json({ ok: true });
    });
    app.get('/status/:code', (req, res) => {
      res.status(Number(req.params.code)).json({});
    });
    app.get('/slow', (_req, res) => {
      setTimeout(() => res.json({ ok: true }), 200);
    });
    // The server ends the connection itself (as a shutdown's end does), without an answer.
    app.get('/cut', (req) => {
      req.socket.destroy();
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => lines.splice(0));

  const linesWritten = async (count: number) => {
    const deadline = Date.now() + 2_000;
    while (lines.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('writes 503, a refusal with Retry-After, at warn like a 4xx, and the other 5xx at error', async () => {
    for (const code of [200, 404, 500, 502, 503]) {
      const res = await fetch(`http://127.0.0.1:${port}/status/${code}`);
      expect(res.status).toBe(code);
    }
    await linesWritten(5);

    expect(lines.map((line) => [line.msg.split(' ')[2], pino.levels.labels[line.level]])).toEqual([
      ['200', 'info'],
      ['404', 'warn'],
      ['500', 'error'],
      ['502', 'error'],
      ['503', 'warn'],
    ]);
  });

  it('writes a line, at info, for each request whose caller closed the connection before the answer, a pipelined one waiting its turn too', async () => {
    const socket = connect(port, '127.0.0.1');
    // The second request waits, without a socket, behind the first: it gets no 'close' of its own.
    socket.write('GET /slow HTTP/1.1\r\nHost: test\r\n\r\nGET /fast HTTP/1.1\r\nHost: test\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await linesWritten(2);

    expect(lines.map((line) => line.msg).sort()).toEqual([
      'GET /fast 200 (the caller closed the connection before the answer was sent)',
      'GET /slow 200 (the caller closed the connection before the answer was sent)',
    ]);
    // A caller that stops waiting is normal: not an error.
    expect(lines.every((line) => line.level === 30)).toBe(true);
  });

  it('writes a line at error for an answer the server cut short', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('GET /cut HTTP/1.1\r\nHost: test\r\n\r\n');
    await linesWritten(1);
    socket.destroy();

    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'GET /cut 200 (connection closed before the answer was sent)' })]);
  });
});

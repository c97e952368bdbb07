import express from 'express';
import { createServer, request, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { AnswersInFlight, ShutdownState } from './shutdown';

/** A server counting its requests with ShutdownState; `/slow` answers after 200 ms. */
async function serverCounting(state: ShutdownState): Promise<{ server: Server; port: number }> {
  const app = express();
  app.use(state.middleware);
  app.get('/fast', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/slow', (_req, res) => {
    setTimeout(() => res.json({ ok: true }), 200);
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await sleep(10);
}

describe('ShutdownState: requests in flight', () => {
  let state: ShutdownState;
  let server: Server;
  let port: number;

  beforeEach(async () => {
    state = new ShutdownState();
    ({ server, port } = await serverCounting(state));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('counts a request while it is answered, and not after', async () => {
    const answered = new Promise<number>((resolve) => {
      request({ port, host: '127.0.0.1', path: '/slow' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).end();
    });
    await until(() => state.inFlight === 1);
    expect(state.inFlight).toBe(1);

    expect(await answered).toBe(200);
    await until(() => state.inFlight === 0);
    expect(state.inFlight).toBe(0);
  });

  it('stops counting a request whose client hangs up before the answer', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /slow HTTP/1.1\r\nHost: test\r\n\r\n');
    await until(() => state.inFlight === 1);
    expect(state.inFlight).toBe(1);

    socket.destroy();
    await until(() => state.inFlight === 0);
    expect(state.inFlight).toBe(0);
  });

  it('stops counting a pipelined request queued behind another when the connection is cut', async () => {
    const socket = connect(port, '127.0.0.1');
    // Two requests at once on one connection: the second waits, without a socket, for the first's answer.
    socket.write('GET /slow HTTP/1.1\r\nHost: test\r\n\r\nGET /fast HTTP/1.1\r\nHost: test\r\n\r\n');
    await until(() => state.inFlight === 2);
    expect(state.inFlight).toBe(2);

    socket.destroy();
    await until(() => state.inFlight === 0);
    expect(state.inFlight).toBe(0);
    await sleep(300); // the first request's late answer must not count it twice
    expect(state.inFlight).toBe(0);
  });

  it('adds one close listener to a connection however many requests it carries', async () => {
    const serverSide: Socket[] = [];
    server.on('connection', (socket: Socket) => serverSide.push(socket));
    const send = async (times: number) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.write('GET /fast HTTP/1.1\r\nHost: test\r\n\r\n'.repeat(times));
      await until(() => (received.match(/HTTP\/1\.1 200/g) ?? []).length === times);
      return socket;
    };
    const one = await send(1);
    const twenty = await send(20);

    expect(serverSide).toHaveLength(2);
    expect(serverSide[1].listenerCount('close')).toBe(serverSide[0].listenerCount('close'));
    expect(state.inFlight).toBe(0);
    one.destroy();
    twenty.destroy();
  });

  it('calls each onDrain listener once, when draining turns on', () => {
    const calls: string[] = [];
    state.onDrain(() => calls.push('first'));
    state.onDrain(() => calls.push('second'));
    expect(calls).toEqual([]);

    state.draining = true;
    state.draining = true;

    expect(calls).toEqual(['first', 'second']);
    expect(state.draining).toBe(true);
  });

  it('asks a request already in flight to close its connection, as every later one', async () => {
    const answered = new Promise<Record<string, unknown>>((resolve) => {
      request({ port, host: '127.0.0.1', path: '/slow' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      }).end();
    });
    await until(() => state.inFlight === 1);

    state.draining = true;

    expect(await answered).toMatchObject({ connection: 'close' });
  });
});

describe('ShutdownState: quiet', () => {
  /** Shorter than the production wait, to keep the test short; longer than every other pause here. */
  const FIRST_REQUEST_WAIT = 1_500;
  let state: ShutdownState;
  let server: Server;
  let port: number;
  const accepted: Socket[] = [];

  beforeEach(async () => {
    state = new ShutdownState(FIRST_REQUEST_WAIT);
    ({ server, port } = await serverCounting(state));
    state.watch(server);
    server.on('connection', (socket: Socket) => accepted.push(socket));
    accepted.length = 0;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('waits for a connection that has not yet sent its first request, past the quiet period', async () => {
    const socket = connect(port, '127.0.0.1');
    await until(() => accepted.length === 1);
    await sleep(400); // longer than the quiet period: no request has come for that long
    expect(state.quiet).toBe(false);

    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write('GET /fast HTTP/1.1\r\nHost: test\r\n\r\n');
    await until(() => received.includes('{"ok":true}'));
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    await sleep(400);
    expect(state.quiet).toBe(true); // a kept-alive connection that has been answered does not hold the stop
    socket.destroy();
  });

  it('stops waiting for a connection closed before it sent anything', async () => {
    const socket = connect(port, '127.0.0.1');
    await until(() => accepted.length === 1);
    await sleep(400);
    expect(state.quiet).toBe(false);

    socket.destroy();
    await until(() => state.silentConnections === 0); // well before the first-request wait ends
    expect(state.silentConnections).toBe(0);
    expect(state.quiet).toBe(true);
  });

  it('stops waiting for a silent connection once it has been open for the first-request wait', async () => {
    const socket = connect(port, '127.0.0.1');
    await until(() => accepted.length === 1);
    expect(state.quiet).toBe(false);
    expect(state.silentConnections).toBe(1);

    await sleep(FIRST_REQUEST_WAIT + 100); // a pre-opened connection, not a paused client
    expect(state.quiet).toBe(true);
    expect(state.silentConnections).toBe(1);
    socket.destroy();
  });
});

describe('AnswersInFlight', () => {
  const responses = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }) as unknown as import('express').Response);
  const ids = (list: AnswersInFlight) => {
    const seen: number[] = [];
    list.forEach((res) => seen.push((res as unknown as { id: number }).id));
    return seen;
  };

  it('holds each added response until it is removed, in any order, and counts them', () => {
    const list = new AnswersInFlight();
    const [a, b, c, d] = responses(4);
    for (const res of [a, b, c, d]) list.add(res);
    list.remove(b);
    list.remove(d);

    expect({ size: list.size, ids: ids(list).sort() }).toEqual({ size: 2, ids: [0, 2] });
    list.remove(a);
    list.remove(c);
    expect({ size: list.size, ids: ids(list) }).toEqual({ size: 0, ids: [] });
  });

  it('ignores a response removed twice or never added, and takes a removed one back', () => {
    const list = new AnswersInFlight();
    const [a, b, stranger] = responses(3);
    list.add(a);
    list.add(b);
    list.remove(a);
    list.remove(a);
    list.remove(stranger);

    expect({ size: list.size, ids: ids(list) }).toEqual({ size: 1, ids: [1] });
    list.add(a);
    expect({ size: list.size, ids: ids(list).sort() }).toEqual({ size: 2, ids: [0, 1] });
  });
});

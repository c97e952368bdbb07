import { connect, createServer, Server, Socket } from 'node:net';

/** A TCP proxy the tests put between an app and its database, to cut and restore the link at will. */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  /** The database vanishes: open connections break and new ones are refused. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((done) => this.server!.close(() => done()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** The database is back, on the same address. */
  restore(): Promise<number> {
    return this.start();
  }

  stop(): Promise<void> {
    return this.server?.listening ? this.cut() : Promise.resolve();
  }
}

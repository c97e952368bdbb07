import { DatabaseConfig } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { connect, createServer, Server, Socket } from 'node:net';
import { TEST_MYSQL_SERVER } from './test-database';
import { TEST_REDIS_URL } from './test-redis';

/** A TCP proxy the tests put between an app and its database, to cut and restore the link at will. */
export class TcpProxy {
  private server?: Server;
  /** Each open connection: the client's socket and the one to the target. */
  private readonly pairs = new Set<[Socket, Socket]>();
  private stalled = false;
  port = 0;
  /** Connections accepted since the proxy was made (a client that reconnects shows here). */
  accepted = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      this.accepted++;
      const upstream = connect(this.target.port, this.target.host);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      for (const socket of pair) socket.on('error', () => socket.destroy());
      if (!this.stalled) client.pipe(upstream).pipe(client);
      // Either side closing closes the other, and the pair is gone.
      client.on('close', () => {
        this.pairs.delete(pair);
        upstream.destroy();
      });
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  /** The database vanishes: open connections break and new ones are refused. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((done) => this.server!.close(() => done()));
    for (const pair of this.pairs) for (const socket of pair) socket.destroy();
    await closed;
  }

  /**
   * The far side stops answering without closing anything (a vanished host, a failover): nothing is forwarded
   * on open connections or new ones, and nothing is closed. `cut` and `restore` end it.
   */
  stall(): void {
    this.stalled = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  /** The far side is back, on the same address. */
  restore(): Promise<number> {
    this.stalled = false;
    return this.start();
  }

  stop(): Promise<void> {
    return this.server?.listening ? this.cut() : Promise.resolve();
  }
}

/** A started proxy in front of the suite's MariaDB, and the database config that reaches it through the proxy. */
export async function proxiedTestDatabase(): Promise<{ proxy: TcpProxy; database: DatabaseConfig }> {
  const server = new URL(TEST_MYSQL_SERVER);
  const proxy = new TcpProxy({ host: server.hostname, port: Number(server.port || 3306) });
  const proxied = new URL(process.env.TEST_DATABASE_URL!);
  proxied.host = `127.0.0.1:${await proxy.start()}`;
  return { proxy, database: parseServerUrl(proxied.toString()) };
}

/** A started proxy in front of the test Redis, and the REDIS_URL that reaches Redis through it. */
export async function proxiedTestRedis(): Promise<{ proxy: TcpProxy; redisUrl: string }> {
  const server = new URL(TEST_REDIS_URL);
  const proxy = new TcpProxy({ host: server.hostname, port: Number(server.port || 6379) });
  const proxied = new URL(TEST_REDIS_URL);
  proxied.host = `127.0.0.1:${await proxy.start()}`;
  return { proxy, redisUrl: proxied.toString() };
}

/**
 * A private `nats-server` with JetStream for the tests that cut the broker: its own port on 127.0.0.1, its own store
 * directory under os.tmpdir(), killed by its pid and started again on the same port and store, so what JetStream
 * stored before the kill is there after it.
 *
 * Every server is started under `setpriv --pdeathsig KILL` (as test/support/mariadb-replication.ts starts mariadbd), so
 * the kernel kills it when the jest worker that started it dies however it dies. Store directories left by a dead
 * process are swept by the next start.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { PrivateServer, ServerKind } from './server-process';

/** One nats-server with a private store and port; its faults are real signals to the real process. */
export interface NatsServer {
  /** The TCP port on 127.0.0.1; the same across kill and start. */
  readonly port: number;
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  /** The running process's pid, undefined while it is down. */
  readonly pid: number | undefined;
  /** SIGKILL by pid (a crash); resolves when the process has exited. */
  kill(): Promise<void>;
  /** SIGSTOP: the kernel still accepts connections and bytes, but the server answers nothing. Resolves once it is stopped (stopProcess). */
  pause(): Promise<void>;
  /** SIGCONT after `pause()`. */
  resume(): void;
  /** Starts it again on the same port and store; resolves when it greets a client (throws after 15 s). */
  start(): Promise<void>;
  /** Kills it and removes its directory; safe to call twice. */
  close(): Promise<void>;
  /** The last lines of its log file, for a failing test's message. */
  logTail(lines?: number): string;
}

/** The machine's NATS server with JetStream (set TEST_NATS_URL to use another); `.ci/run` starts it when it does not answer. */
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

const NATS: ServerKind = {
  name: 'nats-server',
  scheme: 'nats',
  binary: process.env.TEST_NATS_SERVER ?? '/usr/sbin/nats-server',
  args: (port, dir, logFile) => [
    ...['--addr', '127.0.0.1', '--port', String(port)],
    ...['--jetstream', '--store_dir', join(dir, 'store')],
    ...['--log', logFile],
    // One name at every start, as a deployed server keeps (by default nats-server makes up a new one each time).
    ...['--server_name', `test_${port}`],
  ],
  // nats-server enables JetStream, and recovers the streams of its store, before it greets a client: a server that
  // sends its INFO line is ready to publish to.
  ready: sendsInfo,
  portTaken: /address already in use/i,
};

/** Starts a private nats-server with JetStream; `name` only labels its directory under os.tmpdir(). */
export function startNatsServer(options: { name?: string } = {}): Promise<NatsServer> {
  return PrivateServer.start(NATS, options.name);
}

function sendsInfo(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    const finish = (answer: boolean) => {
      socket.destroy();
      done(answer);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('data', (chunk) => finish(chunk.toString('latin1').startsWith('INFO ')));
  });
}

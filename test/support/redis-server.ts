/**
 * A private `redis-server` for the tests that kill Redis: its own port on 127.0.0.1, nothing kept on disk (`--save ""
 * --appendonly no`, as the compose file runs it), killed by its pid and started again on the same port, empty. Never
 * the shared Redis of TEST_REDIS_URL.
 *
 * Started under `setpriv --pdeathsig KILL` (as test/support/nats-server.ts starts nats-server), so the kernel kills it
 * when the jest worker that started it dies however it dies. Directories left by a dead process are swept by the next
 * start.
 */
import { PrivateServer, ServerKind } from './server-process';
import { redisAnswers } from './test-redis';

export interface RedisServer {
  /** The TCP port on 127.0.0.1; the same across kill and start. */
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** The running process's pid, undefined while it is down. */
  readonly pid: number | undefined;
  /** SIGKILL by pid; resolves when the process has exited. Everything it held is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty; resolves when it answers PING (throws after 15 s). */
  start(): Promise<void>;
  /** Kills it and removes its directory; safe to call twice. */
  close(): Promise<void>;
  /** The last lines of its log file, for a failing test's message. */
  logTail(lines?: number): string;
}

const REDIS: ServerKind = {
  name: 'redis-server',
  scheme: 'redis',
  binary: process.env.TEST_REDIS_SERVER ?? '/usr/bin/redis-server',
  args: (port, dir, logFile) => [
    ...['--bind', '127.0.0.1', '--port', String(port)],
    ...['--save', '', '--appendonly', 'no', '--dir', dir],
    ...['--logfile', logFile, '--daemonize', 'no'],
  ],
  ready: (port) => redisAnswers(`redis://127.0.0.1:${port}`),
  portTaken: /Address already in use/i,
};

/** Starts a private redis-server; `name` only labels its directory under os.tmpdir(). */
export function startRedisServer(options: { name?: string } = {}): Promise<RedisServer> {
  return PrivateServer.start(REDIS, options.name);
}

/**
 * A private `redis-server` for the tests that kill Redis: its own port on 127.0.0.1, nothing kept on disk (`--save ""
 * --appendonly no`, as the compose file runs it), killed by its pid and started again on the same port, empty. Never
 * the shared Redis of TEST_REDIS_URL.
 *
 * Started under `setpriv --pdeathsig KILL` (as test/support/nats-server.ts starts nats-server), so the kernel kills it
 * when the jest worker that started it dies however it dies. Directories left by a dead process are swept by the next
 * start.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, logTail, removeIfOwnerGone, startOnFreePort } from './server-process';
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

const REDIS_SERVER = process.env.TEST_REDIS_SERVER ?? '/usr/bin/redis-server';
/** When present, redis-server is exec'd through it with a parent-death signal (util-linux, Debian's default). */
const SETPRIV = '/usr/bin/setpriv';
const START_TIMEOUT_MS = 15_000;
const DIR_PREFIX = 'redis-server-';

/** Starts a private redis-server; `name` only labels its directory under os.tmpdir(). */
export async function startRedisServer(options: { name?: string } = {}): Promise<RedisServer> {
  for (const entry of readdirSync(tmpdir())) if (entry.startsWith(DIR_PREFIX)) await removeIfOwnerGone(join(tmpdir(), entry));
  const label = (options.name ?? 'test').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 24);
  const dir = await mkdtemp(join(tmpdir(), `${DIR_PREFIX}${label}-`));
  await writeFile(join(dir, 'owner.pid'), String(process.pid));
  const server = new Server(dir);
  try {
    await server.start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

class Server implements RedisServer {
  port = 0;
  private child?: ChildProcess;
  private exited: Promise<void> = Promise.resolve();
  private started = false;

  constructor(private readonly dir: string) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child && isAlive(this.child) ? this.child.pid : undefined;
  }

  async start(): Promise<void> {
    if (this.pid !== undefined) throw new Error(`redis-server on port ${this.port} is already running (pid ${this.pid})`);
    if (this.started) return this.startOnce();
    this.port = await startOnFreePort((port) => {
      this.port = port;
      return this.startOnce();
    }, /Address already in use/i);
    this.started = true;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !isAlive(child)) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  async close(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  logTail(lines = 25): string {
    return logTail(join(this.dir, 'redis-server.log'), lines);
  }

  private async startOnce(): Promise<void> {
    const args = [
      ...['--bind', '127.0.0.1', '--port', String(this.port)],
      ...['--save', '', '--appendonly', 'no', '--dir', this.dir],
      ...['--logfile', join(this.dir, 'redis-server.log'), '--daemonize', 'no'],
    ];
    const [command, commandArgs] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', REDIS_SERVER, ...args]] : [REDIS_SERVER, args];
    const child = spawn(command, commandArgs, { stdio: 'ignore' });
    this.child = child;
    this.exited = new Promise<void>((done) => {
      child.once('exit', () => done());
      child.once('error', () => done()); // e.g. ENOENT: there is no process to wait for
    });
    // The child does not hold jest's event loop; kill() and close() wait for its exit when asked.
    child.unref();
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (!isAlive(child)) {
        throw new Error(`redis-server (port ${this.port}) exited while starting (code ${child.exitCode}, signal ${child.signalCode})\n${this.logTail()}`);
      }
      if (await redisAnswers(this.url)) return;
      if (Date.now() > deadline) {
        await this.kill();
        throw new Error(`redis-server (port ${this.port}) did not answer PING within ${START_TIMEOUT_MS} ms\n${this.logTail()}`);
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  }
}

/**
 * A private `nats-server` with JetStream for the tests that cut the broker: its own port on 127.0.0.1, its own store
 * directory under os.tmpdir(), killed by its pid and started again on the same port and store, so what JetStream
 * stored before the kill is there after it.
 *
 * Every server is started under `setpriv --pdeathsig KILL` (as test/support/mariadb-replication.ts starts mariadbd), so
 * the kernel kills it when the jest worker that started it dies however it dies. Store directories left by a dead
 * process are swept by the next start.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, logTail, removeIfOwnerGone, startOnFreePort, stopProcess } from './server-process';

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

const NATS_SERVER = process.env.TEST_NATS_SERVER ?? '/usr/sbin/nats-server';
/** When present, nats-server is exec'd through it with a parent-death signal (util-linux, Debian's default). */
const SETPRIV = '/usr/bin/setpriv';
const START_TIMEOUT_MS = 15_000;
const DIR_PREFIX = 'nats-server-';

/** Starts a private nats-server with JetStream; `name` only labels its directory under os.tmpdir(). */
export async function startNatsServer(options: { name?: string } = {}): Promise<NatsServer> {
  await sweepAbandoned();
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

class Server implements NatsServer {
  port = 0;
  private child?: ChildProcess;
  private exited: Promise<void> = Promise.resolve();
  private started = false;

  constructor(private readonly dir: string) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child && isAlive(this.child) ? this.child.pid : undefined;
  }

  async start(): Promise<void> {
    if (this.pid !== undefined) throw new Error(`nats-server on port ${this.port} is already running (pid ${this.pid})`);
    if (this.started) return this.startOnce();
    this.port = await startOnFreePort((port) => {
      this.port = port;
      return this.startOnce();
    }, /address already in use/i);
    this.started = true;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !isAlive(child)) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  pause(): Promise<void> {
    return stopProcess(this.running(), 'nats-server');
  }

  resume(): void {
    this.running().kill('SIGCONT');
  }

  async close(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  logTail(lines = 25): string {
    return logTail(join(this.dir, 'nats-server.log'), lines);
  }

  private running(): ChildProcess {
    if (!this.child || !isAlive(this.child)) throw new Error(`nats-server on port ${this.port} is not running`);
    return this.child;
  }

  private async startOnce(): Promise<void> {
    const args = [
      ...['--addr', '127.0.0.1', '--port', String(this.port)],
      ...['--jetstream', '--store_dir', join(this.dir, 'store')],
      ...['--log', join(this.dir, 'nats-server.log')],
      // One name at every start, as a deployed server keeps (by default nats-server makes up a new one each time).
      ...['--server_name', `test_${this.port}`],
    ];
    const [command, commandArgs] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', NATS_SERVER, ...args]] : [NATS_SERVER, args];
    const child = spawn(command, commandArgs, { stdio: 'ignore' });
    this.child = child;
    this.exited = new Promise<void>((done) => {
      child.once('exit', () => done());
      child.once('error', () => done()); // e.g. ENOENT: there is no process to wait for
    });
    // The child does not hold jest's event loop; kill() and close() wait for its exit when asked.
    child.unref();
    try {
      await greeted(this.port, child);
    } catch (error) {
      await this.kill();
      throw new Error(`${(error as Error).message}\n${this.logTail()}`, { cause: error });
    }
  }
}

/**
 * Polls until the server sends its INFO line to a new connection. nats-server enables JetStream, and recovers the
 * streams of its store, before it accepts clients: a server that greets is ready to publish to.
 */
async function greeted(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (!isAlive(child)) throw new Error(`nats-server (port ${port}) exited while starting (code ${child.exitCode}, signal ${child.signalCode})`);
    if (await sendsInfo(port)) return;
    if (Date.now() > deadline) throw new Error(`nats-server (port ${port}) did not greet a client within ${START_TIMEOUT_MS} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
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

/** Removes the directories of servers whose owner process is gone. */
async function sweepAbandoned(): Promise<void> {
  for (const entry of readdirSync(tmpdir())) if (entry.startsWith(DIR_PREFIX)) await removeIfOwnerGone(join(tmpdir(), entry));
}

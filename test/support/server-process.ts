/**
 * What the tests' private servers (test/support/mariadb-replication.ts, nats-server.ts, redis-server.ts) share: the
 * first start's port, the liveness of the process, its pause, the sweep of what a dead test left behind, the log a
 * failure shows, and (PrivateServer) the whole life of a server that needs nothing more than a port and a directory.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/**
 * The first start of a server picks a free port: another process may take it before the server binds it, so a first
 * start that fails with `portTaken` tries another port, three times in all. Later starts keep the port the tests know.
 */
export async function startOnFreePort(start: (port: number) => Promise<void>, portTaken: RegExp): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await start(port);
      return port;
    } catch (error) {
      if (!portTaken.test(String(error)) || attempt === 3) throw error;
    }
  }
}

export function isAlive(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/**
 * SIGSTOP, resolved once the process is stopped: a signal takes effect when the process next runs, and on the other
 * core it may answer a request meanwhile. `what` names it in the error when it does not stop within 5 s.
 */
export async function stopProcess(child: ChildProcess, what: string): Promise<void> {
  child.kill('SIGSTOP');
  // /proc/<pid>/stat: "pid (comm) state ...", T when stopped by a signal.
  const state = () => readFileSync(`/proc/${child.pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
  for (const deadline = Date.now() + 5_000; state() !== 'T'; await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) throw new Error(`${what} (pid ${child.pid}) did not stop within 5 s of SIGSTOP`);
  }
}

/** Removes `dir` when the process named in its `owner.pid` is gone (its servers died with it: --pdeathsig). */
export async function removeIfOwnerGone(dir: string): Promise<void> {
  const owner = Number(await readFile(join(dir, 'owner.pid'), 'utf8').catch(() => 'NaN'));
  if (Number.isInteger(owner) && !processExists(owner)) await rm(dir, { recursive: true, force: true }).catch(() => {});
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The last lines of a server's log file, for a failing test's message. */
export function logTail(file: string, lines = 25): string {
  try {
    return `--- last lines of ${file} ---\n${readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`;
  } catch {
    return `(no log at ${file})`;
  }
}

/** What differs between the tests' private servers of one kind: the program, its arguments, and when it is ready. */
export interface ServerKind {
  /** `redis-server`, `nats-server`: names its directory, its log file and its errors. */
  name: string;
  /** The program's path. */
  binary: string;
  /** The scheme of its URL: `redis`, `nats`. */
  scheme: string;
  /** The program's arguments for a port, a directory of its own and a log file in it. */
  args(port: number, dir: string, logFile: string): string[];
  /** Whether the server on `port` is ready for clients (PING answered, a greeting sent). */
  ready(port: number): Promise<boolean>;
  /** What its log or error says when the port is taken. */
  portTaken: RegExp;
}

/** When present, a server is exec'd through it with a parent-death signal (util-linux, Debian's default). */
const SETPRIV = '/usr/bin/setpriv';
const START_TIMEOUT_MS = 15_000;

/**
 * One private server of the tests: its own port on 127.0.0.1 (the same across kill and start) and its own directory
 * under os.tmpdir(), started under `setpriv --pdeathsig KILL` so the kernel kills it when the jest worker that started
 * it dies however it dies; its faults are real signals to the real process, by its pid.
 */
export class PrivateServer {
  port = 0;
  private child?: ChildProcess;
  private exited: Promise<void> = Promise.resolve();
  private started = false;

  constructor(
    private readonly kind: ServerKind,
    private readonly dir: string,
  ) {}

  /**
   * Starts a server of `kind`; `label` only names its directory. Directories left by a dead test process are swept
   * first.
   */
  static async start(kind: ServerKind, label = 'test'): Promise<PrivateServer> {
    const prefix = `${kind.name}-`;
    for (const entry of readdirSync(tmpdir())) if (entry.startsWith(prefix)) await removeIfOwnerGone(join(tmpdir(), entry));
    const dir = await mkdtemp(join(tmpdir(), `${prefix}${label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 24)}-`));
    await writeFile(join(dir, 'owner.pid'), String(process.pid));
    const server = new PrivateServer(kind, dir);
    try {
      await server.start();
    } catch (error) {
      await server.close();
      throw error;
    }
    return server;
  }

  /** `<scheme>://127.0.0.1:<port>`. */
  get url(): string {
    return `${this.kind.scheme}://127.0.0.1:${this.port}`;
  }

  /** The running process's pid, undefined while it is down. */
  get pid(): number | undefined {
    return this.child && isAlive(this.child) ? this.child.pid : undefined;
  }

  /** Starts it (again, on the same port and directory); resolves when it is ready (throws after 15 s). */
  async start(): Promise<void> {
    if (this.pid !== undefined) throw new Error(`${this.kind.name} on port ${this.port} is already running (pid ${this.pid})`);
    if (this.started) return this.startOnce();
    this.port = await startOnFreePort((port) => {
      this.port = port;
      return this.startOnce();
    }, this.kind.portTaken);
    this.started = true;
  }

  /** SIGKILL by pid (a crash); resolves when the process has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !isAlive(child)) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGSTOP: the kernel still accepts connections and bytes, but the server answers nothing. Resolves once it is stopped. */
  pause(): Promise<void> {
    return stopProcess(this.running(), this.kind.name);
  }

  /** SIGCONT after `pause()`. */
  resume(): void {
    this.running().kill('SIGCONT');
  }

  /** Kills it and removes its directory; safe to call twice. */
  async close(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  /** The last lines of its log file, for a failing test's message. */
  logTail(lines = 25): string {
    return logTail(this.logFile, lines);
  }

  private get logFile(): string {
    return join(this.dir, `${this.kind.name}.log`);
  }

  private running(): ChildProcess {
    if (!this.child || !isAlive(this.child)) throw new Error(`${this.kind.name} on port ${this.port} is not running`);
    return this.child;
  }

  private async startOnce(): Promise<void> {
    const { name, binary } = this.kind;
    const args = this.kind.args(this.port, this.dir, this.logFile);
    const [command, commandArgs] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', binary, ...args]] : [binary, args];
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
        throw new Error(`${name} (port ${this.port}) exited while starting (code ${child.exitCode}, signal ${child.signalCode})\n${this.logTail()}`);
      }
      if (await this.kind.ready(this.port)) return;
      if (Date.now() > deadline) {
        await this.kill();
        throw new Error(`${name} (port ${this.port}) was not ready within ${START_TIMEOUT_MS} ms\n${this.logTail()}`);
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  }
}

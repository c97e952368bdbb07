import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** How long a built app may take to listen and be ready: generous, for a loaded 2-core machine. */
export const APP_START_TIMEOUT_MS = 120_000;

/** When present, the app is exec'd through it with a parent-death signal (util-linux, Debian's default). */
const SETPRIV = '/usr/bin/setpriv';

/** The app's start line (run-platform-app.ts), which names the port it bound. */
const LISTENING = /listening on [^"\n]*?, port (\d+)[;"]/;

export interface AppStart {
  /** node's arguments: the main script, after any node flags. */
  args: string[];
  /** The app's whole environment; PORT is set to 0, and LOG_LEVEL to info unless given (the start line is an info line). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Whether /health/ready must answer 200 before the start counts (default); false: the start line is enough. */
  waitForReadiness?: boolean;
  timeoutMs?: number;
}

/** A built app the test started, with all it wrote. */
export class AppProcess {
  /** The port the app took (PORT=0), as its start line names it. */
  port = 0;
  stdout = '';
  stderr = '';
  /** stdout and stderr as they came. */
  output = '';
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk) => {
      this.stdout += chunk;
      this.output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      this.stderr += chunk;
      this.output += chunk;
    });
    this.exited = new Promise((done) => {
      child.once('exit', (code) => done(code));
      child.once('error', () => done(null)); // e.g. ENOENT: there is no process to wait for
    });
  }

  /** `http://127.0.0.1:<port>`. */
  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the app wrote last, for a failing test's message. */
  tail(chars = 4_000): string {
    return `--- app stderr ---\n${this.stderr.slice(-chars)}\n--- app stdout ---\n${this.stdout.slice(-chars)}`;
  }

  /** Sends `signal` (SIGKILL unless told) if it still runs; resolves with its exit code once it has exited. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}

/**
 * Starts a built app (`node <args>`) with PORT=0: the system picks a free port and the app's start line names it, so
 * no other process can take the port between a probe and the app's listen. Killed by the kernel if the jest worker
 * dies (setpriv --pdeathsig, when present). Resolves once the start line is out and /health/ready answered 200;
 * an exit before that, or no start within the deadline, fails with what the app wrote (and kills it).
 */
export async function startApp(start: AppStart): Promise<AppProcess> {
  const timeoutMs = start.timeoutMs ?? APP_START_TIMEOUT_MS;
  const env = { ...start.env, PORT: '0', LOG_LEVEL: start.env.LOG_LEVEL ?? 'info' };
  const [command, args] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', process.execPath, ...start.args]] : [process.execPath, start.args];
  const app = new AppProcess(spawn(command, args, { cwd: start.cwd, env }));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!app.running) {
      await app.exited;
      throw new Error(`${start.args.join(' ')} exited (code ${app.child.exitCode}, signal ${app.child.signalCode}) before it was ready\n${app.tail()}`);
    }
    const listening = LISTENING.exec(app.stdout);
    if (listening) app.port = Number(listening[1]);
    if (listening && (start.waitForReadiness === false || (await isReady(app, deadline)))) return app;
    if (Date.now() > deadline) {
      await app.stop();
      const waited = listening ? `answer /health/ready on port ${app.port}` : `write its "listening on …, port N" line (LOG_LEVEL=${env.LOG_LEVEL})`;
      throw new Error(`${start.args.join(' ')} did not ${waited} within ${timeoutMs} ms\n${app.tail()}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

async function isReady(app: AppProcess, deadline: number): Promise<boolean> {
  const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  const answer = await fetch(`${app.base}/health/ready`, { signal }).catch(() => undefined);
  await answer?.body?.cancel();
  return answer?.status === 200;
}

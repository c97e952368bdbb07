/**
 * What the tests' private servers (test/support/mariadb-replication.ts, test/support/nats-server.ts) share: the first
 * start's port, the liveness of the process, its pause, the sweep of what a dead test left behind, and the log a
 * failure shows.
 */
import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
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

/** Removes `dir` when the process named in its `owner.pid` is gone (its servers died with it: --pdeathsig). */
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

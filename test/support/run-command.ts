import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry point of the project the way the npm scripts do (ts-node, path aliases). */
export function runTs(entry: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CommandResult> {
  return runNode(['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', entry, ...args], env, timeoutMs);
}

/**
 * Runs the built CLI (dist/tools/cli/main.js, what `npm run build` makes and the image runs) with `args`: the same
 * commands as the npm scripts, without transpiling the sources at every start. Each npm script's own path (ts-node)
 * is run by a test of its own.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CommandResult> {
  return runBuilt('dist/tools/cli/main.js', args, env, timeoutMs);
}

/** Runs a built bundle (`dist/…/main.js`) with `args`; says to build first when it is missing. */
export function runBuilt(bundle: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CommandResult> {
  if (!existsSync(resolve(ROOT, bundle))) throw new Error(`${bundle} is missing: npm test builds before running jest (npm run build)`);
  return runNode([bundle, ...args], env, timeoutMs);
}

/** Runs node with `args` in `cwd` (the repository unless told), with only PATH, HOME, the ts-node project and `env`. */
export function runNode(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000, cwd = ROOT): Promise<CommandResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd,
      // A process group of its own, so that a timeout kills what the command started too.
      detached: true,
      // Only what the command needs: never the suite's own variables.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TS_NODE_PROJECT: resolve(ROOT, 'tsconfig.json'), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      fail(new Error(`${args.join(' ')} did not finish in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

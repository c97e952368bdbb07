import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Piscina } from 'piscina';
import type { AnswerTask, AnswerTaskResult } from './answer.worker';

/** The time one answer may take to read, waiting for a worker included: past it, the worker reading it is stopped. */
export const ANSWER_BUDGET_MS = 500;
/** Worker threads at most; each is started when needed and ends after a minute unused. */
const MAX_WORKERS = 2;
/**
 * Each worker's heap: a 1 MiB answer parses into ~10-20 MB of objects, and what a query selects is bounded
 * (OUTPUT_LIMITS); an answer or query that needs more is stopped with its worker, never the process.
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 } as const;

export type WorkerLimits = { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number; stackSizeMb: number };

/** What reading an answer came to: its result, or why it was stopped. */
export type AnswerOutcome = { result: AnswerTaskResult } | { stopped: string };

/**
 * Reads the far side's answers of test runs (answer.worker.ts: scrubbed, cut, parsed, `output` applied) in a
 * small pool of worker threads (piscina) with resource limits: an answer or a query that would take the process's
 * memory, stack or event loop is stopped with its worker, and the run says so. Nothing is loaded until the first
 * answer.
 */
export class AnswerReader {
  private pool?: Promise<Piscina>;

  constructor(
    private readonly budgetMs = ANSWER_BUDGET_MS,
    private readonly limits: WorkerLimits = WORKER_LIMITS,
  ) {}

  /** The task's result, or why it stopped: over the budget, over the memory, or the caller left. */
  async read(task: AnswerTask, callerGone?: AbortSignal): Promise<AnswerOutcome> {
    let workers: Piscina;
    try {
      workers = await this.workers();
    } catch (error) {
      // No worker could start (its script missing, say): this run says so, and the next one tries again.
      this.pool = undefined;
      return { stopped: `could not be read: ${(error as Error).message}` };
    }
    const budget = AbortSignal.timeout(this.budgetMs);
    const signal = callerGone ? AbortSignal.any([budget, callerGone]) : budget;
    try {
      return { result: (await workers.run(task, { signal })) as AnswerTaskResult };
    } catch (error) {
      if (budget.aborted) return { stopped: `took longer than ${this.budgetMs} ms to read, and was stopped` };
      if (callerGone?.aborted) return { stopped: 'was not read: the test run was cancelled' };
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return { stopped: `needed more than the ${this.limits.maxOldGenerationSizeMb} MB of memory a test run may use to read it, and was stopped` };
      }
      return { stopped: `could not be read: ${(error as Error).message}` };
    }
  }

  async close(): Promise<void> {
    await (await this.pool)?.destroy();
  }

  /**
   * The pool, its first worker started and warm before the first budget starts: the first run of a replica does
   * not pay the worker's start (loading the query and regex libraries) out of its own budget.
   */
  private workers(): Promise<Piscina> {
    return (this.pool ??= (async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Piscina } = require('piscina') as typeof import('piscina');
      const pool = new Piscina({ filename: workerScript(), minThreads: 0, maxThreads: MAX_WORKERS, idleTimeout: 60_000, resourceLimits: this.limits });
      await pool.run({ body: '', whole: true, secrets: [], shownBytes: 0, isJson: false, expression: null } satisfies AnswerTask);
      return pool;
    })());
  }
}

let script: string | undefined;

/**
 * The worker's script. Built, it is the webpack entry beside the app's bundle (apps/transactional-service/
 * webpack.config.js). From the TypeScript sources (the tests), a worker cannot load .ts files: the worker's source
 * and the project files it imports (which import only packages or each other) are transpiled once into
 * node_modules/.cache, keeping their relative places, so that their imports of packages resolve to the project's
 * node_modules; the folder's name holds a hash of the sources.
 */
function workerScript(): string {
  return (script ??= builtOrTranspiled());
}

function builtOrTranspiled(): string {
  const built = join(__dirname, 'answer.worker.js');
  if (existsSync(built)) return built;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const entry = join(__dirname, 'answer.worker.ts');
  const resolved = require.resolve('piscina');
  const modules = resolved.slice(0, resolved.lastIndexOf('node_modules') + 'node_modules'.length);
  const root = dirname(modules);
  const sources = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (sources.has(file)) continue;
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    sources.set(file, outputText);
    for (const [, local] of outputText.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) pending.push(`${resolve(dirname(file), local)}.ts`);
  }
  const hash = createHash('sha256');
  for (const [file, text] of [...sources].sort(([a], [b]) => a.localeCompare(b))) hash.update(file).update(text);
  const cache = join(modules, '.cache', 'bot-platform', hash.digest('hex').slice(0, 16));
  const entryScript = join(cache, relative(root, entry).replace(/\.ts$/, '.js'));
  if (!existsSync(entryScript)) {
    for (const [file, text] of sources) {
      const target = join(cache, relative(root, file).replace(/\.ts$/, '.js'));
      mkdirSync(dirname(target), { recursive: true });
      // Written whole under another name, then renamed: parallel test processes never read half a file.
      const partial = `${target}.${process.pid}`;
      writeFileSync(partial, text);
      renameSync(partial, target);
    }
  }
  return entryScript;
}

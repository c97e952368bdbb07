import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { AnswerProgress, AnswerShown, AnswerTask, AnswerTaskResult, SecretSearch } from './answer.worker';

/** The time the worker may spend on one answer, from when it starts on it: past it, that worker is stopped. */
export const ANSWER_BUDGET_MS = 500;
/** The time an answer may wait for a free worker; past it, it is not read. */
export const ANSWER_QUEUE_MS = 2_000;
/** Worker threads at most; one is kept once started, a second is started when needed and ends after a minute unused. */
const MAX_WORKERS = 2;
/**
 * Each worker's heap: a 1 MiB answer parses into ~10-20 MB of objects, and what a query selects is bounded
 * (OUTPUT_LIMITS); an answer, query or secret that needs more is stopped with its worker, never the process.
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 } as const;

export type WorkerLimits = { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number; stackSizeMb: number };

/**
 * What reading an answer came to: its result; or why it was stopped, with what could be shown of it before (its
 * scrubbed texts and body) and, for the server's log, an error that was not the answer's doing.
 */
export type AnswerOutcome = { result: AnswerTaskResult } | { stopped: string; shown?: AnswerShown; error?: Error };

/**
 * Reads the far side's answers of test runs (answer.worker.ts: scrubbed, cut, parsed, `output` applied) in a
 * small pool of worker threads (piscina) with resource limits: an answer, a query or a secret that would take
 * the process's memory, stack or event loop is stopped with its worker, and the run says so. The budget starts
 * when a worker starts on the answer (it writes the time in a SharedArrayBuffer of the task), so that waiting for
 * a worker is bounded on its own and a worker's start is never charged to an answer. Nothing is loaded until the
 * first answer.
 */
export class AnswerReader {
  private pool?: Promise<Piscina>;
  /**
   * Where workers hand over what they scrubbed before they parse and query: one channel for the pool, not a
   * MessagePort per answer (made and transferred each time, it cost more than the rest of a small answer's round
   * trip); its name is this reader's own.
   */
  private readonly channelName = `answer-reader-${randomUUID()}`;
  private channel?: BroadcastChannel;
  private readonly shownBy = new Map<number, (shown: AnswerShown) => void>();
  private nextId = 1;

  constructor(
    private readonly budgetMs = ANSWER_BUDGET_MS,
    private readonly limits: WorkerLimits = WORKER_LIMITS,
    private readonly script: () => string = workerScript,
  ) {}

  /** `task.bytes` must own its ArrayBuffer (ownBytes): it is handed to the worker, and unusable here after. */
  async read(task: Omit<AnswerTask, 'progress'>, callerGone?: AbortSignal): Promise<AnswerOutcome> {
    return this.run<AnswerTaskResult>('default', task, [task.bytes.buffer], callerGone);
  }

  /** Whether any of the texts holds a form of any of the secrets (answer.worker.ts, holdsSecret), or why that could not be told. */
  async holdsSecret(task: Omit<SecretSearch, 'progress'>, callerGone?: AbortSignal): Promise<{ result: boolean } | { stopped: string; error?: Error }> {
    return this.run<boolean>('holdsSecret', task, [], callerGone);
  }

  /** One task of the worker script's export `name`, within the bounds (see the class). */
  private async run<T>(
    name: string,
    task: object,
    transfer: ArrayBufferLike[],
    callerGone?: AbortSignal,
  ): Promise<{ result: T } | { stopped: string; shown?: AnswerShown; error?: Error }> {
    let workers: Piscina;
    try {
      workers = await this.workers();
    } catch (error) {
      // No worker could start (its script missing, say): this run says so, and the next one tries again.
      this.pool = undefined;
      return { stopped: 'could not be read: the answer reader failed to start', error: error as Error };
    }
    const id = this.nextId++;
    const started = new Float64Array(new SharedArrayBuffer(8));
    const submitted = Date.now();
    const stop = new AbortController();
    let shown: AnswerShown | undefined;
    this.shownBy.set(id, (scrubbed) => (shown = scrubbed));
    // One timer, re-armed: while the task waits, until ANSWER_QUEUE_MS have passed; once the worker has written
    // when it started, until budgetMs after that.
    let timer: NodeJS.Timeout;
    const check = () => {
      const at = started[0];
      if (at === 0) {
        const waited = Date.now() - submitted;
        if (waited >= ANSWER_QUEUE_MS) stop.abort('queued');
        else timer = setTimeout(check, Math.min(this.budgetMs, ANSWER_QUEUE_MS - waited));
      } else {
        const left = at + this.budgetMs - Date.now();
        if (left <= 0) stop.abort('budget');
        else timer = setTimeout(check, left);
      }
    };
    timer = setTimeout(check, this.budgetMs);
    const cancel = () => stop.abort('cancelled');
    if (callerGone?.aborted) cancel();
    else callerGone?.addEventListener('abort', cancel, { once: true });
    try {
      const progress: AnswerProgress = { id, channel: this.channelName, started: started.buffer as SharedArrayBuffer };
      return { result: (await workers.run({ ...task, progress }, { name, signal: stop.signal, transferList: transfer as never })) as T };
    } catch (error) {
      if (stop.signal.reason === 'budget') return { stopped: `took longer than ${this.budgetMs} ms to read, and was stopped`, shown };
      if (stop.signal.reason === 'queued')
        return { stopped: `waited longer than ${ANSWER_QUEUE_MS} ms for a free reader: this replica is busy reading other answers` };
      if (stop.signal.reason === 'cancelled') return { stopped: 'was not read: the test run was cancelled', shown };
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return { stopped: `needed more than the ${this.limits.maxOldGenerationSizeMb} MB of memory a test run may use to read it, and was stopped`, shown };
      }
      return { stopped: 'could not be read: the answer reader failed', shown, error: error as Error };
    } finally {
      clearTimeout(timer);
      callerGone?.removeEventListener('abort', cancel);
      this.shownBy.delete(id);
    }
  }

  async close(): Promise<void> {
    const pool = await this.pool?.catch(() => undefined);
    await pool?.destroy();
    this.channel?.close();
  }

  /**
   * The pool, one worker started and warm before the first answer's budget starts; it is kept (minThreads), so
   * that a replica that runs test runs has a reader ready, replaced at once when one is stopped.
   */
  private workers(): Promise<Piscina> {
    return (this.pool ??= (async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Piscina } = require('piscina') as typeof import('piscina');
      const pool = new Piscina({ filename: this.script(), minThreads: 1, maxThreads: MAX_WORKERS, idleTimeout: 60_000, resourceLimits: this.limits });
      this.channel = new BroadcastChannel(this.channelName);
      this.channel.unref();
      this.channel.onmessage = (event) => {
        const { id, shown } = (event as { data: { id: number; shown: AnswerShown } }).data;
        this.shownBy.get(id)?.(shown);
      };
      try {
        await pool.run({ bytes: new Uint8Array(0), whole: true, texts: [], secrets: [], shownBytes: 0, isJson: false, expression: null } satisfies AnswerTask);
      } catch (error) {
        await pool.destroy();
        throw error;
      }
      return pool;
    })());
  }
}

/**
 * The bytes in an ArrayBuffer of their own, which can be handed to a worker without a copy: a small Buffer lives in
 * a slab Node shares between Buffers, which must not be handed over; it is copied (cheaply, being small).
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes : new Uint8Array(bytes);
}

let script: string | undefined;

/** The worker's script: the webpack entry beside the app's bundle (apps/transactional-service/webpack.config.js), or, from the TypeScript sources, transpiled. */
function workerScript(): string {
  return (script ??= existsSync(join(__dirname, 'answer.worker.js'))
    ? join(__dirname, 'answer.worker.js')
    : // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('./from-sources/worker-script') as typeof import('./from-sources/worker-script')).transpiledWorkerScript(join(__dirname, 'answer.worker.ts')));
}

import { Logger } from '@nestjs/common';
import type { Piscina } from 'piscina';
import { startedAt, TaskEnvelope } from './worker-task';

/** A worker's heap and stack: a task that needs more stops its worker, never the process. */
export interface WorkerLimits {
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
  stackSizeMb: number;
}

export interface WorkerPoolOptions {
  /** The file of the worker script (workerScript), asked when the pool starts. */
  script: () => string;
  /** Workers kept once started, at most, and how long one more than `min` is kept unused. */
  threads: { min: number; max: number; idleMs: number };
  limits: WorkerLimits;
  /** The time a task may take, from when its worker starts on it (never from when it was queued). */
  budgetMs: number;
  /** The time a task may wait for a worker to start on it, a worker's own start included. */
  queueMs: number;
  /** The tasks that may wait behind the running ones: one more is refused at once. */
  maxQueue: number;
  /** A task of the script's default export run when the pool starts, before any other: a worker's start is then never charged to a task's wait. */
  warmUp?: unknown;
}

/**
 * Why a task was stopped: `queue-full` (maxQueue tasks already waited), `queue-wait` (no worker started on it within
 * queueMs), `budget` (its worker took longer than budgetMs, and was stopped), `caller-left` (its caller's signal was
 * aborted), `shutdown` (the pool was closed), `out-of-memory` (its worker needed more than its limits); with an error
 * for the log, `not-started` (no worker could start, its script missing say: the next task tries again) and `failed`
 * (the task threw, or its worker died otherwise).
 */
export type StopReason = 'queue-full' | 'queue-wait' | 'budget' | 'caller-left' | 'shutdown' | 'out-of-memory';
export type TaskOutcome<R> = { result: R } | { stopped: StopReason } | { stopped: 'not-started' | 'failed'; error: Error };

export interface RunOptions {
  /** The export of the worker script that runs the task; its default export when absent. */
  name?: string;
  /** Aborted when the task's caller has left: the task is taken from the queue, or its worker stopped. */
  callerGone?: AbortSignal;
  /** Buffers of the task handed to the worker rather than copied (unusable on this thread after). */
  transfer?: ArrayBufferLike[];
}

/**
 * A bounded pool of worker threads (piscina) for work that may take a worker's CPU or memory, never the app's: the
 * test runs' answers (test-runs/answer/answer-reader.ts) and the imports' sources (import-export/import-reader.ts).
 * Each task runs within `budgetMs` from when its worker starts on it (the worker writes the time into a shared word
 * of the task: worker-task.ts), waits at most `queueMs` for that, behind at most `maxQueue` others, and a worker past
 * its budget, its caller gone or its memory is stopped and replaced. Every end is an outcome, never an exception:
 * its result, or why it stopped. Nothing is loaded before the first task.
 */
export class WorkerPool {
  private pool?: Promise<Piscina>;
  /** The tasks queued or running, each with the word its worker writes when it starts on it. */
  private readonly tasks = new Map<AbortController, SharedArrayBuffer>();
  /**
   * The tasks handed to piscina, at most one per worker, and those waiting for their turn, first come first served.
   * The queue is the pool's own: piscina, with no worker kept (threads.min 0), starts none for the tasks it queued
   * when the worker it stopped (a task past its budget, its caller gone) was the last, and they would wait until
   * the next task came; handed one per worker, each task that finds no worker makes piscina start one.
   */
  private handed = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  private readonly logger = new Logger(WorkerPool.name);

  constructor(private readonly options: WorkerPoolOptions) {}

  async run<R>(task: unknown, { name, callerGone, transfer = [] }: RunOptions = {}): Promise<TaskOutcome<R>> {
    if (this.closed) return { stopped: 'shutdown' };
    if (callerGone?.aborted) return { stopped: 'caller-left' };
    if (this.tasks.size >= this.options.threads.max + this.options.maxQueue) return { stopped: 'queue-full' };
    const stop = new AbortController();
    const envelope: TaskEnvelope<unknown> = { task, started: new SharedArrayBuffer(8) };
    this.tasks.set(stop, envelope.started);
    const leave = () => stop.abort('caller-left');
    callerGone?.addEventListener('abort', leave, { once: true });
    try {
      let workers: Piscina;
      try {
        workers = await this.started();
      } catch (error) {
        this.pool = undefined;
        return stop.signal.aborted ? stopped(stop.signal) : { stopped: 'not-started', error: error as Error };
      }
      const unwatch = this.watch(envelope.started, stop);
      try {
        if (!(await this.turn(stop.signal))) return stopped(stop.signal);
        try {
          return { result: (await workers.run(envelope, { name, signal: stop.signal, transferList: transfer as never })) as R };
        } finally {
          this.release();
        }
      } catch (error) {
        if (stop.signal.aborted) return stopped(stop.signal);
        if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') return { stopped: 'out-of-memory' };
        return { stopped: 'failed', error: error as Error };
      } finally {
        unwatch();
      }
    } finally {
      callerGone?.removeEventListener('abort', leave);
      this.tasks.delete(stop);
    }
  }

  /** Stops every task, queued or running (`shutdown`), and the workers; a task run afterwards is stopped at once. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.tasks.keys()) stop.abort('shutdown');
    const pool = await this.pool?.catch(() => undefined);
    await pool?.destroy();
  }

  /** Resolves true once the task may be handed to piscina (a worker is or will be free for it), false if it was stopped first. */
  private turn(stop: AbortSignal): Promise<boolean> {
    if (stop.aborted) return Promise.resolve(false);
    if (this.handed < this.options.threads.max) {
      this.handed++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const go = () => {
        stop.removeEventListener('abort', leave);
        this.handed++;
        resolve(true);
      };
      const leave = () => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        resolve(false);
      };
      this.waiting.push(go);
      stop.addEventListener('abort', leave, { once: true });
    });
  }

  private release(): void {
    this.handed--;
    this.waiting.shift()?.();
  }

  /** One timer, re-armed: while the task waits, until queueMs from now; once its worker wrote when it started, until budgetMs after. */
  private watch(started: SharedArrayBuffer, stop: AbortController): () => void {
    const { budgetMs, queueMs } = this.options;
    const queued = Date.now();
    let timer: NodeJS.Timeout;
    const check = () => {
      const at = startedAt(started);
      const left = at === undefined ? queued + queueMs - Date.now() : at + budgetMs - Date.now();
      if (left <= 0) stop.abort(at === undefined ? 'queue-wait' : 'budget');
      // While it waits, checked at least once per budget: its start is seen before its budget would have run out.
      else timer = setTimeout(check, at === undefined ? Math.min(left, budgetMs, 1_000) : left);
    };
    timer = setTimeout(check, Math.min(queueMs, budgetMs, 1_000));
    return () => clearTimeout(timer);
  }

  private started(): Promise<Piscina> {
    return (this.pool ??= (async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Piscina } = require('piscina') as typeof import('piscina');
      const { script, threads, limits, warmUp } = this.options;
      const pool = new Piscina({ filename: script(), minThreads: threads.min, maxThreads: threads.max, idleTimeout: threads.idleMs, resourceLimits: limits });
      const warm = new AbortController();
      pool.on('error', (error: Error) => this.failedOutsideTasks(error, warm));
      if (warmUp !== undefined) {
        try {
          await pool.run({ task: warmUp, started: new SharedArrayBuffer(8) } satisfies TaskEnvelope<unknown>, { signal: warm.signal });
        } catch (error) {
          await pool.destroy();
          throw warm.signal.aborted ? warm.signal.reason : error;
        }
      }
      return pool;
    })());
  }

  /**
   * A worker failed with no task of its own: it could not start (its script missing, say). piscina then starts no
   * other worker until a task is run, and the tasks that waited for this one would wait for ever: they, and the
   * warm-up, are stopped with its error (`not-started`); the tasks running on other workers go on.
   */
  private failedOutsideTasks(error: Error, warm: AbortController): void {
    this.logger.error(`A worker failed outside any task: ${error.message}`, error.stack);
    warm.abort(error);
    for (const [stop, started] of this.tasks) if (startedAt(started) === undefined) stop.abort(error);
  }
}

/** The outcome of a task stopped by `signal`: its reason, or the error of the worker that could not start. */
function stopped(signal: AbortSignal): TaskOutcome<never> {
  const reason = signal.reason as StopReason | Error;
  return typeof reason === 'string' ? { stopped: reason } : { stopped: 'not-started', error: reason };
}

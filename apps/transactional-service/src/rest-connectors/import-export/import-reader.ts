import { ImportFormat, InvalidInputError } from '@app/domain';
import { AnswerHandle, releaseOnceSent, TooManyRequestsException } from '@app/platform';
import { Inject, Injectable, OnApplicationShutdown, Optional, ServiceUnavailableException } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Piscina } from 'piscina';
import { ImportDraft } from './connector-draft';
import type { ImportTask, ImportTaskResult } from './import.worker';

/** The CPU time one source may take in its worker; past it, the worker is stopped and the import is a 400. */
export const IMPORT_BUDGET_MS = 20_000;
/**
 * The time an import may wait for the worker; past it, a 503 (this replica is busy reading other callers' imports).
 * One other import's whole budget and then some: with one import per caller, another caller's import ahead of it,
 * however slow, never makes it fail; only imports of several other callers at once can.
 */
export const IMPORT_QUEUE_MS = IMPORT_BUDGET_MS + 5_000;
/** The Retry-After of a caller's import while another of its imports is queued, read or answered here. */
export const IMPORT_BUSY_RETRY_AFTER_S = 5;
/** How long an import's answer may take to leave: one its caller does not read is cut, and frees the caller's place. */
export const IMPORT_SEND_MS = 30_000;
/** The reader's budgets, for tests that need them short. */
export interface ImportReaderTiming {
  budgetMs: number;
  queueMs: number;
  sendMs?: number;
}
export const IMPORT_READER_TIMING = Symbol('IMPORT_READER_TIMING');

/**
 * One worker thread, none kept while no import comes (imports are rare, and a worker holds its heap): with the main
 * heap (128 MB in the image) and the answer readers' (2 × 56 MB), the pod stays within its 512 Mi limit
 * (docker/k8s/base/transactional-service.yaml) whatever the sources. A second import meanwhile waits its turn.
 */
const MAX_WORKERS = 1;
/** The worker's heap: the largest documents of the corpus (Figma's 400 KB of YAML) take far less; a bomb is stopped with it. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 } as const;

/**
 * Reads import sources (import.worker.ts: the format's importer) in a small pool of worker threads (piscina, as the
 * test runs' AnswerReader): a source that would hold the event loop for seconds, or take the process's memory, takes
 * one worker instead, and is stopped past IMPORT_BUDGET_MS or its heap, with a 400 that says so. Nothing is started
 * before the first import. Built, the worker is a webpack entry beside main.js; from the sources (jest, ts-node) the
 * worker runs its TypeScript through ts-node, with the project's path aliases.
 *
 * Fair across callers: a caller (the token's `sub`) has at most one import queued, read or being answered on a
 * replica, a second one meanwhile is a 429 (Retry-After IMPORT_BUSY_RETRY_AFTER_S), and the queue is first come, first
 * served; so a caller that sends imports in a loop, however many at once, holds one place in the queue, and every
 * other caller's import is read after at most one of its own. Its place is held until its answer has left (cut past
 * IMPORT_SEND_MS): an answer holds up to 2 MiB of JSON until its caller reads it, and a caller that read none of them
 * piled them up past the heap.
 */
@Injectable()
export class ImportReader implements OnApplicationShutdown {
  private pool?: Piscina;
  /** The callers with an import queued or read here. */
  private readonly callers = new Set<string>();
  private readonly budgetMs: number;
  private readonly queueMs: number;
  private readonly sendMs: number;

  constructor(@Optional() @Inject(IMPORT_READER_TIMING) timing?: ImportReaderTiming) {
    this.budgetMs = timing?.budgetMs ?? IMPORT_BUDGET_MS;
    this.queueMs = timing?.queueMs ?? IMPORT_QUEUE_MS;
    this.sendMs = timing?.sendMs ?? IMPORT_SEND_MS;
  }

  /** The draft of `source`, read for `caller` (the token's `sub`) in its turn; the caller's place is held until `answer` has left. */
  async read(caller: string, format: ImportFormat, source: string, select: string[] | undefined, answer?: AnswerHandle): Promise<ImportDraft> {
    if (this.callers.has(caller)) {
      throw new TooManyRequestsException(
        IMPORT_BUSY_RETRY_AFTER_S,
        'Another import of yours is still being read or answered on this replica: one import per caller at a time, so that every caller gets its turn; send this one again once you have received that answer',
      );
    }
    this.callers.add(caller);
    const free = () => this.callers.delete(caller);
    try {
      return await this.readInTurn(format, source, select);
    } finally {
      releaseOnceSent(answer, this.sendMs, free);
    }
  }

  private async readInTurn(format: ImportFormat, source: string, select: string[] | undefined): Promise<ImportDraft> {
    const started = new SharedArrayBuffer(8);
    const stop = new AbortController();
    const timer = this.watch(new Float64Array(started), Date.now(), stop);
    let result: ImportTaskResult;
    try {
      result = (await this.workers().run({ format, source, select, started } satisfies ImportTask, { signal: stop.signal })) as ImportTaskResult;
    } catch (error) {
      if (stop.signal.reason === 'queued') throw new ServiceUnavailableException('This replica is busy reading other imports; retry in a few seconds');
      if (stop.signal.reason === 'budget') {
        throw new InvalidInputError([
          `source took longer than ${this.budgetMs / 1000} s to read and was not imported: import a smaller source, or fewer parts of it (select)`,
        ]);
      }
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new InvalidInputError([
          `source needed more than ${WORKER_LIMITS.maxOldGenerationSizeMb} MB of memory to read and was not imported: import a smaller source`,
        ]);
      }
      throw error;
    } finally {
      clearTimeout(timer.current);
    }
    if ('problems' in result) throw new InvalidInputError(result.problems);
    return result.draft;
  }

  /** One timer, re-armed: while the task waits, until queueMs; once its worker wrote when it started, until budgetMs after. */
  private watch(started: Float64Array, submitted: number, stop: AbortController): { current?: NodeJS.Timeout } {
    const timer: { current?: NodeJS.Timeout } = {};
    const check = () => {
      const at = started[0];
      const left = at === 0 ? submitted + this.queueMs - Date.now() : at + this.budgetMs - Date.now();
      if (left <= 0) stop.abort(at === 0 ? 'queued' : 'budget');
      else timer.current = setTimeout(check, Math.min(left, 1_000));
    };
    timer.current = setTimeout(check, Math.min(this.budgetMs, this.queueMs, 1_000));
    return timer;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }

  private workers(): Piscina {
    if (this.pool) return this.pool;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Piscina } = require('piscina') as typeof import('piscina');
    const built = join(__dirname, 'import.worker.js');
    const fromSources = !existsSync(built);
    this.pool = new Piscina({
      filename: fromSources ? join(__dirname, 'import.worker.ts') : built,
      execArgv: fromSources ? ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'] : [],
      minThreads: 0,
      maxThreads: MAX_WORKERS,
      idleTimeout: 30_000,
      resourceLimits: WORKER_LIMITS,
    });
    return this.pool;
  }
}

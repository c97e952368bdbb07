import { IMPORT_LIMITS, ImportFormat, InvalidInputError } from '@app/domain';
import { AnswerHandle, releaseOnceSent, TooManyRequestsException } from '@app/platform';
import { Inject, Injectable, OnApplicationShutdown, Optional, ServiceUnavailableException } from '@nestjs/common';
import { join } from 'node:path';
import { StopReason, WorkerLimits, WorkerPool } from '../../workers/worker-pool';
import { workerScript } from '../../workers/worker-script';
import { ImportDraft } from './connector-draft';
import type { ImportTask, ImportTaskResult } from './import.worker';

/**
 * The time one source may take in its worker; past it, the worker is stopped and the import is a 400. An 8 MiB source
 * (IMPORT_LIMITS.sourceBytes) of real descriptions takes 10-20 s on a busy 2-core machine (docs/performance.md,
 * "Imports"): twice that.
 */
export const IMPORT_BUDGET_MS = 40_000;
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
const THREADS = { min: 0, max: 1, idleMs: 30_000 };
/**
 * The imports that may wait for the worker, one per caller (below): each holds its request in the heap while it
 * waits; one more is the same 503 as an import that waited past IMPORT_QUEUE_MS, at once.
 */
const MAX_QUEUE = 8;
/**
 * The heap the sources of the imports queued, read or being answered here may hold together, each counted as two bytes
 * a character (V8 keeps a text with any character past U+00FF at two bytes each): two sources of the largest size
 * (IMPORT_LIMITS.sourceBytes), or many small ones, of the 128 MB heap. One more is the same 503 as a full queue, at
 * once: eight 8 MiB sources waiting would take the whole heap.
 */
export const MAX_HELD_SOURCE_BYTES = 4 * IMPORT_LIMITS.sourceBytes;
/**
 * The worker's heap: an 8 MiB source and OpenAI's whole description fit (docs/performance.md, "Imports of whole
 * documents"); a bomb is stopped with it.
 */
const WORKER_LIMITS: WorkerLimits = { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

/** The 503 of an import that could not be read in its turn. */
const busy = () => new ServiceUnavailableException('This replica is busy reading other imports; retry in a few seconds');
/** What an import answers when its reading was stopped. */
const STOPPED: Record<StopReason, (budgetMs: number) => Error> = {
  'queue-wait': busy,
  'queue-full': busy,
  budget: (budgetMs) =>
    new InvalidInputError([
      `source took longer than ${budgetMs / 1000} s to read and was not imported: import a smaller source, or fewer parts of it (select)`,
    ]),
  'out-of-memory': () =>
    new InvalidInputError([
      `source needed more than ${WORKER_LIMITS.maxOldGenerationSizeMb} MB of memory to read and was not imported: import a smaller source`,
    ]),
  // Nobody reads the answer of an import whose caller left, or that a closing replica stopped: a refusal, as busy.
  'caller-left': busy,
  shutdown: () => new ServiceUnavailableException('This replica is shutting down; retry in a few seconds'),
};

/**
 * Reads import sources (import.worker.ts: the format's importer) in the bounded worker pool (workers/worker-pool.ts,
 * as the test runs' AnswerReader): a source that would hold the event loop for seconds, or take the process's
 * memory, takes one worker instead, and is stopped past IMPORT_BUDGET_MS (from when the worker starts on it) or its
 * heap, with a 400 that says so; one that waits past IMPORT_QUEUE_MS, or behind MAX_QUEUE others, is a 503. Nothing
 * is started before the first import.
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
  private readonly pool: WorkerPool;
  /** The callers with an import queued or read here. */
  private readonly callers = new Set<string>();
  /** The bytes their sources hold (MAX_HELD_SOURCE_BYTES). */
  private heldSourceBytes = 0;
  private readonly budgetMs: number;
  private readonly sendMs: number;

  constructor(@Optional() @Inject(IMPORT_READER_TIMING) timing?: ImportReaderTiming) {
    this.budgetMs = timing?.budgetMs ?? IMPORT_BUDGET_MS;
    this.sendMs = timing?.sendMs ?? IMPORT_SEND_MS;
    this.pool = new WorkerPool({
      script: () => workerScript(join(__dirname, 'import.worker')),
      threads: THREADS,
      limits: WORKER_LIMITS,
      budgetMs: this.budgetMs,
      queueMs: timing?.queueMs ?? IMPORT_QUEUE_MS,
      maxQueue: MAX_QUEUE,
    });
  }

  /**
   * The draft of `source`, read for `caller` (the token's `sub`) in its turn; the caller's place is held until `answer`
   * has left. When `callerGone` fires (the caller disconnected), the read is dropped from the queue or its worker
   * stopped, and the import is refused: nobody would read its answer.
   */
  async read(
    caller: string,
    format: ImportFormat,
    source: string,
    select: string[] | undefined,
    { answer, callerGone }: { answer?: AnswerHandle; callerGone?: AbortSignal } = {},
  ): Promise<ImportDraft> {
    if (this.callers.has(caller)) {
      throw new TooManyRequestsException(
        IMPORT_BUSY_RETRY_AFTER_S,
        'Another import of yours is still being read or answered on this replica: one import per caller at a time, so that every caller gets its turn; send this one again once you have received that answer',
      );
    }
    const sourceBytes = 2 * source.length;
    if (this.heldSourceBytes + sourceBytes > MAX_HELD_SOURCE_BYTES) throw busy();
    this.callers.add(caller);
    this.heldSourceBytes += sourceBytes;
    const free = () => {
      this.callers.delete(caller);
      this.heldSourceBytes -= sourceBytes;
    };
    try {
      const outcome = await this.pool.run<ImportTaskResult>({ format, source, select } satisfies ImportTask, { callerGone });
      if ('error' in outcome) throw outcome.error;
      if ('stopped' in outcome) throw STOPPED[outcome.stopped](this.budgetMs);
      if ('problems' in outcome.result) throw new InvalidInputError(outcome.result.problems);
      return outcome.result.draft;
    } finally {
      releaseOnceSent(answer, this.sendMs, free);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}

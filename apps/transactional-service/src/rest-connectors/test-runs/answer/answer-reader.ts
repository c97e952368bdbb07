import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { MAX_TEST_RUNS_IN_FLIGHT } from '../test-run-limits';
import { StopReason, TaskOutcome, WorkerLimits, WorkerPool } from '../../../workers/worker-pool';
import { workerScript } from '../../../workers/worker-script';
import type { AnswerShown, AnswerTask, AnswerTaskResult, SecretSearch } from './answer.worker';

/** The time the worker may spend on one answer, from when it starts on it: past it, that worker is stopped. */
export const ANSWER_BUDGET_MS = 500;
/** The time an answer may wait for a free worker; past it, it is not read. */
export const ANSWER_QUEUE_MS = 2_000;
/**
 * Each worker's heap: a 1 MiB answer parses into ~10-20 MB of objects, and what a query selects is bounded
 * (OUTPUT_LIMITS); an answer, query or secret that needs more is stopped with its worker, never the process.
 */
export const WORKER_LIMITS: WorkerLimits = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 };

/**
 * What reading an answer came to: its result; or why it was stopped, with what could be shown of it before (its
 * scrubbed texts and body) and, for the server's log, an error that was not the answer's doing.
 */
export type AnswerOutcome = { result: AnswerTaskResult } | { stopped: string; shown?: AnswerShown; error?: Error };

/** Why a read was stopped, as the run says it after "it" or "the answer". */
const STOPPED: Record<StopReason, (budgetMs: number, limits: WorkerLimits) => string> = {
  budget: (budgetMs) => `took longer than ${budgetMs} ms to read, and was stopped`,
  'queue-wait': () => `waited longer than ${ANSWER_QUEUE_MS} ms for a free reader: this replica is busy reading other answers`,
  'queue-full': () => 'was not read: this replica is busy reading other answers',
  'caller-left': () => 'was not read: the test run was cancelled',
  shutdown: () => 'was not read: this replica is shutting down',
  'out-of-memory': (_, limits) => `needed more than the ${limits.maxOldGenerationSizeMb} MB of memory a test run may use to read it, and was stopped`,
};

/**
 * Reads the far side's answers of test runs (answer.worker.ts: scrubbed, cut, parsed, `output` applied) in the
 * bounded worker pool (workers/worker-pool.ts): an answer, a query or a secret that would take the process's
 * memory, stack or event loop is stopped with its worker, and the run says so. Two workers at most: one started
 * and warm before the first answer's wait starts, kept, a second started when needed and ended after a minute
 * unused. Nothing is loaded until the first answer.
 */
export class AnswerReader {
  private readonly pool: WorkerPool;
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
    script: () => string = () => workerScript(join(__dirname, 'answer.worker')),
  ) {
    this.pool = new WorkerPool({
      script,
      threads: { min: 1, max: 2, idleMs: 60_000 },
      limits,
      budgetMs,
      queueMs: ANSWER_QUEUE_MS,
      // A run reads one answer at a time, and at most MAX_TEST_RUNS_IN_FLIGHT run at once.
      maxQueue: MAX_TEST_RUNS_IN_FLIGHT,
      warmUp: { bytes: new Uint8Array(0), whole: true, texts: [], secrets: [], shownBytes: 0, isJson: false, expression: null } satisfies AnswerTask,
    });
  }

  /** `task.bytes` must own its ArrayBuffer (ownBytes): it is handed to the worker, and unusable here after. */
  async read(task: Omit<AnswerTask, 'progress'>, callerGone?: AbortSignal): Promise<AnswerOutcome> {
    const id = this.nextId++;
    let shown: AnswerShown | undefined;
    this.shownBy.set(id, (scrubbed) => (shown = scrubbed));
    this.listen();
    try {
      const outcome = await this.pool.run<AnswerTaskResult>({ ...task, progress: { id, channel: this.channelName } } satisfies AnswerTask, {
        callerGone,
        transfer: [task.bytes.buffer],
      });
      return 'result' in outcome ? outcome : { ...this.stopped(outcome), ...(shown === undefined ? {} : { shown }) };
    } finally {
      this.shownBy.delete(id);
    }
  }

  /** Whether any of the texts holds a form of any of the secrets (answer.worker.ts, holdsSecret), or why that could not be told. */
  async holdsSecret(task: SecretSearch, callerGone?: AbortSignal): Promise<{ result: boolean } | { stopped: string; error?: Error }> {
    const outcome = await this.pool.run<boolean>(task, { name: 'holdsSecretTask', callerGone });
    return 'result' in outcome ? outcome : this.stopped(outcome);
  }

  async close(): Promise<void> {
    await this.pool.close();
    this.channel?.close();
  }

  private stopped(outcome: Exclude<TaskOutcome<unknown>, { result: unknown }>): { stopped: string; error?: Error } {
    if (outcome.stopped === 'not-started') return { stopped: 'could not be read: the answer reader failed to start', error: outcome.error };
    if (outcome.stopped === 'failed') return { stopped: 'could not be read: the answer reader failed', error: outcome.error };
    return { stopped: STOPPED[outcome.stopped](this.budgetMs, this.limits) };
  }

  private listen(): void {
    if (this.channel) return;
    this.channel = new BroadcastChannel(this.channelName);
    this.channel.unref();
    this.channel.onmessage = (event) => {
      const { id, shown } = (event as { data: { id: number; shown: AnswerShown } }).data;
      this.shownBy.get(id)?.(shown);
    };
  }
}

/**
 * The bytes in an ArrayBuffer of their own, which can be handed to a worker without a copy: a small Buffer lives in
 * a slab Node shares between Buffers, which must not be handed over; it is copied (cheaply, being small).
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes : new Uint8Array(bytes);
}

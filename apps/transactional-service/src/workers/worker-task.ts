/**
 * The worker's side of a task of the pool (worker-pool.ts): what the pool hands a worker is the task and a shared
 * word where the worker writes when it starts on it, so that the task's budget runs from then, never from when it
 * was queued. This file runs in worker threads: it imports nothing.
 */
export interface TaskEnvelope<T> {
  task: T;
  /** One BigInt64 word: 0 until the worker starts on the task, then the time it did (Date.now()). */
  started: SharedArrayBuffer;
}

/** A worker script's export: `fn` run on the task, once the time it started on it is written. */
export function workerTask<T, R>(fn: (task: T) => R): (envelope: TaskEnvelope<T>) => R {
  return ({ task, started }) => {
    Atomics.store(new BigInt64Array(started), 0, BigInt(Date.now()));
    return fn(task);
  };
}

/** When the worker started on the task (Date.now()), or undefined while it waits. */
export function startedAt(started: SharedArrayBuffer): number | undefined {
  const at = Atomics.load(new BigInt64Array(started), 0);
  return at === 0n ? undefined : Number(at);
}

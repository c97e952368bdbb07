/** The worker script of the pool's spec (worker-pool.spec.ts): tasks that hold a worker's CPU, exhaust its heap or throw. */
import { workerTask } from '../worker-task';

/** Holds the worker's CPU for `ms` (as a hostile source or answer does), then answers `answer`. */
export default workerTask(({ ms, answer = 'done' }: { ms: number; answer?: string }) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Busy: the event loop of this worker is held, as by a parser that takes seconds.
  }
  return answer;
});

/** Allocates until the worker's heap is exhausted. */
export const exhaustMemory = workerTask(() => {
  const kept: number[][] = [];
  for (;;) kept.push(Array.from({ length: 100_000 }, (_, index) => index));
});

export const fail = workerTask(() => {
  throw new Error('the task failed');
});

/** A caller waited its whole time for room in a ByteBudget. */
export class ByteBudgetTimeoutError extends Error {
  constructor(waitMs: number) {
    super(`No room in the budget within ${waitMs} ms`);
  }
}

interface Waiter {
  bytes: number;
  grant(): void;
}

/**
 * Bytes a process holds at once for one kind of work (a weighted semaphore): `take` waits, first come first served,
 * until its bytes are free, and gives up after its time or when its caller leaves, leaving the queue at once.
 * async-mutex's weighted Semaphore does the same but keeps a caller that gave up queued until its turn comes.
 */
export class ByteBudget {
  private free: number;
  private readonly waiting: Waiter[] = [];

  constructor(readonly capacity: number) {
    this.free = capacity;
  }

  /**
   * Takes `bytes` (at most the whole capacity, so a request larger than it still runs, alone) and resolves to their
   * release (call it once the work no longer holds them); rejects with ByteBudgetTimeoutError after `waitMs`, or with
   * the signal's reason when it aborts first.
   */
  take(bytes: number, waitMs: number, signal?: AbortSignal): Promise<() => void> {
    const weight = Math.max(0, Math.min(bytes, this.capacity));
    if (this.waiting.length === 0 && weight <= this.free) {
      this.free -= weight;
      return Promise.resolve(this.releaser(weight));
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (error: unknown) => {
        stop();
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        // The first in line leaving may let the next ones in.
        this.dispatch();
        reject(error);
      };
      const onAbort = () => giveUp(signal!.reason);
      const waiter: Waiter = {
        bytes: weight,
        grant: () => {
          stop();
          resolve(this.releaser(weight));
        },
      };
      const timer = setTimeout(() => giveUp(new ByteBudgetTimeoutError(waitMs)), waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Bytes not taken now. */
  get available(): number {
    return this.free;
  }

  /** Nothing taken and nobody waiting. */
  get idle(): boolean {
    return this.free === this.capacity && this.waiting.length === 0;
  }

  private releaser(weight: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free += weight;
      this.dispatch();
    };
  }

  private dispatch(): void {
    while (this.waiting.length > 0 && this.waiting[0].bytes <= this.free) {
      const next = this.waiting.shift()!;
      this.free -= next.bytes;
      next.grant();
    }
  }
}

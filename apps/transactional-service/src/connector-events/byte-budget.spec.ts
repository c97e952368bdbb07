import { ByteBudget, ByteBudgetTimeoutError } from './byte-budget';

/** Whether `promise` has settled after the callbacks queued so far ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe(ByteBudget.name, () => {
  it('grants at once what is free, and takes it until released (once, however often release is called)', async () => {
    const sut = new ByteBudget(100);
    const release = await sut.take(60, 1_000);
    expect(sut.available).toBe(40);
    release();
    release();
    expect(sut.available).toBe(100);
  });

  it('makes a request wait until enough is released, first come first served', async () => {
    const sut = new ByteBudget(100);
    const first = await sut.take(80, 1_000);
    const big = sut.take(50, 1_000);
    const small = sut.take(10, 1_000);
    // The small one fits, but waits behind the big one: a stream of small reads never starves a large one.
    expect(await settled(big)).toBe(false);
    expect(await settled(small)).toBe(false);
    first();
    (await big)();
    (await small)();
    expect(sut.available).toBe(100);
  });

  it('takes at most its whole capacity for a larger request, which then runs alone', async () => {
    const sut = new ByteBudget(100);
    const huge = await sut.take(1_000, 1_000);
    expect(sut.available).toBe(0);
    const next = sut.take(1, 1_000);
    expect(await settled(next)).toBe(false);
    huge();
    (await next)();
    expect(sut.available).toBe(100);
  });

  it('gives up after its time with ByteBudgetTimeoutError, leaving the queue so the ones behind it go on', async () => {
    jest.useFakeTimers();
    try {
      const sut = new ByteBudget(100);
      const held = await sut.take(90, 1_000);
      const big = sut.take(100, 500);
      const small = sut.take(10, 10_000);
      jest.advanceTimersByTime(500);
      await expect(big).rejects.toBeInstanceOf(ByteBudgetTimeoutError);
      // The big one left the head of the line: the small one fits beside what is held.
      (await small)();
      held();
      expect(sut.available).toBe(100);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops waiting when its caller leaves, and refuses at once for a caller already gone', async () => {
    const sut = new ByteBudget(100);
    const held = await sut.take(100, 1_000);
    const leaving = new AbortController();
    const waiting = sut.take(10, 60_000, leaving.signal);
    leaving.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    await expect(sut.take(10, 60_000, leaving.signal)).rejects.toThrow('gone');
    held();
    expect(sut.available).toBe(100);
  });
});

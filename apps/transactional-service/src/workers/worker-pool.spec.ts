import { join } from 'node:path';
import { WorkerPool, WorkerPoolOptions } from './worker-pool';
import { workerScript } from './worker-script';

const script = () => workerScript(join(__dirname, 'testing', 'pool-test.worker'));

/** Tasks of testing/pool-test.worker.ts: `busy(ms)` holds its worker's CPU for ms, then answers. */
const busy = (ms: number, answer?: string) => ({ ms, answer });

describe(WorkerPool.name, () => {
  let sut: WorkerPool;
  afterEach(() => sut.close());

  /** One worker, started (warm) before the first task is queued, so that its start is charged to no test's timing. */
  const aPool = (options: Partial<WorkerPoolOptions> = {}) =>
    new WorkerPool({
      script,
      threads: { min: 0, max: 1, idleMs: 60_000 },
      limits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 },
      budgetMs: 10_000,
      queueMs: 10_000,
      maxQueue: 10,
      warmUp: busy(0),
      ...options,
    });

  it("runs a task in a worker and answers the script's result", async () => {
    sut = aPool();
    await expect(sut.run(busy(0, 'read'))).resolves.toEqual({ result: 'read' });
  });

  it('counts the budget from when the worker starts on a task: a task queued behind a slow one is not charged the wait', async () => {
    sut = aPool({ budgetMs: 1_500 });
    // The second waits about 1 s for the worker, then takes 1 s: 2 s from when it was queued, within 1.5 s of its start.
    const outcomes = await Promise.all([sut.run(busy(1_000, 'first')), sut.run(busy(1_000, 'second'))]);
    expect(outcomes).toEqual([{ result: 'first' }, { result: 'second' }]);
  });

  it('stops a task past its budget with its worker; the next task gets a new worker', async () => {
    sut = aPool({ budgetMs: 300 });
    await expect(sut.run(busy(20_000))).resolves.toEqual({ stopped: 'budget' });
    await expect(sut.run(busy(0, 'next'))).resolves.toEqual({ result: 'next' });
  });

  it('runs the tasks that waited behind a stopped one on a new worker, with no worker kept, without waiting for another task', async () => {
    sut = aPool({ threads: { min: 0, max: 1, idleMs: 60_000 }, budgetMs: 300 });
    const outcomes = await Promise.all([sut.run(busy(20_000)), sut.run(busy(0, 'waited'))]);
    expect(outcomes).toEqual([{ stopped: 'budget' }, { result: 'waited' }]);
  });

  it('refuses a task at once when maxQueue tasks already wait behind the running ones', async () => {
    sut = aPool({ maxQueue: 1 });
    const running = sut.run(busy(1_000, 'running'));
    const waiting = sut.run(busy(0, 'waiting'));
    await expect(sut.run(busy(0, 'refused'))).resolves.toEqual({ stopped: 'queue-full' });
    await expect(Promise.all([running, waiting])).resolves.toEqual([{ result: 'running' }, { result: 'waiting' }]);
  });

  it('stops a task that waited longer than queueMs for a worker to start on it', async () => {
    sut = aPool({ queueMs: 300 });
    const running = sut.run(busy(1_500, 'running'));
    await expect(sut.run(busy(0))).resolves.toEqual({ stopped: 'queue-wait' });
    await expect(running).resolves.toEqual({ result: 'running' });
  });

  it('stops a task whose caller left, running or queued, and one whose caller had left before it was run', async () => {
    sut = aPool();
    const [first, second] = [new AbortController(), new AbortController()];
    const running = sut.run(busy(20_000), { callerGone: first.signal });
    const queued = sut.run(busy(20_000), { callerGone: second.signal });
    first.abort();
    second.abort();
    await expect(Promise.all([running, queued])).resolves.toEqual([{ stopped: 'caller-left' }, { stopped: 'caller-left' }]);
    await expect(sut.run(busy(0), { callerGone: first.signal })).resolves.toEqual({ stopped: 'caller-left' });
    await expect(sut.run(busy(0, 'next'))).resolves.toEqual({ result: 'next' });
  });

  it('stops every task, running or queued, when it closes, and any task run after', async () => {
    sut = aPool();
    const running = sut.run(busy(20_000));
    const queued = sut.run(busy(0));
    await sut.close();
    await expect(Promise.all([running, queued])).resolves.toEqual([{ stopped: 'shutdown' }, { stopped: 'shutdown' }]);
    await expect(sut.run(busy(0))).resolves.toEqual({ stopped: 'shutdown' });
  });

  it('stops a task whose worker runs out of its heap, as out of memory, and only that worker', async () => {
    sut = aPool({ limits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4, stackSizeMb: 4 } });
    await expect(sut.run(undefined, { name: 'exhaustMemory' })).resolves.toEqual({ stopped: 'out-of-memory' });
    await expect(sut.run(busy(0, 'next'))).resolves.toEqual({ result: 'next' });
  });

  it('answers the error of a task that threw, for the log', async () => {
    sut = aPool();
    await expect(sut.run(undefined, { name: 'fail' })).resolves.toEqual({ stopped: 'failed', error: expect.objectContaining({ message: 'the task failed' }) });
  });

  it('says so when no worker can start, and starts one at the next task once it can', async () => {
    let file = join(__dirname, 'testing', 'nowhere.worker.js');
    sut = aPool({ script: () => file });
    await expect(sut.run(busy(0))).resolves.toEqual({
      stopped: 'not-started',
      error: expect.objectContaining({ message: expect.stringContaining('nowhere.worker.js') }),
    });
    file = script();
    await expect(sut.run(busy(0, 'started'))).resolves.toEqual({ result: 'started' });
  });
});

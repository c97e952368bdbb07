import { Worker } from 'node:worker_threads';
import { appStartEnv, benchImageEnv, imageEnv, memoryBreakdown } from './processes';

describe('the apps’ environment in the bench', () => {
  it("is the image's, less the variables BENCH_APP_UNSET names", () => {
    expect(imageEnv()).toMatchObject({ MALLOC_ARENA_MAX: '2' });
    expect(benchImageEnv([])).toEqual(imageEnv());
    const { MALLOC_ARENA_MAX: _dropped, ...rest } = imageEnv();
    expect(benchImageEnv(['MALLOC_ARENA_MAX', 'NOT_SET_BY_THE_IMAGE'])).toEqual(rest);
  });

  it("gets npm start's defaults where the image's settings leave a variable out, unless told not to", () => {
    expect(appStartEnv(['MALLOC_ARENA_MAX'])).toEqual(imageEnv());
    expect(appStartEnv(['MALLOC_ARENA_MAX'], false)).not.toHaveProperty('MALLOC_ARENA_MAX');
  });
});

describe('memoryBreakdown', () => {
  it("counts a process's threads and its resident memory", async () => {
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((started) => worker.once('online', started));
    try {
      const withWorker = memoryBreakdown(process.pid)!;
      expect(withWorker.threads).toBeGreaterThan(1);
      expect(withWorker.rssMb).toBeGreaterThan(0);
      expect(withWorker.anonMb + withWorker.fileMb).toBeCloseTo(withWorker.rssMb, -1);
      expect(withWorker.arenasMb).toBeLessThanOrEqual(withWorker.anonMb);
    } finally {
      await worker.terminate();
    }
  });

  it('is undefined for a process that is not there', () => {
    expect(memoryBreakdown(2 ** 22 + 1)).toBeUndefined();
  });
});

import { PlatformMetrics } from '@app/platform';
import { ServiceUnavailableException } from '@nestjs/common';
import { MAX_TEST_RUNS_IN_FLIGHT, TestRunSlots } from './test-run-limits';
import { TestRunMetrics } from './test-run-metrics';

describe(TestRunSlots.name, () => {
  const metrics = new PlatformMetrics('test');
  const slots = new TestRunSlots(new TestRunMetrics(metrics));
  const gauge = async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values;

  it(`runs ${MAX_TEST_RUNS_IN_FLIGHT} at once, refuses one more without running it, and frees a slot when a run ends, failed or not`, async () => {
    const releases: Array<(fail: boolean) => void> = [];
    const running = Array.from({ length: MAX_TEST_RUNS_IN_FLIGHT }, () =>
      slots
        .run(() => new Promise<string>((resolve, reject) => releases.push((fail) => (fail ? reject(new Error('far side')) : resolve('done')))))
        .catch((error: Error) => error.message),
    );
    expect((await gauge('connector_test_runs_in_flight'))[0].value).toBe(MAX_TEST_RUNS_IN_FLIGHT);

    const extra = jest.fn(async () => 'ran');
    await expect(slots.run(extra)).rejects.toBeInstanceOf(ServiceUnavailableException);
    expect(extra).not.toHaveBeenCalled();
    expect(await gauge('connector_test_runs_refused_total')).toContainEqual(expect.objectContaining({ labels: { reason: 'in_flight' }, value: 1 }));

    releases[0](true);
    releases[1](false);
    expect(await Promise.all(running.slice(0, 2))).toEqual(['far side', 'done']);
    await expect(slots.run(extra)).resolves.toBe('ran');
    releases.slice(2).forEach((release) => release(false));
    await Promise.all(running);
    expect((await gauge('connector_test_runs_in_flight'))[0].value).toBe(0);
  });
});

import { APP_CONFIG, AppConfig, Caller, RateLimitExceededException, RateLimitHit, RateLimitStore, whenCounted } from '@app/platform';
import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { TestRunMetrics } from './test-run-metrics';

/**
 * Test runs in flight in one process. Each waits on a far side for up to CONNECTOR_TEST_TIMEOUT_MS and holds
 * up to 1 MiB of its answer: 50 bound that to about 50 MiB and keep a slow far side from exhausting the app
 * (docs/decisions.md, "Connector test runs").
 */
export const MAX_TEST_RUNS_IN_FLIGHT = 50;

/**
 * CONNECTOR_TEST_PER_MINUTE per caller (the token's `sub`) in any rolling minute: 429 with Retry-After beyond.
 * Counted when a run is about to be attempted, after its request and its variables were found good: a 400 costs
 * nothing. Counted apart from RATE_LIMIT_PER_MINUTE (keys of their own) in the same store: in Redis with
 * REDIS_URL, for all replicas at once, else in each process.
 */
@Injectable()
export class TestRunRateLimit {
  private readonly limit: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly store: RateLimitStore,
    private readonly metrics: TestRunMetrics,
  ) {
    this.limit = config.connectorTests.perMinute;
  }

  /** Counts one run of `caller`, or throws the 429 when the last minute already holds the limit. */
  admit(caller: Caller): void | Promise<void> {
    return whenCounted(this.store.hit(`test-runs:sub:${caller.sub}`, this.limit), (answer) => this.admitted(answer));
  }

  private admitted({ isBlocked, timeToBlockExpire }: RateLimitHit): void {
    if (!isBlocked) return;
    this.metrics.refused('rate_limit');
    throw new RateLimitExceededException(timeToBlockExpire, this.limit, 'connector test runs');
  }
}

/** The slots of MAX_TEST_RUNS_IN_FLIGHT: a run past them is a 503 (Retry-After), never queued. */
@Injectable()
export class TestRunSlots {
  private inFlight = 0;

  constructor(private readonly metrics: TestRunMetrics) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    const max = MAX_TEST_RUNS_IN_FLIGHT;
    if (this.inFlight >= max) {
      this.metrics.refused('in_flight');
      throw new ServiceUnavailableException(`${max} connector test runs are already in flight on this replica; retry shortly`);
    }
    this.metrics.inFlight(++this.inFlight);
    try {
      return await work();
    } finally {
      this.metrics.inFlight(--this.inFlight);
    }
  }
}

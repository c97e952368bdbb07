import { APP_CONFIG, AppConfig, RateLimitHit, RateLimitStore, tooManyRequests, whenCounted } from '@app/platform';
import { CanActivate, ExecutionContext, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { TestRunMetrics } from './test-run-metrics';

/**
 * Test runs in flight in one process. Each waits on a far side for up to CONNECTOR_TEST_TIMEOUT_MS and holds
 * up to 1 MiB of its answer: 50 bound that to about 50 MiB and keep a slow far side from exhausting the app
 * (docs/decisions.md, "Connector test runs").
 */
export const MAX_TEST_RUNS_IN_FLIGHT = 50;

/**
 * CONNECTOR_TEST_PER_MINUTE per caller (the token's `sub`) in any rolling minute: 429 with Retry-After beyond.
 * Counted apart from RATE_LIMIT_PER_MINUTE (keys of their own) in the same store: in Redis with REDIS_URL, for
 * all replicas at once, else in each process.
 */
@Injectable()
export class TestRunRateLimitGuard implements CanActivate {
  private readonly limit: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly store: RateLimitStore,
    private readonly metrics: TestRunMetrics,
  ) {
    this.limit = config.connectorTests.perMinute;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return whenCounted(this.store.hit(`test-runs:sub:${req.caller?.sub}`, this.limit), (answer) => this.admit(answer, res));
  }

  private admit({ isBlocked, timeToBlockExpire }: RateLimitHit, res: Response): boolean {
    if (!isBlocked) return true;
    this.metrics.refused('rate_limit');
    throw tooManyRequests(res, this.limit, timeToBlockExpire, 'connector test runs');
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

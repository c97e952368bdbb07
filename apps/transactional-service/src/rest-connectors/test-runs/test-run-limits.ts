import { APP_CONFIG, AppConfig, RateLimitCounters, tooManyRequests } from '@app/platform';
import { CanActivate, ExecutionContext, Inject, Injectable, OnApplicationShutdown, ServiceUnavailableException } from '@nestjs/common';
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
 * Counted apart from RATE_LIMIT_PER_MINUTE, in each replica's memory (as that limit is).
 */
@Injectable()
export class TestRunRateLimitGuard implements CanActivate, OnApplicationShutdown {
  private readonly counters = new RateLimitCounters(60_000);
  private readonly limit: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: TestRunMetrics,
  ) {
    this.limit = config.connectorTests.perMinute;
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const { isBlocked, timeToBlockExpire } = this.counters.hit(`sub:${req.caller?.sub}`, this.limit);
    if (!isBlocked) return true;
    this.metrics.refused('rate_limit');
    throw tooManyRequests(http.getResponse<Response>(), this.limit, timeToBlockExpire, 'connector test runs');
  }

  onApplicationShutdown(): void {
    this.counters.onApplicationShutdown();
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

import { TestRunOutcome } from '@app/domain';
import { PlatformMetrics } from '@app/platform';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';

/** Why a test run was refused before it started: the caller's limit, the replica's slots, or a stored secret in what it would send. */
export type TestRunRefusal = 'rate_limit' | 'in_flight' | 'stored_secret';

/** The `/metrics` of connector test runs, in the app's registry (docs/operations.md, "Connector test runs"). */
@Injectable()
export class TestRunMetrics {
  private readonly runs: Counter<'outcome'>;
  private readonly duration: Histogram<'outcome'>;
  private readonly refusals: Counter<'reason'>;
  private readonly running: Gauge;
  private readonly cancellations: Counter;

  constructor(metrics: PlatformMetrics) {
    const registers = [metrics.registry];
    this.runs = new Counter({ name: 'connector_test_runs_total', help: 'Connector test runs, by outcome', labelNames: ['outcome'], registers });
    this.duration = new Histogram({
      name: 'connector_test_run_duration_seconds',
      help: 'Duration of connector test runs (token request included), by outcome',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.refusals = new Counter({
      name: 'connector_test_runs_refused_total',
      help: 'Connector test runs refused before they started, by reason',
      labelNames: ['reason'],
      registers,
    });
    this.running = new Gauge({ name: 'connector_test_runs_in_flight', help: 'Connector test runs in flight in this process', registers });
    this.cancellations = new Counter({
      name: 'connector_test_runs_cancelled_total',
      help: 'Connector test runs stopped because their caller disconnected',
      registers,
    });
    // Every outcome from the start, at 0: a rate() over a series that appears late misses its first increase.
    for (const outcome of Object.values(TestRunOutcome)) this.runs.inc({ outcome }, 0);
    for (const reason of ['rate_limit', 'in_flight', 'stored_secret'] satisfies TestRunRefusal[]) this.refusals.inc({ reason }, 0);
  }

  ran(outcome: TestRunOutcome, durationMs: number): void {
    this.runs.inc({ outcome });
    this.duration.observe({ outcome }, durationMs / 1000);
  }

  cancelled(): void {
    this.cancellations.inc();
  }

  refused(reason: TestRunRefusal): void {
    this.refusals.inc({ reason });
  }

  inFlight(count: number): void {
    this.running.set(count);
  }
}

import { Controller, Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Database, ReadReplicas, ReplicaState } from '@app/domain';
import { Public } from '../auth/auth.decorators';
import { READ_REPLICAS } from '../database/database.module';
import { SkipRateLimit } from '../rate-limit/caller-rate-limit.guard';
import { RateLimitStore } from '../rate-limit/rate-limit-store';
import { ShutdownState } from '../shutdown/shutdown';
import { ReadinessDetails } from './readiness-details';

const READINESS_TIMEOUT_MS = 2_000;

/** Probes for Kubernetes, at the root of every app, without auth and without anything sensitive. */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: Database,
    private readonly shutdown: ShutdownState,
    private readonly rateLimits: RateLimitStore,
    private readonly details: ReadinessDetails,
    @Optional() @Inject(READ_REPLICAS) private readonly replicas: ReadReplicas | null,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Ready while the database answers: the primary, or while it is down, a replica that serves reads (plain
   * reads go on; writes answer 503 with Retry-After). Each replica's state is in the details but never makes
   * the app unready. With REDIS_URL, Redis has its line too, and never makes the app unready either: without it
   * the app serves without the rate limits (docs/decisions.md, "Limits across replicas"). A feature's dependencies
   * (ReadinessDetails: NATS) are named the same way.
   */
  @Get('ready')
  async ready(): Promise<{ status: 'ok'; checks: ReadinessChecks }> {
    if (this.shutdown.draining) throw new ServiceUnavailableException('Shutting down');
    const redis = this.rateLimits.health();
    const primary = await withTimeout(this.database.rows('SELECT 1 AS up', [], 'primary'), READINESS_TIMEOUT_MS).then(
      () => 'up' as const,
      () => 'down' as const,
    );
    const replicas = this.replicas?.statuses();
    if (primary === 'down' && !replicas?.some((replica) => replica.state === 'up')) {
      throw new ServiceUnavailableException('The database is unavailable');
    }
    const checks: ReadinessChecks = { database: primary };
    if (replicas) checks.replicas = Object.fromEntries(replicas.map(({ name, state, lagMs }) => [name, { state, lagMs }]));
    if (redis) checks.redis = await redis;
    Object.assign(checks, this.details.statuses());
    return { status: 'ok', checks };
  }
}

interface ReadinessChecks {
  /** The primary (DATABASE_URL). */
  database: 'up' | 'down';
  /** DATABASE_READ_URLS, by name (replica-1, …): never an address. */
  replicas?: Record<string, { state: ReplicaState; lagMs: number | null }>;
  redis?: 'up' | 'down';
  /** What features registered (ReadinessDetails): NATS with NATS_URL. */
  [dependency: string]: unknown;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import { SkipRateLimit } from '../rate-limit/caller-rate-limit.guard';
import { RateLimitStore } from '../rate-limit/rate-limit-store';
import { ShutdownState } from '../shutdown/shutdown';

const READINESS_TIMEOUT_MS = 2_000;

/** Probes for Kubernetes, at the root of every app, without auth and without anything sensitive. */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly shutdown: ShutdownState,
    private readonly rateLimits: RateLimitStore,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Ready while the database answers. With REDIS_URL, Redis has its line in the details but never makes the
   * app unready: without it the app serves without the rate limits (docs/decisions.md, "Limits across replicas").
   */
  @Get('ready')
  async ready(): Promise<{ status: 'ok'; checks: { database: 'up'; redis?: 'up' | 'down' } }> {
    if (this.shutdown.draining) throw new ServiceUnavailableException('Shutting down');
    const redis = this.rateLimits.health();
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), READINESS_TIMEOUT_MS);
    } catch {
      throw new ServiceUnavailableException('The database is unavailable');
    }
    return { status: 'ok', checks: redis ? { database: 'up', redis: await redis } : { database: 'up' } };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';
import { SkipRateLimit } from '../rate-limit/caller-rate-limit.guard';
import { PlatformMetrics } from './metrics';

/** Prometheus scrapes every app at the root, without auth; nothing sensitive is exposed. */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: PlatformMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

import { ExpressAdapter } from '@nestjs/platform-express';
import { cacheValidationMetadata } from './validation-metadata-cache';
import { PlatformExpressAdapter } from './platform-express.adapter';

/**
 * The platform replaces some library behaviour where measurements demanded it (docs/performance-overrides.md).
 * `PERFORMANCE_OVERRIDES=off` runs the stock path instead: Nest's own ExpressAdapter, the platform's input
 * rules on Nest's stock ValidationPipe (createValidationPipe), class-validator unpatched. `npm test` runs the
 * rest connector suites both ways, so a drift between an override and the library it replaces fails a test.
 *
 * Called once at start-up, before the app module is built: what it installs is process-wide.
 */
export function installPerformanceOverrides(on: boolean): ExpressAdapter {
  if (!on) return new ExpressAdapter();
  cacheValidationMetadata();
  return new PlatformExpressAdapter();
}

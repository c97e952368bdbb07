import { ValidationPipe } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { PLATFORM_VALIDATION_OPTIONS, PlatformValidationPipe } from '../validation/validation.pipe';
import { PlatformExpressAdapter } from './platform-express.adapter';
import { RememberingValidationPipe } from './remembering-validation.pipe';
import { cacheValidationMetadata } from './validation-metadata-cache';

/**
 * The platform replaces some library behaviour where measurements demanded it (this folder's README.md).
 * `PERFORMANCE_OVERRIDES=off` runs the stock path instead: Nest's own ExpressAdapter, the platform's input
 * rules on Nest's stock ValidationPipe (createValidationPipe), class-validator unpatched. `npm test` runs the
 * suites that exercise an override both ways (jest.config.js), so a drift between an override and the library it
 * replaces fails a test.
 *
 * Called once at start-up, before the app module is built: what it installs is process-wide.
 */
export function installPerformanceOverrides(on: boolean): ExpressAdapter {
  if (!on) return new ExpressAdapter();
  cacheValidationMetadata();
  return new PlatformExpressAdapter();
}

/**
 * The one ValidationPipe of the platform: RememberingValidationPipe on the fast path, Nest's stock pipe with
 * the platform's input rules (PlatformValidationPipe) on the stock path; the same options on both.
 */
export function createValidationPipe(on = true): ValidationPipe {
  return on ? new RememberingValidationPipe(PLATFORM_VALIDATION_OPTIONS) : new PlatformValidationPipe(PLATFORM_VALIDATION_OPTIONS);
}

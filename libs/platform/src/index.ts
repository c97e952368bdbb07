// The public surface of libs/platform: the Nest plumbing every app of the platform shares. An app is a
// PlatformAppDefinition (its feature module and labels) handed to runPlatformApp; everything below is wired
// by PlatformModule and createPlatformApp.

// First, before anything loads @nestjs/common: its date formatters built on first use (8 MB less per app)
import './performance/lazy-nest-date-formatters';

// App factory and the three apps' names, labels and ports
export * from './app/platform-app.definition';
export * from './app/platform-apps';
export * from './app/app-process';
export * from './app/create-platform-app';
export * from './app/run-platform-app';

// Config: validated once at start (docs/operations.md)
export * from './config/app-config';
export * from './config/app-config.module';
export * from './config/nats-servers';

// Auth: the bearer token, the caller and its scopes
export * from './auth/caller';
export * from './auth/auth.decorators';
export * from './auth/jwt-verifier.service';
export * from './auth/development-secret';

// HTTP edge: the error body and its OpenAPI description, the Idempotency-Key header, the caller leaving
export * from './http/api-error-responses.decorator';
export * from './http/idempotency-key.decorators';
export * from './http/caller-gone';
export { bodyTooLarge, malformedJson, refusedUnread, type LargeBodyRoute } from './http/json-body.middleware';
export * from './http/answer-handle';

// Read replicas: the request's consistency scope, handed from a controller to its service
export { RequestConsistency } from './database/read-your-writes';

// Rate limits: per-minute counters and the 429 they answer, for a limit of a feature's own
export * from './rate-limit/rate-limit-store';
export { RateLimitExceededException, TooManyRequestsException, tooManyRequests } from './rate-limit/rate-limit-keys';

// Health: what a feature names in /health/ready
export * from './health/readiness-details';

// Metrics: the app's Prometheus registry, for a feature's own metrics
export * from './metrics/metrics';

// Secrets: the cipher built from config
export * from './secrets/secret-cipher.provider';

// Shutdown, Swagger, performance overrides
export * from './shutdown/shutdown';
export * from './swagger/swagger';
export { ApiAlternativeBodies } from './swagger/alternative-bodies';
export * from './performance/platform-express.adapter';
export * from './performance/validation-metadata-cache';
export { logAlongside } from './performance/request-log';
export { PlatformValidationPipe, PLATFORM_VALIDATION_OPTIONS } from './validation/validation.pipe';

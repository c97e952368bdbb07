import { BadRequestException, createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** Visible ASCII, as RFC 9110 field values and the IETF Idempotency-Key draft expect. */
export const ACCEPTABLE_IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;

/** The `Idempotency-Key` header, undefined when absent, 400 when malformed. */
export const IdempotencyKeyHeader = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined => {
  const value = ctx.switchToHttp().getRequest<Request>().header('idempotency-key');
  if (value === undefined) return undefined;
  if (!ACCEPTABLE_IDEMPOTENCY_KEY.test(value)) {
    throw new BadRequestException(['Idempotency-Key must be 1 to 255 visible ASCII characters']);
  }
  return value;
});

/** The body exactly as sent (parsed JSON), before validation transforms it: what a fingerprint covers. */
export const SentBody = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => {
  return ctx.switchToHttp().getRequest<Request>().body;
});

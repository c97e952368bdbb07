import { HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';

/** The counters' key of a request no verified caller answers for: its client address. */
export const addressKey = (req: Request): string => `ip:${req.ip}`;

/** The 429 of the rate limit, with the seconds until the caller may send again in Retry-After. */
export function tooManyRequests(res: Response, limit: number, retryAfterSeconds: number): HttpException {
  res.setHeader('Retry-After', retryAfterSeconds);
  return new HttpException(`Rate limit of ${limit} requests per minute exceeded`, HttpStatus.TOO_MANY_REQUESTS);
}

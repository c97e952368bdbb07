import { HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import ipaddr from 'ipaddr.js';

/**
 * IPv6 clients are counted by their /64: one subscriber is routed a whole /64 (RFC 6177 suggests even a
 * /56), so counting single addresses would give a prober 2^64 fresh budgets.
 */
export const IPV6_PREFIX_BITS = 64;

/**
 * The network a client address is counted as: an IPv4 address as it is (also when written IPv4-mapped,
 * `::ffff:192.0.2.1`, as a dual-stack server sees IPv4 clients), an IPv6 address as its /64.
 */
export function clientNetwork(ip: string | undefined): string {
  if (ip === undefined) return 'unknown';
  // Fast paths, no parsing: plain IPv4, and IPv4-mapped IPv6 in its usual spelling.
  if (!ip.includes(':')) return ip;
  if (ip.startsWith('::ffff:') && ip.includes('.')) return ip.slice('::ffff:'.length);
  if (!ipaddr.IPv6.isValid(ip)) return ip;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const prefix = address.toByteArray().map((byte, index) => (index < IPV6_PREFIX_BITS / 8 ? byte : 0));
  return `${ipaddr.fromByteArray(prefix).toString()}/${IPV6_PREFIX_BITS}`;
}

/** The counters' key of a request no verified caller answers for: its client's network (clientNetwork). */
export const addressKey = (req: Request): string => `ip:${clientNetwork(req.ip)}`;

/**
 * A 429 that carries the seconds until the caller may try again, which the exception filter answers as Retry-After:
 * a limit counted deep in a feature, where no response is at hand, answers the same as one counted by a guard.
 */
export class TooManyRequestsException extends HttpException {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** The 429 of a rate limit (of `limit` requests, or of what `counted` names). */
export class RateLimitExceededException extends TooManyRequestsException {
  constructor(retryAfterSeconds: number, limit: number, counted = 'requests') {
    super(retryAfterSeconds, `Rate limit of ${limit} ${counted} per minute exceeded`);
  }
}

/** The 429 of a rate limit, its Retry-After set on `res` at once (the middleware that refuses before Nest's filter has a response). */
export function tooManyRequests(res: Response, limit: number, retryAfterSeconds: number, counted = 'requests'): HttpException {
  res.setHeader('Retry-After', retryAfterSeconds);
  return new RateLimitExceededException(retryAfterSeconds, limit, counted);
}

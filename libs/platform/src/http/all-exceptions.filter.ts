import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { InvalidTokenException } from '../auth/invalid-token.exception';
import { DomainError, driverCodeOf, isDatabaseUnavailable, isTransientConflict } from '@app/domain';
import { TooManyRequestsException } from '../rate-limit/rate-limit-keys';
import { allowedMethods, isUnroutedRequest } from './allowed-methods';
import { describeDomainError } from './domain-error-status';
import { ErrorBody } from './error-body';
import { BODY_TOO_LARGE_MESSAGE, bodyTooLarge } from './json-body.middleware';

/** Errors raised by body-parser and other express middleware carry their status this way. */
interface HttpishError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  /** body-parser's limit of a body too large: the route's own. */
  limit?: number;
}

const MIDDLEWARE_MESSAGES: Record<string, string> = {
  'entity.too.large': BODY_TOO_LARGE_MESSAGE,
  'encoding.unsupported': 'Unsupported request body encoding',
  'charset.unsupported': 'Unsupported request body charset',
  'encoding.invalid': 'The request body is not valid UTF-8',
};

/**
 * The one place where errors become HTTP responses. Every error gets the contract's JSON body with
 * the request id; unexpected errors are logged with their cause and answered 500 without any detail.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const described = this.describe(exception);
    let { status, message } = described;
    // A path the app serves, in a method it does not: 405 with what it does serve (RFC 9110), not a 404.
    const allowed = status === HttpStatus.NOT_FOUND && isUnroutedRequest(message, req) ? allowedMethods(req) : [];
    if (allowed.length > 0) {
      status = HttpStatus.METHOD_NOT_ALLOWED;
      message = `${req.method} is not an operation of this path; it answers ${allowed.join(', ')}`;
      res.setHeader('Allow', allowed.join(', '));
    }

    if (status >= 500) {
      // The request's own pino logger (request id bound, the app's destination); Nest's as a fallback.
      // `error`, not `err`: pino would re-serialize it as an Error and add back what loggable() left out.
      // A 503 is a refusal the app chose, with Retry-After (draining, a database past its deadline, busy): a warning.
      const details = { error: loggable(exception), requestId: req.id };
      const level = status === HttpStatus.SERVICE_UNAVAILABLE ? 'warn' : 'error';
      if (req.log) req.log[level](details, `Request failed with ${status}`);
      else this.logger[level](details, `Request failed with ${status}`);
    }
    if (status === HttpStatus.UNAUTHORIZED) {
      res.setHeader('WWW-Authenticate', exception instanceof InvalidTokenException ? exception.challenge : 'Bearer');
    }
    if (exception instanceof TooManyRequestsException && !res.getHeader('Retry-After')) {
      res.setHeader('Retry-After', exception.retryAfterSeconds);
    }
    if (status === HttpStatus.SERVICE_UNAVAILABLE && !res.getHeader('Retry-After')) {
      res.setHeader('Retry-After', '5');
    }

    const body: ErrorBody = {
      statusCode: status,
      error: STATUS_CODES[status] ?? 'Error',
      message,
      path: req.originalUrl ?? req.url,
      timestamp: new Date().toISOString(),
      requestId: String(req.id ?? ''),
    };
    if (res.headersSent) return;
    // A domain error's own members come after the platform's, never in their place.
    res.status(status).json(described.details === undefined ? body : { ...body, ...withoutBase(described.details, body) });
  }

  private describe(exception: unknown): { status: number; message: string | string[]; details?: Readonly<Record<string, unknown>> } {
    if (exception instanceof DomainError) return describeDomainError(exception);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message =
        typeof response === 'object' && response !== null && 'message' in response ? (response as { message: string | string[] }).message : exception.message;
      return { status, message: status >= 500 && status !== 503 ? 'Internal server error' : message };
    }
    if (isDatabaseUnavailable(exception)) {
      return { status: 503, message: 'The database is unavailable; retry later' };
    }
    // A lock conflict that outlasted every retry: the request itself was fine, and may succeed again.
    if (isTransientConflict(exception)) {
      return { status: 503, message: 'The database is busy; retry later' };
    }
    const httpish = exception as HttpishError | undefined;
    const status = httpish?.status ?? httpish?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) return { status, message: middlewareMessage(httpish!, status) };
    return { status: 500, message: 'Internal server error' };
  }
}

/** `details` without the members the platform's body has. */
function withoutBase(details: Readonly<Record<string, unknown>>, body: ErrorBody): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([key]) => !(key in body)));
}

/** What a middleware's 4xx says: body-parser's own words replaced by ours (a body too large names its route's limit). */
function middlewareMessage({ type, limit }: HttpishError, status: number): string {
  if (type === 'entity.too.large' && typeof limit === 'number') return bodyTooLarge(limit);
  return (type && MIDDLEWARE_MESSAGES[type]) ?? STATUS_CODES[status] ?? 'Bad request';
}

/**
 * What of an error may be logged: never its SQL parameters (a failed write carries the connector's
 * secrets) nor the request body, only what identifies the failure.
 */
function loggable(exception: unknown): Record<string, unknown> {
  if (!(exception instanceof Error)) return { message: String(exception) };
  return { type: exception.name, code: driverCodeOf(exception), message: exception.message, stack: exception.stack };
}

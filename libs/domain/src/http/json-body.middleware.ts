import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** The deepest a write body of this API goes is 3 (body > headers > item); 32 leaves room, not risk. */
export const MAX_JSON_DEPTH = 32;
/** A maximal connector holds a few hundred values; 10,000 stops huge arrays before validation. */
export const MAX_JSON_VALUES = 10_000;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** POST/PUT/PATCH bodies must be JSON: anything else is a 415 before any parsing. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (WRITE_METHODS.has(req.method) && hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
    next(new UnsupportedMediaTypeException('The request body must be application/json'));
    return;
  }
  next();
}

/**
 * Rejects parsed bodies nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_VALUES values,
 * walking with an explicit stack: validation and transformation recurse, and must never see such input.
 */
export function limitJsonShape(req: Request, _res: Response, next: NextFunction): void {
  const stack: Array<[unknown, number]> = [[req.body, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > MAX_JSON_VALUES) {
      next(new BadRequestException(`The request body holds more than ${MAX_JSON_VALUES} JSON values`));
      return;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) {
      next(new BadRequestException(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep`));
      return;
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  next();
}

/**
 * Right after the JSON parser: a parse failure becomes a fixed message. The parser's own message quotes
 * the body (V8: `Unexpected token … "<the input>" is not valid JSON`), which may hold a secret.
 */
export function rejectMalformedJson(error: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const parseFailed = (error as { type?: unknown } | undefined)?.type === 'entity.parse.failed';
  next(parseFailed ? new BadRequestException('Malformed JSON in request body') : error);
}

/** What the body parser itself tests (type-is): a request with a length or a chunked body carries one. */
export function carriesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

/**
 * The body pipeline as one middleware: requireJsonBody, the JSON parser (at most `limit`),
 * rejectMalformedJson, limitJsonShape. A request without a body (every read) skips it at once
 * instead of passing four router layers that each find nothing to do.
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = json({ limit });
  return (req, res, next) => {
    if (!carriesBody(req)) return next();
    requireJsonBody(req, res, (error?: unknown) => {
      if (error) return next(error);
      parse(req, res, (parseError?: unknown) => {
        if (parseError) return rejectMalformedJson(parseError, req, res, next);
        limitJsonShape(req, res, next);
      });
    });
  };
}

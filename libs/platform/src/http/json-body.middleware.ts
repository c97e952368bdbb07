import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import { isUtf8 } from 'node:buffer';
import { parse as parseContentType } from 'content-type';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { jsonProblem } from './json-position';
import { quoted } from './quoted';
import { textProblem } from '@app/domain';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** The deepest a write body of this API goes is 3 (body > headers > item); 32 leaves room, not risk. */
export const MAX_JSON_DEPTH = 32;
/**
 * A maximal connector holds about 220 values (50 headers of 3, 20 tags of 2, its fields): 1,000 stops an
 * oversized array or a flood of unknown keys in one cheap pass, before validation spends time on each.
 */
export const MAX_JSON_VALUES = 1_000;

/** The largest request body, in bytes: 413 beyond (API contract, "Errors"). */
export const BODY_LIMIT_BYTES = 256 * 1024;
export const BODY_TOO_LARGE_MESSAGE = `Request body is larger than the limit of ${BODY_LIMIT_BYTES / 1024} KiB`;

/**
 * Whether a request carries a body to read: a chunked one, or a length above 0. `Content-Length: 0` is no
 * body (nothing to check the media type of, nothing to parse); Nest then validates the body as `{}`.
 */
export function carriesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
}

/**
 * `error`, for a request refused before its body is read: the answer closes the connection, so the server
 * neither reads nor discards a body it has refused (Node would otherwise read it off a kept-alive connection).
 */
export function refusedUnread<E>(req: Request, res: Response, error: E): E {
  if (carriesBody(req)) res.setHeader('Connection', 'close');
  return error;
}

/**
 * Exactly `application/json`, in UTF-8 (RFC 8259 JSON is UTF-8; a charset parameter may say so).
 * `application/merge-patch+json` and the like mean other semantics, which this API does not implement,
 * and other charsets (utf-16le, utf-7) would be decoded into text the client did not mean to send.
 */
function isUtf8Json(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  try {
    const { type, parameters } = parseContentType(contentType);
    return type === 'application/json' && (parameters.charset === undefined || parameters.charset.toLowerCase() === 'utf-8');
  } catch {
    return false;
  }
}

/**
 * A route that takes a larger body than BODY_LIMIT_BYTES (an import's source), matched on the request's path; it may
 * read some of its bodies itself (`ownBody`), and say more about a malformed JSON body (`malformedJsonHint`).
 */
export interface LargeBodyRoute {
  path: RegExp;
  limitBytes: number;
  /**
   * Bodies the route reads itself instead of the JSON pipeline (another media type, or JSON that is not a request
   * object): `carries(req)` says whether this request's is one, `read` reads it into `req.body` (its own 415, 413 and
   * 400s) and calls `next`.
   */
  ownBody?: { carries: (req: Request) => boolean; read: RequestHandler };
  /** Said after the position in the 400 of a malformed JSON body. */
  malformedJsonHint?: string;
}

/** The 413 of a body over `limitBytes`. */
export const bodyTooLarge = (limitBytes: number) =>
  limitBytes === BODY_LIMIT_BYTES ? BODY_TOO_LARGE_MESSAGE : `Request body is larger than the limit of ${limitBytes / 1024} KiB`;

/**
 * POST/PUT/PATCH bodies must be UTF-8 `application/json` (else 415), and announce at most `limitBytes` (else 413),
 * before any parsing.
 */
export function requireJsonBody(req: Request, res: Response, next: NextFunction, limitBytes = BODY_LIMIT_BYTES): void {
  if (WRITE_METHODS.has(req.method) && carriesBody(req) && !isUtf8Json(req.headers['content-type'])) {
    next(refusedUnread(req, res, new UnsupportedMediaTypeException('The request body must be application/json in UTF-8')));
    return;
  }
  if (Number(req.headers['content-length']) > limitBytes) {
    // Announced too large: answered at once, not after reading the announced bytes off the connection.
    next(refusedUnread(req, res, new PayloadTooLargeException(bodyTooLarge(limitBytes))));
    return;
  }
  next();
}

/** A value of the body and where it stands, its path built only when an error must name it. */
interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  key: string;
}

/** `headers.3.value`, as validation names fields; each key cut to the length an error may quote. */
function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.push(quoted(at.key));
  return keys.reverse().join('.');
}

/** Keys that name no field of any DTO and that class-transformer drops silently: refused like any unknown field. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * One cheap pass over a parsed body, with an explicit stack (validation and transformation recurse, and
 * must never see such input): at most MAX_JSON_VALUES values, nested at most MAX_JSON_DEPTH deep, and no
 * string, value or key, that holds a lone surrogate or a NUL (400 naming where).
 */
export function limitJsonShape(req: Request, _res: Response, next: NextFunction): void {
  const stack: Visit[] = [{ value: req.body, depth: 1, parent: undefined, key: '' }];
  let values = 0;
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (++values > MAX_JSON_VALUES) {
      next(new BadRequestException(`The request body holds more than ${MAX_JSON_VALUES} JSON values`));
      return;
    }
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return next(new BadRequestException([`${pathOf(visit) || 'The request body'} ${problem}`]));
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) {
      next(new BadRequestException(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep`));
      return;
    }
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) stack.push({ value: value[index], depth: depth + 1, parent: visit, key: String(index) });
      continue;
    }
    for (const key of Object.keys(value)) {
      const child: Visit = { value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: visit, key };
      const problem = textProblem(key);
      if (problem) return next(new BadRequestException([`The field name at ${pathOf(child)} ${problem}`]));
      if (PROTOTYPE_KEYS.has(key)) return next(new BadRequestException([`${pathOf(child)} is not a field of this body`]));
      stack.push(child);
    }
  }
  next();
}

/** The 400 of a malformed JSON body: where it stops being JSON and why, never quoting it, then `hint`. */
export function malformedJson(body: unknown, hint?: string): BadRequestException {
  const problem = typeof body === 'string' ? jsonProblem(body) : null;
  // No problem found: valid JSON that is not an object or an array, which the parser refuses (strict).
  const where = problem ? ` at line ${problem.line}, column ${problem.column}: ${problem.reason}` : ': it must be a JSON object';
  return new BadRequestException(`Malformed JSON in request body${where}${hint ? `. ${hint}` : ''}`);
}

/**
 * Right after the JSON parser: a parse failure becomes a message of its own (malformedJson) that names the line and
 * column. The parser's own message quotes the body (V8: `Unexpected token … "<the input>" is not valid JSON`),
 * which may hold a secret.
 */
export function rejectMalformedJson(error: unknown, next: NextFunction, hint?: string): void {
  const failed = error as { type?: unknown; body?: unknown } | undefined;
  next(failed?.type === 'entity.parse.failed' ? malformedJson(failed.body, hint) : error);
}

/** body-parser's `verify`: its error keeps this status and type (the exception filter words it). */
function refuseInvalidUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw Object.assign(new Error('The request body is not valid UTF-8'), { status: 400, type: 'encoding.invalid' });
}

/**
 * The body pipeline as one middleware: requireJsonBody, the JSON parser (at most BODY_LIMIT_BYTES),
 * rejectMalformedJson, limitJsonShape. A request without a body (every read) skips it at once
 * instead of passing four router layers that each find nothing to do.
 */
export function jsonBody(largeBodies: readonly LargeBodyRoute[] = []): RequestHandler {
  // body-parser decodes invalid UTF-8 leniently, into U+FFFD: refused instead, as lone surrogates are.
  const parser = (limitBytes: number) => json({ limit: limitBytes, verify: refuseInvalidUtf8 });
  const standard = { limitBytes: BODY_LIMIT_BYTES, parse: parser(BODY_LIMIT_BYTES) };
  const large = largeBodies.map((route) => ({ ...route, parse: parser(route.limitBytes) }));
  return (req, res, next) => {
    if (!carriesBody(req)) return next();
    const route: (typeof large)[number] | undefined = large.find(({ path }) => path.test(req.path));
    if (route?.ownBody?.carries(req)) return void route.ownBody.read(req, res, next);
    const { limitBytes, parse } = route ?? standard;
    requireJsonBody(
      req,
      res,
      (error?: unknown) => {
        if (error) return next(error);
        parse(req, res, (parseError?: unknown) => {
          if (parseError) return rejectMalformedJson(parseError, next, route?.malformedJsonHint);
          limitJsonShape(req, res, next);
        });
      },
      limitBytes,
    );
  };
}

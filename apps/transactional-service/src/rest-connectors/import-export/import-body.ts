import { IMPORT_BODY_LIMIT_BYTES, IMPORT_FORM_LIMITS, IMPORT_LIMITS, textProblem } from '@app/domain';
import { bodyTooLarge, LargeBodyRoute, refusedUnread } from '@app/platform';
import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import busboy from 'busboy';
import { parse as parseContentType } from 'content-type';
import { raw } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isUtf8 } from 'node:buffer';

/** The import options a query string or a form field may carry; WRITE_ONLY_OPTIONS only a form field (SOURCE_BODY_RULES). */
export const IMPORT_QUERY_OPTIONS = ['format', 'dryRun', 'select', 'onConflict'] as const;
/** The options that may hold secrets: a form field (or, postmanEnvironment, a file part), never the query string. */
const WRITE_ONLY_OPTIONS = ['credentials', 'postmanEnvironment'] as const;
/** Every option a form may carry. */
const FORM_OPTIONS: readonly string[] = [...IMPORT_QUERY_OPTIONS, ...WRITE_ONLY_OPTIONS];
/** The part of a multipart/form-data import that may hold a Postman environment export, as a file or a field. */
export const ENVIRONMENT_PART = 'postmanEnvironment';
/** Media types whose body is the source itself, as it is (UTF-8). */
export const SOURCE_MEDIA_TYPES = ['text/plain', 'application/yaml', 'application/x-yaml', 'application/json'] as const;
const MULTIPART = 'multipart/form-data';
/** The part of a multipart/form-data import that holds the source. */
export const FILE_PART = 'file';

const inQuery = (name: string) =>
  `${name === 'credentials' ? 'credentials are' : `${name} is`} never taken from the query string (proxies, access logs and browser histories keep URLs): ` +
  `send ${name === 'credentials' ? 'them' : 'it'} in a JSON import request ({"format", "source", "${name}"}) or as the ${name} field (a JSON object) of a multipart/form-data upload`;

/** The 400 of a malformed JSON import request, after its position. */
export const MALFORMED_IMPORT_HINT =
  'To import a source as it is, send it as the body (Content-Type text/plain, application/yaml, or the OpenAPI document or Postman ' +
  'collection itself as application/json) with ?format=, or upload it as the file part of multipart/form-data';

/** The media type of `req`, lower-cased, and its charset; undefined when it has none or it does not parse. */
function mediaTypeOf(req: Request): { type: string; charset?: string } | undefined {
  const header = req.headers['content-type'];
  if (header === undefined) return undefined;
  try {
    const { type, parameters } = parseContentType(header);
    return { type, charset: parameters.charset?.toLowerCase() };
  } catch {
    return undefined;
  }
}

const hasQueryOption = (req: Request) => FORM_OPTIONS.some((option) => option in req.query);

/**
 * Whether an import's body is read here rather than as a JSON import request: an application/json body is the
 * request object `{format, source, …}` unless the query string holds an import option (`?format=openapi`), when it
 * is the document itself; every other media type is read here (and refused here when it is not one of ours).
 */
export function isSourceBody(req: Request): boolean {
  const media = mediaTypeOf(req);
  return media?.type !== 'application/json' || hasQueryOption(req);
}

/** One value of a query or form option: a repeated one is refused (but `select`, which repeats). */
type OptionValues = Map<string, string[]>;

/** The import request of a raw or multipart body: its options from the query and the form (never both for one), typed as the JSON request has them. */
function importRequest(source: string, query: OptionValues, form: OptionValues): Record<string, unknown> {
  const problems: string[] = [];
  const request: Record<string, unknown> = { source };
  for (const name of query.keys()) {
    if ((WRITE_ONLY_OPTIONS as readonly string[]).includes(name)) problems.push(inQuery(name));
    else if (form.has(name)) problems.push(`${name} is given both in the query string and as a form field: give it once`);
  }
  for (const [name, values] of [...query, ...form]) {
    if ((WRITE_ONLY_OPTIONS as readonly string[]).includes(name) && query.has(name)) continue;
    if (name === 'select') {
      request.select = values;
      continue;
    }
    if (values.length > 1) {
      problems.push(`${name} is given ${values.length} times: give it once`);
      continue;
    }
    const [value] = values;
    if (name === 'dryRun') request.dryRun = value === 'true' ? true : value === 'false' ? false : value;
    else if (name === 'credentials') request.credentials = credentialsOf(value, problems);
    else if (name === ENVIRONMENT_PART) request.postmanEnvironment = environmentOf(value, problems);
    else request[name] = value;
  }
  if (request.format === undefined)
    problems.push('format is missing: say what the body is with ?format=curl, ?format=openapi or ?format=postman (or a format form field)');
  if (problems.length > 0) throw new BadRequestException(problems);
  return request;
}

function credentialsOf(text: string, problems: string[]): unknown {
  try {
    return JSON.parse(text);
  } catch {
    problems.push('credentials must be a JSON object of strings, as in a JSON import request ({"bearerToken": "…"})');
    return undefined;
  }
}

function environmentOf(text: string, problems: string[]): unknown {
  try {
    return JSON.parse(text);
  } catch {
    problems.push(
      `${ENVIRONMENT_PART} must be the JSON of a Postman environment export ({ "name", "values": [{ "key", "value", "type", "enabled" }] }): it is not JSON`,
    );
    return undefined;
  }
}

/** The query's import options; a name that is not one is left to the route's query check (400 naming it). */
function queryOptions(req: Request): OptionValues {
  const options: OptionValues = new Map();
  for (const name of FORM_OPTIONS) {
    const value: unknown = req.query[name];
    if (value === undefined) continue;
    const values = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
    options.set(name, values);
  }
  return options;
}

/** Why a text of the body may not be taken (a NUL, a lone surrogate), as the JSON body's texts are checked. */
function requireText(text: string, what: string): void {
  const problem = textProblem(text);
  if (problem) throw new BadRequestException([`${what} ${problem}`]);
}

/** The body as its text: at most IMPORT_LIMITS.sourceBytes, UTF-8. */
const rawSource = raw({ type: () => true, limit: IMPORT_LIMITS.sourceBytes });

function readRaw(req: Request, res: Response, next: NextFunction): void {
  rawSource(req, res, (error?: unknown) => {
    if (error) return next(error);
    try {
      const body = req.body as Buffer;
      if (!isUtf8(body)) throw new BadRequestException('The request body is not valid UTF-8');
      const source = body.toString('utf8');
      requireText(source, 'The request body');
      req.body = importRequest(source, queryOptions(req), new Map());
      next();
    } catch (failure) {
      next(failure);
    }
  });
}

/**
 * A multipart/form-data import (busboy): one `file` part, the source (at most IMPORT_LIMITS.sourceBytes, UTF-8), and
 * the options as fields (IMPORT_FORM_LIMITS); anything else is a 400, a part past its limit a 413.
 */
function readMultipart(req: Request, res: Response, next: NextFunction): void {
  let form: busboy.Busboy;
  try {
    form = busboy({
      headers: req.headers,
      limits: {
        files: 2,
        fileSize: IMPORT_LIMITS.sourceBytes,
        fields: IMPORT_FORM_LIMITS.fields,
        fieldSize: IMPORT_FORM_LIMITS.fieldBytes,
        parts: IMPORT_FORM_LIMITS.fields + 2,
      },
    });
  } catch {
    return next(refusedUnread(req, res, new BadRequestException('The multipart/form-data body has no boundary')));
  }
  const fields: OptionValues = new Map();
  const problems: string[] = [];
  let file: Buffer | undefined;
  let tooLarge: string | undefined;
  let done = false;
  const finish = (error?: unknown) => {
    if (done) return;
    done = true;
    req.unpipe(form);
    if (error) {
      // What is left of the body is not read: the connection closes after the answer.
      res.setHeader('Connection', 'close');
      req.resume();
    }
    next(error);
  };
  form.on('file', (name, stream) => {
    if (name === ENVIRONMENT_PART) return readEnvironmentPart(stream);
    if (name !== FILE_PART) {
      problems.push(`${JSON.stringify(name.slice(0, 40))} is not a file part of an import: the source is the part named ${FILE_PART}`);
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => (tooLarge = `The ${FILE_PART} part is larger than the limit of ${IMPORT_LIMITS.sourceBytes / 1024} KiB`));
    stream.on('close', () => (file = Buffer.concat(chunks)));
  });
  /** The Postman environment as a file part: at most IMPORT_LIMITS.postmanEnvironmentBytes, UTF-8, as its field would be. */
  const readEnvironmentPart = (stream: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= IMPORT_LIMITS.postmanEnvironmentBytes) chunks.push(chunk);
      else tooLarge = `The ${ENVIRONMENT_PART} part is larger than the limit of ${IMPORT_LIMITS.postmanEnvironmentBytes / 1024} KiB`;
    });
    stream.on('close', () => {
      const part = Buffer.concat(chunks);
      if (!isUtf8(part)) problems.push(`The ${ENVIRONMENT_PART} part is not valid UTF-8`);
      else fields.set(ENVIRONMENT_PART, [...(fields.get(ENVIRONMENT_PART) ?? []), part.toString('utf8')]);
    });
  };
  form.on('field', (name, value, { valueTruncated }) => {
    if (valueTruncated) tooLarge = `The ${name.slice(0, 40)} field is larger than the limit of ${IMPORT_FORM_LIMITS.fieldBytes / 1024} KiB`;
    else if (!FORM_OPTIONS.includes(name)) problems.push(`${JSON.stringify(name.slice(0, 40))} is not a field of an import: ${FORM_OPTIONS.join(', ')}`);
    else fields.set(name, [...(fields.get(name) ?? []), value]);
  });
  for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
    form.on(limit, () =>
      problems.push(`The form holds more parts than an import takes (one ${FILE_PART}, one ${ENVIRONMENT_PART}, the option fields, select repeated)`),
    );
  }
  form.on('error', () => finish(new BadRequestException('The multipart/form-data body is malformed')));
  form.on('close', () => {
    if (tooLarge) return finish(new PayloadTooLargeException(tooLarge));
    try {
      if (problems.length > 0) throw new BadRequestException(problems);
      if (file === undefined) throw new BadRequestException([`The ${FILE_PART} part is missing: it holds the source`]);
      if (!isUtf8(file)) throw new BadRequestException([`The ${FILE_PART} part is not valid UTF-8`]);
      const source = file.toString('utf8');
      requireText(source, `The ${FILE_PART} part`);
      for (const [name, values] of fields) values.forEach((value) => requireText(value, name));
      req.body = importRequest(source, queryOptions(req), fields);
      finish();
    } catch (failure) {
      finish(failure);
    }
  });
  req.pipe(form);
}

/**
 * Reads an import body that is not a JSON import request (isSourceBody): the source as the body itself, or a
 * multipart/form-data upload, into the import request the JSON body would be. A body that announces more than its
 * limit is a 413 before it is read; another media type is a 415 naming the ones taken.
 */
export const readSourceBody: RequestHandler = (req, res, next) => {
  const media = mediaTypeOf(req);
  if (media?.type === MULTIPART) {
    if (Number(req.headers['content-length']) > IMPORT_BODY_LIMIT_BYTES)
      return next(refusedUnread(req, res, new PayloadTooLargeException(bodyTooLarge(IMPORT_BODY_LIMIT_BYTES))));
    return readMultipart(req, res, next);
  }
  if (media === undefined || !(SOURCE_MEDIA_TYPES as readonly string[]).includes(media.type) || (media.charset !== undefined && media.charset !== 'utf-8')) {
    return next(
      refusedUnread(
        req,
        res,
        new UnsupportedMediaTypeException(
          `An import takes application/json (the import request, or with ?format= the document itself), text/plain, application/yaml, application/x-yaml (the source as it is, with ?format=) or ${MULTIPART} (the source as the ${FILE_PART} part), in UTF-8`,
        ),
      ),
    );
  }
  if (Number(req.headers['content-length']) > IMPORT_LIMITS.sourceBytes)
    return next(refusedUnread(req, res, new PayloadTooLargeException(bodyTooLarge(IMPORT_LIMITS.sourceBytes))));
  readRaw(req, res, next);
};

/** The import route's body rules, for the app's body pipeline (LargeBodyRoute). */
export const IMPORT_BODY_ROUTE: LargeBodyRoute = {
  path: /\/rest-connectors\/import$/,
  limitBytes: IMPORT_BODY_LIMIT_BYTES,
  ownBody: { carries: isSourceBody, read: readSourceBody },
  malformedJsonHint: MALFORMED_IMPORT_HINT,
};

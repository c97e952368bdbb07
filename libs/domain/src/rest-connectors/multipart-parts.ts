import { parse as parseMediaType } from 'content-type';
import { textProblem } from '../validation/text-rules';

/**
 * One part of a MULTIPART_FORM_DATA connector's body: a text field (`value`, `{{variable}}` placeholders filled when
 * the connector runs), or a file (`value` as its text, or `base64` as its bytes), named by `filename` and typed by
 * `contentType` when given. Exactly one of `value` and `base64`.
 */
export interface MultipartPart {
  name: string;
  value?: string;
  base64?: string;
  filename?: string;
  contentType?: string;
}

/** The most parts a body holds, and the longest name and filename (characters). */
export const MULTIPART_LIMITS = { parts: 100, name: 256, filename: 256 } as const;

const FIELDS: ReadonlyArray<keyof MultipartPart> = ['name', 'value', 'base64', 'filename', 'contentType'];

/** Standard Base64 (RFC 4648 section 4), padded, no line breaks or spaces. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** What a MULTIPART_FORM_DATA body must be, said in every message about one that is not. */
export const MULTIPART_BODY_FORMAT =
  'a MULTIPART_FORM_DATA body is a JSON array of parts, each {"name": "…", "value": "…"} or {"name": "…", "base64": "…"}, ' +
  'with an optional "filename" and "contentType" (an empty body sends no parts)';

/** A MULTIPART_FORM_DATA body read: its parts, or every problem found (nothing else then). */
export type MultipartReading = { parts: MultipartPart[] } | { problems: string[] };

/**
 * The parts a MULTIPART_FORM_DATA connector's `body` holds (an empty body holds none), or every problem, each naming
 * the part (`body[2].filename`) and what to write instead. The one reading of the format: writes, test runs,
 * importers and exporters all go through it.
 */
export function readMultipartParts(body: string): MultipartReading {
  if (body.trim() === '') return { parts: [] };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    return { problems: [`body is not JSON (${(error as Error).message}): ${MULTIPART_BODY_FORMAT}`] };
  }
  if (!Array.isArray(data)) return { problems: [`body is not a JSON array: ${MULTIPART_BODY_FORMAT}`] };
  if (data.length > MULTIPART_LIMITS.parts) {
    return { problems: [`body has ${data.length} parts: a multipart body holds at most ${MULTIPART_LIMITS.parts}`] };
  }
  const problems = data.flatMap((part: unknown, index) => partProblems(part, `body[${index}]`));
  return problems.length > 0 ? { problems } : { parts: data as MultipartPart[] };
}

/** The parts of a body known to be valid (stored, or checked by readMultipartParts): throws on any other. */
export function multipartPartsOf(body: string): MultipartPart[] {
  const reading = readMultipartParts(body);
  if ('problems' in reading) throw new Error(`Not a multipart body: ${reading.problems[0]}`);
  return reading.parts;
}

/** The body that holds `parts`: compact JSON, each part's fields in the documented order; no parts is the empty body. */
export function multipartBody(parts: readonly MultipartPart[]): string {
  if (parts.length === 0) return '';
  return JSON.stringify(parts.map((part) => Object.fromEntries(FIELDS.filter((field) => part[field] !== undefined).map((field) => [field, part[field]]))));
}

function partProblems(part: unknown, at: string): string[] {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) {
    return [`${at} is not an object: write {"name": "…", "value": "…"} or {"name": "…", "base64": "…"}`];
  }
  const record = part as Record<string, unknown>;
  const problems = Object.keys(record)
    .filter((key) => !(FIELDS as string[]).includes(key))
    .map((key) => `${at}.${key.slice(0, 40)} is not a part field: a part has ${FIELDS.join(', ')}`);
  for (const field of FIELDS) {
    if (record[field] !== undefined && typeof record[field] !== 'string') problems.push(`${at}.${field} must be a string`);
  }
  if (problems.length > 0) return problems;
  const { name, value, base64, filename, contentType } = record as Partial<MultipartPart>;
  if (name === undefined || name === '') problems.push(`${at}.name is missing: every part has a non-empty name`);
  else problems.push(...lineProblems(`${at}.name`, name, MULTIPART_LIMITS.name));
  if ((value === undefined) === (base64 === undefined)) {
    problems.push(`${at} must have exactly one of value (text, {{variable}} placeholders allowed) and base64 (a file's bytes)`);
  }
  if (value !== undefined) {
    const problem = textProblem(value);
    if (problem !== undefined) problems.push(`${at}.value ${problem}`);
  }
  if (base64 !== undefined && !BASE64.test(base64)) {
    problems.push(
      `${at}.base64 is not Base64: write the file's bytes in standard padded Base64 (A-Z a-z 0-9 + /, = at the end), without spaces or line breaks`,
    );
  }
  if (filename !== undefined) problems.push(...lineProblems(`${at}.filename`, filename, MULTIPART_LIMITS.filename));
  if (contentType !== undefined && !isMediaType(contentType)) {
    problems.push(`${at}.contentType is not a media type: write type/subtype with optional parameters, such as image/png or text/plain; charset=utf-8`);
  }
  return problems;
}

function lineProblems(at: string, text: string, limit: number): string[] {
  const problem = textProblem(text, true);
  if (problem !== undefined) return [`${at} ${problem}: it is one line of the part's header`];
  return text.length > limit ? [`${at} is longer than ${limit} characters`] : [];
}

function isMediaType(text: string): boolean {
  try {
    parseMediaType(text);
    return true;
  } catch {
    return false;
  }
}

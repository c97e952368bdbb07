/**
 * What a test run does with a far side's answer, in the answer reader's worker threads (answer-reader.ts): every
 * secret scrubbed from the whole body before it is cut for showing, the body parsed when it is JSON, the
 * connector's `output` applied. Nothing the far side sends is processed on the app's main thread beyond reading
 * its bytes: here, a hostile answer or query can only stop its own worker.
 *
 * It imports packages and files that import only packages or each other (never Nest, never config): from the
 * TypeScript sources (tests) these files are transpiled on their own into node_modules/.cache; built, they are
 * one webpack entry beside the app's bundle.
 */
import { SecretScrubber, SecretValue } from '../secret-scrubber';
import { parseAnswer, QueryResult, queryAnswer, queryFailed } from './output-query';

export interface AnswerTask {
  /** The body read, as text: all of it, or (`whole` false) what was read before the read limit. */
  body: string;
  whole: boolean;
  /** What must not be shown, in any form. */
  secrets: SecretValue[];
  /** The most of the body shown, in bytes of UTF-8. */
  shownBytes: number;
  /** Whether the answer says it is JSON: its parsed body is then handed back when shown whole. */
  isJson: boolean;
  /** The connector's `output` when it is a JSONPath query, null when none is to be evaluated. */
  expression: string | null;
}

export interface AnswerTaskResult {
  /** The body scrubbed, then cut to `shownBytes` (never a character cut in two). */
  body: string;
  bodyTruncated: boolean;
  /** The parsed body, scrubbed, when it is JSON and shown whole. */
  json?: unknown;
  /** What `expression` selects, scrubbed; absent without an expression. */
  query?: QueryResult;
}

/** At most `limit` bytes of UTF-8 of `text`, never cutting a character in two. */
export function cutAt(text: string, limit: number): { text: string; truncated: boolean } {
  // A UTF-16 unit is at most 3 bytes of UTF-8: a short text needs no count.
  if (text.length * 3 <= limit || Buffer.byteLength(text, 'utf8') <= limit) return { text, truncated: false };
  const buffer = Buffer.from(text, 'utf8');
  let end = limit;
  while (end > 0 && (buffer[end] & 0xc0) === 0x80) end -= 1;
  return { text: buffer.subarray(0, end).toString('utf8'), truncated: true };
}

/**
 * One answer: the whole body scrubbed before it is cut, so a secret across the cut leaves no part of itself;
 * what JSON decoding reveals (a secret written with JSON escapes) scrubbed again in the parsed body and the values.
 */
export default function readAnswer(task: AnswerTask): AnswerTaskResult {
  const scrubber = new SecretScrubber(task.secrets);
  const scrubbed = scrubber.text(task.body);
  const cut = cutAt(scrubbed, task.shownBytes);
  const result: AnswerTaskResult = { body: cut.text, bodyTruncated: cut.truncated || !task.whole };
  const wantsJson = task.isJson && !result.bodyTruncated;
  if (!task.whole || (task.expression === null && !wantsJson)) {
    if (task.expression !== null) result.query = queryFailed('the answer was cut short before its end: it cannot be read as JSON');
    return result;
  }
  const parsed = parseAnswer(scrubbed);
  if ('value' in parsed && wantsJson) result.json = scrubber.value(parsed.value);
  if (task.expression !== null) {
    const query = 'value' in parsed ? queryAnswer(task.expression, parsed.value) : queryFailed(parsed.notJson);
    result.query = { ...query, values: query.values && scrubber.value(query.values) };
  }
  return result;
}

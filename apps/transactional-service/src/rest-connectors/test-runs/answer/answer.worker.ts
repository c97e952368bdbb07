/**
 * What a test run does with a far side's answer, in the answer reader's worker threads (answer-reader.ts): every
 * secret scrubbed from the answer's texts (its message, header names and values) and from its whole body before
 * the body is cut for showing; the body parsed when it is JSON and the connector's `output` applied to it, what
 * they reveal scrubbed in turn. Nothing a far side sends is processed on the app's main thread beyond reading
 * its bytes: a hostile answer, query or secret can only stop its own worker.
 *
 * It imports packages and files that import only packages or each other (never Nest, never config): built, it is
 * one webpack entry beside the app's bundle; from the TypeScript sources (tests) see workers/worker-script.ts.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { workerTask } from '../../../workers/worker-task';
import { SecretScrubber, SecretValue } from '../secret-scrubber';
import { cutAt } from './cut-at';
import { jsonPaths, parseAnswer, QueryResult, queryAnswer, queryFailed } from './output-query';

export interface AnswerTask {
  /**
   * The body's bytes as read, handed over (transferred, not copied): all of it, or (`whole` false) what was read
   * before the read limit, a character cut in two at its end then left out. Decoded here, not on the main thread.
   */
  bytes: Uint8Array;
  whole: boolean;
  /** Small texts of the answer (the message, header names and values), handed back scrubbed, in order. */
  texts: string[];
  /** What must not be shown, in any form. */
  secrets: SecretValue[];
  /** The most of the body shown, in bytes of UTF-8. */
  shownBytes: number;
  /** Whether the answer says it is JSON: its parsed body is then handed back when shown whole. */
  isJson: boolean;
  /** The connector's `output` when it is a JSONPath query, null when none is to be evaluated. */
  expression: string | null;
  /** Where the worker hands over what can be shown before it parses and queries. */
  progress?: AnswerProgress;
}

/** What can be shown of an answer once it is scrubbed: its texts and its body, cut. */
export interface AnswerShown {
  texts: string[];
  body: string;
  bodyTruncated: boolean;
}

export interface AnswerTaskResult extends AnswerShown {
  /** The parsed body, scrubbed, when it is JSON and shown whole. */
  json?: unknown;
  /** The JSONPaths of `json`'s values (output-query.ts jsonPaths), when `json` is given. */
  jsonPaths?: { paths: string[]; truncated: boolean };
  /** What `expression` selects, scrubbed; absent without an expression. */
  query?: QueryResult;
}

/** How a task hands over what can be shown: posted on the BroadcastChannel `channel` with the task's `id`. */
export interface AnswerProgress {
  id: number;
  channel: string;
}

const channels = new Map<string, BroadcastChannel>();

function postShown(progress: AnswerProgress | undefined, shown: AnswerShown): void {
  if (!progress) return;
  let channel = channels.get(progress.channel);
  if (!channel) {
    channel = new BroadcastChannel(progress.channel);
    channel.unref();
    channels.set(progress.channel, channel);
  }
  channel.postMessage({ id: progress.id, shown });
}

/**
 * One answer. The whole body is scrubbed before it is cut, so a secret across the cut leaves no part of itself.
 * The body is parsed as it came (a scrubbed text might no longer be JSON), and the parsed body is scrubbed before
 * anything else reads it: a secret written with JSON escapes is clear once decoded. The query runs on the scrubbed
 * body only, so a filter (`==`, `<`, `match`, `search`) compares the caller's guesses with placeholders, never with
 * a secret: on the parsed answer, the selected values told whether a guess (or a prefix of one) was right, without
 * ever showing the secret. What it selects is part of the scrubbed body, and its hint quotes the scrubbed body and
 * the caller's own query, so neither is scrubbed again: scrubbing the hint told whether the query held a secret.
 */
export function readAnswer(task: AnswerTask): AnswerTaskResult {
  const scrubber = new SecretScrubber(task.secrets);
  const body = new TextDecoder().decode(task.bytes, { stream: !task.whole });
  const cut = cutAt(scrubber.text(body), task.shownBytes);
  const shown: AnswerShown = { texts: task.texts.map((text) => scrubber.text(text)), body: cut.text, bodyTruncated: cut.truncated || !task.whole };
  // Handed over before the parsing and the query, which a hostile answer or query may make the reader stop.
  if (task.expression !== null || task.isJson) postShown(task.progress, shown);
  const result: AnswerTaskResult = { ...shown };
  const wantsJson = task.isJson && !shown.bodyTruncated;
  if (task.expression !== null && !task.whole) result.query = queryFailed('the answer was cut short before its end: it cannot be read as JSON');
  if (!task.whole || (task.expression === null && !wantsJson)) return result;
  const parsed = parseAnswer(body);
  const scrubbed = 'value' in parsed ? scrubber.value(parsed.value) : undefined;
  if (scrubbed !== undefined && wantsJson) [result.json, result.jsonPaths] = [scrubbed, jsonPaths(scrubbed)];
  if (task.expression !== null) result.query = 'value' in parsed ? queryAnswer(task.expression, scrubbed!) : queryFailed(parsed.notJson);
  return result;
}

/** Texts to search for secrets (holdsSecret). */
export interface SecretSearch {
  texts: string[];
  secrets: SecretValue[];
}

/** Whether any of the texts holds any form of any of the secrets: what scrubbing would change. */
export function holdsSecret(task: SecretSearch): boolean {
  const scrubber = new SecretScrubber(task.secrets);
  return task.texts.some((text) => scrubber.text(text) !== text);
}

/** The tasks of the reader's pool (workers/worker-pool.ts): the default export reads an answer. */
export default workerTask(readAnswer);
export const holdsSecretTask = workerTask(holdsSecret);

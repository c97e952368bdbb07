import { TestRunOutcome } from '@app/domain';
import type { Dispatcher } from 'undici';
import { undici } from './undici';
import { Header } from './variables';

/** The outcome names of the contract, as strings. */
export type Outcome = `${TestRunOutcome}`;

/** At most this much of an answer is read; the rest is never taken off the socket. */
export const MAX_READ_BYTES = 1024 * 1024;
/** At most this much of an answer's body is returned to the caller. */
export const MAX_RETURNED_BYTES = 64 * 1024;

export interface OutboundRequest {
  method: string;
  url: string;
  headers: readonly Header[];
  /** Null: no body (GET, HEAD, or content type NONE). */
  body: string | null;
}

export interface OutboundAnswer {
  status: number;
  headers: Header[];
  /** The body as text, at most MAX_RETURNED_BYTES (bytes cut at a character boundary). */
  body: string;
  bodyTruncated: boolean;
  /** The whole body as read (up to MAX_READ_BYTES), for the output expression. */
  fullBody: string;
  fullBodyTruncated: boolean;
}

export interface OutboundResult {
  outcome: Outcome;
  message: string | null;
  answer: OutboundAnswer | null;
  durationMs: number;
}

/** A timeout from the first connection attempt to the answer's last byte. */
class CallTimeout extends Error {}

/** The outcome of a failed call, from its error's code: never from its message. */
function failureOf(error: unknown): { outcome: Outcome; message: string } {
  const code = (error as { code?: unknown })?.code;
  if (error instanceof CallTimeout) return { outcome: 'TIMEOUT', message: error.message };
  if (code === 'BLOCKED_DESTINATION') return { outcome: 'BLOCKED_DESTINATION', message: (error as Error).message };
  const { errors } = undici();
  if (error instanceof errors.ConnectTimeoutError || error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return { outcome: 'TIMEOUT', message: 'The far side did not answer in time' };
  }
  if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SSL') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN' || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE')) {
    return { outcome: 'TLS_ERROR', message: `TLS failed: ${code}` };
  }
  const reason = typeof code === 'string' ? code : 'the connection failed';
  return { outcome: 'CONNECTION_FAILED', message: `Could not reach the far side: ${reason}` };
}

/** Text of at most `limit` bytes, never cutting a UTF-8 character in two. */
export function textUpTo(buffer: Buffer, limit: number): { text: string; truncated: boolean } {
  if (buffer.length <= limit) return { text: buffer.toString('utf8'), truncated: false };
  let end = limit;
  while (end > 0 && (buffer[end] & 0xc0) === 0x80) end -= 1;
  return { text: buffer.subarray(0, end).toString('utf8'), truncated: true };
}

/**
 * A body's bytes, read until there are more than `limit` (then the rest is never taken off the socket):
 * `truncated` when the body went on; the bytes may pass `limit` by part of one chunk (textUpTo cuts them).
 */
export async function readUpTo(body: Dispatcher.ResponseData['body'], limit: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

/**
 * Makes one outbound call through the guarded dispatcher and reports it, whatever happened: no redirect is
 * followed, the whole call is abandoned after `timeoutMs`, at most MAX_READ_BYTES are read.
 */
export async function callOnce(dispatcher: Dispatcher, call: OutboundRequest, timeoutMs: number, now: () => number = Date.now): Promise<OutboundResult> {
  const started = now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new CallTimeout(`No whole answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const answer = await undici().request(call.url, {
      method: call.method as Dispatcher.HttpMethod,
      headers: call.headers.map(({ header, value }) => [header, value]).flat(),
      body: call.body ?? undefined,
      dispatcher,
      signal: abort.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const { bytes: read, truncated: readTruncated } = await readUpTo(answer.body, MAX_READ_BYTES);
    const full = textUpTo(read, MAX_READ_BYTES);
    const returned = textUpTo(read, MAX_RETURNED_BYTES);
    const headers: Header[] = [];
    for (const [header, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.push({ header, value: one });
    }
    const status = answer.statusCode;
    const success = status >= 200 && status <= 299;
    const location = typeof answer.headers.location === 'string' ? answer.headers.location : null;
    return {
      outcome: success ? 'SUCCESS' : 'HTTP_ERROR',
      message: success ? null : `The far side answered ${status}${location && status >= 300 && status < 400 ? `, redirecting to ${location} (not followed)` : ''}`,
      answer: {
        status,
        headers,
        body: returned.text,
        bodyTruncated: returned.truncated || readTruncated,
        fullBody: full.text,
        fullBodyTruncated: full.truncated || readTruncated,
      },
      durationMs: now() - started,
    };
  } catch (error) {
    const reason = abort.signal.aborted ? abort.signal.reason : error;
    return { ...failureOf(reason), answer: null, durationMs: now() - started };
  } finally {
    clearTimeout(timer);
  }
}

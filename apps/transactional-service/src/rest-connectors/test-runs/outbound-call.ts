import { MultipartPart, TestRunOutcome } from '@app/domain';
import type { Dispatcher } from 'undici';
import { RunDeadline } from './run-deadline';
import { undici } from './undici';
import { Header } from './variables';

/** The outcome names of the contract, as strings. */
export type Outcome = `${TestRunOutcome}`;

/** At most this much of an answer is read; the rest is never taken off the socket. */
export const MAX_READ_BYTES = 1024 * 1024;

export interface OutboundRequest {
  method: string;
  url: string;
  headers: readonly Header[];
  /** Null: no body (GET, HEAD, or content type NONE). Bytes: an encoded multipart body. */
  body: string | Buffer | null;
  /** A multipart body's parts, to be encoded (test-run.ts) into `body` and the Content-Type with its boundary. */
  form?: readonly MultipartPart[];
}

export interface OutboundAnswer {
  status: number;
  headers: Header[];
  /** The body's bytes as read: all of them, or a little more than MAX_READ_BYTES when `truncated`. */
  bytes: Buffer;
  /** The body went on past MAX_READ_BYTES, and the rest was not read. */
  truncated: boolean;
}

export interface OutboundResult {
  outcome: Outcome;
  message: string | null;
  answer: OutboundAnswer | null;
  /** What the guard refused, for the server's log only: the answer never says what a name resolves to. */
  blocked?: { address: string; range: string };
}

/** `host port N`, the port said even when the URL leaves it to its scheme. */
export function destinationInWords(url: string): string {
  const { hostname, port, protocol } = new URL(url);
  return `${hostname} port ${port || (protocol === 'https:' ? 443 : 80)}`;
}

/** What a socket or name error code means, in plain words (the code follows in brackets). */
const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the name has no address',
  EAI_AGAIN: 'the name could not be resolved just now',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed while the request was sent',
  UND_ERR_SOCKET: 'the far side closed the connection before answering whole',
};
const TLS_ERRORS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its certificate's issuer is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "its certificate's issuer is not trusted",
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is not for this host name',
};

/** Answers undici refuses to read, in plain words: the far side was reached, and what it sent is wrong. */
const MALFORMED_ANSWERS: Record<string, string> = {
  UND_ERR_HEADERS_OVERFLOW: 'its headers are larger than a test run reads (16 KiB)',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'its body does not match its Content-Length',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'its body is larger than a test run reads',
};

const isTls = (code: string) => code in TLS_ERRORS || code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SSL');

/** The outcome of a failed call, from its error's code: never from its message. */
export function failureOf(error: unknown, url: string, deadline: RunDeadline): Omit<OutboundResult, 'answer'> {
  const where = destinationInWords(url);
  if (deadline.cancelled) return { outcome: 'TIMEOUT', message: 'The caller left before the run ended: it was cancelled' };
  if (deadline.timedOut) return { outcome: 'TIMEOUT', message: `${where} gave no whole answer within ${deadline.timeoutMs} ms, the run's limit` };
  const code = (error as { code?: unknown })?.code;
  if (code === 'BLOCKED_DESTINATION') {
    const { message, address, range } = error as Error & { address: string; range: string };
    return { outcome: 'BLOCKED_DESTINATION', message, blocked: { address, range } };
  }
  const { errors } = undici();
  if (error instanceof errors.ConnectTimeoutError || error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return { outcome: 'TIMEOUT', message: `${where} gave no whole answer within ${deadline.timeoutMs} ms, the run's limit` };
  }
  if (error instanceof errors.HTTPParserError) {
    // undici's message ends with llhttp's reason in brackets: `… HTTP/1.1 protocol (Invalid header token)`.
    const reason = /\(([^()]+)\)$/.exec(error.message)?.[1] ?? 'unreadable';
    return { outcome: 'CONNECTION_FAILED', message: `${where} answered, but not in valid HTTP/1.1 (${reason})` };
  }
  if (typeof code === 'string' && code in MALFORMED_ANSWERS)
    return { outcome: 'CONNECTION_FAILED', message: `${where} answered, but ${MALFORMED_ANSWERS[code]} (${code})` };
  if (typeof code === 'string' && isTls(code)) {
    return { outcome: 'TLS_ERROR', message: `TLS with ${where} failed: ${TLS_ERRORS[code] ?? 'the secure connection could not be made'} (${code})` };
  }
  const reason = typeof code === 'string' ? `${CONNECTION_ERRORS[code] ?? 'the connection failed'} (${code})` : 'the connection failed';
  return { outcome: 'CONNECTION_FAILED', message: `Could not reach ${where}: ${reason}` };
}

/**
 * A body's bytes, read until there are more than `limit` (then the rest is never taken off the socket):
 * `truncated` when the body went on; the bytes may pass `limit` by part of one chunk.
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

/** An answer's headers as a list, each value of a repeated header on its own. */
export function headerList(headers: Dispatcher.ResponseData['headers']): Header[] {
  const list: Header[] = [];
  for (const [header, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) list.push({ header, value: one });
  }
  return list;
}

/**
 * Makes one outbound call through the guarded dispatcher and reports it, whatever happened: no redirect is
 * followed, the call is abandoned when the run's deadline passes (or its caller leaves), at most `maxBytes`
 * are read.
 */
export async function callOnce(dispatcher: Dispatcher, call: OutboundRequest, deadline: RunDeadline, maxBytes = MAX_READ_BYTES): Promise<OutboundResult> {
  try {
    const answer = await undici().request(call.url, {
      method: call.method as Dispatcher.HttpMethod,
      headers: call.headers.map(({ header, value }) => [header, value]).flat(),
      body: call.body ?? undefined,
      dispatcher,
      signal: deadline.signal,
    });
    const { bytes, truncated } = await readUpTo(answer.body, maxBytes);
    const status = answer.statusCode;
    const success = status >= 200 && status <= 299;
    const location = typeof answer.headers.location === 'string' ? answer.headers.location : null;
    return {
      outcome: success ? 'SUCCESS' : 'HTTP_ERROR',
      message: success
        ? null
        : `The far side answered ${status}${location && status >= 300 && status < 400 ? `, redirecting to ${location} (not followed)` : ''}`,
      answer: { status, headers: headerList(answer.headers), bytes, truncated },
    };
  } catch (error) {
    return { ...failureOf(error, call.url, deadline), answer: null };
  }
}

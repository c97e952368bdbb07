import { CHANGE_REASON_MAX_LENGTH, InvalidInputError, isUuid, VersionAuthor } from '@app/domain';
import { Caller, logAlongside } from '@app/platform';
import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request } from 'express';
import { TextDecoder } from 'node:util';

export const CHANGE_REASON_HEADER = 'Change-Reason';

/** Who writes, through which request, and why: what each version of the write records (docs/api-contract.md, "Support trail"). */
export interface Author {
  caller: Caller;
  requestId: string;
  reason: string | null;
  /** The promotion the write is part of (its apply or its revert); none for the other writes. */
  promotionId?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Control characters, and the line and paragraph separators (U+2028, U+2029): each would break the reason's one line. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
/** Bidirectional embeddings, overrides and isolates: they would make a reason read otherwise than it is written. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * The Change-Reason header, each of its field lines as sent (IncomingMessage.headersDistinct): none is no reason. Node
 * reads header bytes as Latin-1; they are decoded as UTF-8 (what clients send), trimmed, and refused (400 saying how to
 * send it) when the header comes more than once (joined, as Node joins them, the lines would be a reason nobody wrote),
 * not UTF-8, blank, longer than CHANGE_REASON_MAX_LENGTH characters, or holding a control character, a line or
 * paragraph separator, or a bidirectional control.
 */
export function changeReasonOf(lines: readonly string[] | undefined): string | null {
  if (lines === undefined) return null;
  if (lines.length > 1) throw new InvalidInputError([`${CHANGE_REASON_HEADER} must be sent once: give one reason in one header`]);
  const [raw] = lines;
  let text: string;
  try {
    text = utf8.decode(Buffer.from(raw, 'latin1')).trim();
  } catch {
    throw new InvalidInputError([`${CHANGE_REASON_HEADER} must be UTF-8 text`]);
  }
  const problems = [
    ...(text === '' ? [`${CHANGE_REASON_HEADER} must not be blank: leave the header out to give no reason`] : []),
    ...([...text].length > CHANGE_REASON_MAX_LENGTH ? [`${CHANGE_REASON_HEADER} must be at most ${CHANGE_REASON_MAX_LENGTH} characters`] : []),
    ...(CONTROL.test(text)
      ? [`${CHANGE_REASON_HEADER} must not hold control characters or line separators (line breaks, tabs, U+2028, U+2029): write it on one line`]
      : []),
    ...(BIDI_CONTROL.test(text) ? [`${CHANGE_REASON_HEADER} must not hold bidirectional control characters (U+202A to U+202E, U+2066 to U+2069)`] : []),
  ];
  if (problems.length > 0) throw new InvalidInputError(problems);
  return text;
}

/**
 * The author of a write: the verified caller (JwtAuthGuard), the request id (requestIdMiddleware) and the
 * Change-Reason header. The connector the path names goes on the access log line beside them, as the write's
 * records name it (lower case), and only when the path names one: this runs before the path is validated, and
 * any other text there (up to the size of the headers) is not a connector id.
 */
export const WriteAuthor = createParamDecorator((_: unknown, ctx: ExecutionContext): Author => {
  const req = ctx.switchToHttp().getRequest<Request>();
  if (!req.caller) throw new Error('WriteAuthor used on a public route');
  const reason = changeReasonOf(req.headersDistinct[CHANGE_REASON_HEADER.toLowerCase()]);
  const connectorId = req.params?.serviceUUID;
  if (isUuid(connectorId)) logAlongside(ctx.switchToHttp().getResponse(), { connectorId: connectorId.toLowerCase() });
  return { caller: req.caller, requestId: String(req.id), reason };
});

/** The header in the OpenAPI document of every write. */
export const ApiChangeReasonHeader = () =>
  applyDecorators(
    ApiHeader({
      name: CHANGE_REASON_HEADER,
      required: false,
      description:
        `Why this write is made, kept in the version it records and carried by its change event (\`reason\`): one line of UTF-8 text, at most ${CHANGE_REASON_MAX_LENGTH} characters. ` +
        'Leave it out for no reason.',
      schema: { type: 'string', maxLength: CHANGE_REASON_MAX_LENGTH },
    }),
  );

/** What the version of a write made now records of its author. */
export const versionAuthorOf = ({ caller, requestId, reason, promotionId }: Author, now: Date): VersionAuthor => ({
  updatedAt: now,
  updatedBy: caller.username,
  updatedByImage: caller.picture,
  updatedBySub: caller.sub,
  requestId,
  reason,
  promotionId: promotionId ?? null,
});

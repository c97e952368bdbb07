import { DomainError, RestConnector } from '@app/domain';
import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { maxHeaderSize } from 'node:http';

/** An answer and the ETag it goes with (the ETag header). */
export interface WithEtag<T> {
  body: T;
  etag: string;
}

/** The strong ETag of a connector's current state; every write bumps `version`. */
export function etagOf(connector: Pick<RestConnector, 'version'>): string {
  return `"v${connector.version}"`;
}

/** The If-Match request header of a conditional write, as the documents describe it; `description` says what it guards. */
export const ApiIfMatchHeader = (description: string) =>
  // No limit of its own: Node refuses (431) the headers of a request over maxHeaderSize in all.
  ApiHeader({ name: 'If-Match', required: false, description, schema: { type: 'string', maxLength: maxHeaderSize } });

/** The If-None-Match request header of a conditional read and its 304, as the documents describe them. */
export const ApiIfNoneMatch = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'An ETag this client holds (`"v3"`): 304 Not Modified while it is still the current one.',
      schema: { type: 'string', maxLength: maxHeaderSize },
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the ETag sent in If-None-Match is still the current one; no body.',
      headers: { ETag: { description: 'The current ETag', schema: { type: 'string' } } },
    }),
  );

/** An RFC 9110 entity-tag: quoted visible characters, `W/` for a weak one. */
const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7e]*"$/;

export class MalformedIfMatchException extends DomainError {
  constructor(header: string) {
    const shown = header.length > 60 ? `${header.slice(0, 60)}…` : header;
    super('INVALID_INPUT', `If-Match must be * or quoted ETags as a read answers them, such as "v4" (with the quotes); got ${JSON.stringify(shown)}`);
  }
}

/**
 * An If-Match header (RFC 9110): `*` or a comma-separated list of entity-tags. A write with one applies only to a
 * version it names (a weak tag never matches); a header that is neither is a 400, never a 412.
 */
export class IfMatch {
  private constructor(private readonly tags: readonly string[] | '*') {}

  /** Undefined without the header. */
  static from(header: string | undefined): IfMatch | undefined {
    if (header === undefined) return undefined;
    const list = header.split(',').map((candidate) => candidate.trim());
    if (list.length === 1 && list[0] === '*') return new IfMatch('*');
    if (list.some((candidate) => !ENTITY_TAG.test(candidate))) throw new MalformedIfMatchException(header);
    return new IfMatch(list);
  }

  accepts(etag: string): boolean {
    return this.tags === '*' || this.tags.includes(etag);
  }
}

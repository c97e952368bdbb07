import { ContentType } from '@app/domain';
import { parse as parseContentType } from 'content-type';

/** The connector's content type for a `Content-Type` value, and why it is not a perfect fit when it is not. */
export interface MatchedMediaType {
  contentType: ContentType;
  /** Set when the connector will send something else than the source said. */
  mismatch?: string;
}

/**
 * Matched by media type, parameters ignored (what n8n #22699 got wrong): `application/json; charset=utf-8` and
 * `application/vnd.api+json` are JSON, `text/xml` and `+xml` XML. A media type the connector has no content type for
 * becomes TEXT_PLAIN (the body is kept and sent as text/plain), with the reason: NONE would send no body at all.
 * A parameter other than charset=utf-8 (the connector's own encoding) is reported, since the connector drops it.
 */
export function matchMediaType(value: string): MatchedMediaType {
  const { type, parameters } = parsed(value);
  const contentType = contentTypeOf(type);
  if (contentType === undefined) {
    return { contentType: ContentType.TEXT_PLAIN, mismatch: `the connector has no content type for ${type.slice(0, 80)}: it sends the body as text/plain` };
  }
  const dropped = Object.entries(parameters).filter(([name, parameter]) => !(name === 'charset' && /^utf-?8$/i.test(parameter)));
  if (dropped.length > 0) {
    return {
      contentType,
      mismatch: `its parameters ${dropped.map(([name]) => name.slice(0, 40)).join(', ')} are dropped: the connector sends the bare media type`,
    };
  }
  return { contentType };
}

function parsed(value: string): { type: string; parameters: Record<string, string> } {
  try {
    return parseContentType(value);
  } catch {
    // Malformed parameters (`application/json;charset:utf-8;`, seen in the wild): the media type still decides.
    return { type: value.split(';')[0].trim().toLowerCase(), parameters: {} };
  }
}

function contentTypeOf(type: string): ContentType | undefined {
  if (type === 'application/json' || /^[a-z]+\/[^;]*\+json$/.test(type)) return ContentType.APPLICATION_JSON;
  if (type === 'application/xml' || type === 'text/xml' || /^[a-z]+\/[^;]*\+xml$/.test(type)) return ContentType.APPLICATION_XML;
  if (type === 'application/x-www-form-urlencoded') return ContentType.APPLICATION_FORM_URLENCODED;
  if (type === 'multipart/form-data') return ContentType.MULTIPART_FORM_DATA;
  if (type === 'text/plain') return ContentType.TEXT_PLAIN;
  return undefined;
}

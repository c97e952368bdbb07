import { ContentType, contentTypeOfMediaType, keptContentType } from '@app/domain';

/** The connector's content type for a `Content-Type` value, the header it keeps, and why it sends otherwise when it does. */
export interface MatchedMediaType {
  contentType: ContentType;
  /** The Content-Type header the connector keeps and sends as written (a vendor type, parameters): keptContentType. */
  header?: string;
  /** Set when the connector will send something else than the source said. */
  mismatch?: string;
}

/**
 * Matched by media type (what n8n #22699 got wrong): `application/json; charset=utf-8` and `application/vnd.api+json`
 * are JSON, `text/xml` and `+xml` XML, `text/csv` text (the domain's contentTypeOfMediaType), and the header is kept
 * as written unless it is the content type's own. A multipart type other than form-data, which no content type
 * sends, becomes TEXT_PLAIN (the body is kept, sent as text/plain), with the reason: NONE would send no body at all.
 * A value whose parameters cannot be read (`application/json;charset:utf-8;`, seen in the wild) is matched by its
 * media type alone, which is what the connector sends.
 */
export function matchMediaType(value: string): MatchedMediaType {
  const contentType = contentTypeOfMediaType(value);
  if (contentType !== null) {
    const header = keptContentType(contentType, value);
    return header === undefined ? { contentType } : { contentType, header };
  }
  const bare = value.split(';')[0].trim().toLowerCase();
  const byType = contentTypeOfMediaType(bare);
  if (byType !== null) {
    return { contentType: byType, mismatch: `its parameters cannot be read: the connector sends ${keptContentType(byType, bare) ?? 'the bare media type'}` };
  }
  return { contentType: ContentType.TEXT_PLAIN, mismatch: `the connector has no content type for ${bare.slice(0, 80)}: it sends the body as text/plain` };
}

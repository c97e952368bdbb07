import { parse as parseMediaType } from 'content-type';
import { ContentType, MEDIA_TYPES } from './rest-connector.enums';

/**
 * A JSON media type, parameters allowed: `application/json` and every `+json` one (`application/json-patch+json`,
 * `application/merge-patch+json`, `application/vnd.api+json`, `application/problem+json`).
 */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const XML_ESSENCE = /^(?:application\/xml|text\/xml|[\w.-]+\/[\w.-]+\+xml)$/;

/** The media type of a Content-Type value, lower case and without its parameters; null when the value is not a media type. */
export function mediaTypeEssence(value: string): string | null {
  try {
    return parseMediaType(value).type;
  } catch {
    return null;
  }
}

/**
 * The media types a connector's own `Content-Type` header may declare with each `contentType`, in words (a write's
 * 400 says them). NONE sends no body, so no Content-Type fits it.
 */
export const FITTING_MEDIA_TYPES: Readonly<Record<ContentType, string>> = {
  [ContentType.NONE]: 'none: NONE sends no body, so the connector declares no Content-Type',
  [ContentType.APPLICATION_JSON]: 'application/json and every +json type (application/json-patch+json, application/merge-patch+json, application/vnd.api+json)',
  [ContentType.APPLICATION_FORM_URLENCODED]: 'application/x-www-form-urlencoded',
  [ContentType.MULTIPART_FORM_DATA]: 'multipart/form-data (the platform adds the boundary)',
  [ContentType.TEXT_PLAIN]: 'any media type that is not JSON, form-urlencoded or multipart (text/plain, text/csv, text/html, …)',
  [ContentType.APPLICATION_XML]: 'any media type that is not JSON, form-urlencoded or multipart (application/xml, text/xml, application/soap+xml, …)',
};

/**
 * Whether a connector's own Content-Type fits its `contentType` (the one rule of writes, test runs and imports):
 * APPLICATION_JSON takes the JSON family, APPLICATION_FORM_URLENCODED `application/x-www-form-urlencoded`,
 * MULTIPART_FORM_DATA `multipart/form-data` (its boundary is the platform's), TEXT_PLAIN and APPLICATION_XML any
 * other type but multipart; NONE none. A value that is not a media type fits nothing.
 */
export function declaredTypeFits(contentType: ContentType, value: string): boolean {
  const declared = contentTypeOfMediaType(value);
  return declared !== null && contentType !== ContentType.NONE && textual(declared) === textual(contentType);
}

/** TEXT_PLAIN and APPLICATION_XML take the same media types: compared as one. */
function textual(contentType: ContentType): ContentType {
  return contentType === ContentType.APPLICATION_XML ? ContentType.TEXT_PLAIN : contentType;
}

/**
 * The content type a declared media type is sent with (parameters ignored), for an importer: the JSON family
 * APPLICATION_JSON, the form types theirs, `application/xml`, `text/xml` and `+xml` APPLICATION_XML, any other
 * TEXT_PLAIN (`text/csv`, `application/octet-stream`, sent as written); null for another multipart type or a value
 * that is not a media type, which no content type sends.
 */
export function contentTypeOfMediaType(value: string): Exclude<ContentType, ContentType.NONE> | null {
  const essence = mediaTypeEssence(value);
  if (essence === null) return null;
  if (JSON_MEDIA_TYPE.test(essence)) return ContentType.APPLICATION_JSON;
  if (essence === MEDIA_TYPES.APPLICATION_FORM_URLENCODED) return ContentType.APPLICATION_FORM_URLENCODED;
  if (essence === MEDIA_TYPES.MULTIPART_FORM_DATA) return ContentType.MULTIPART_FORM_DATA;
  if (essence.startsWith('multipart/')) return null;
  return XML_ESSENCE.test(essence) ? ContentType.APPLICATION_XML : ContentType.TEXT_PLAIN;
}

/**
 * The Content-Type header an importer keeps for a declared media type sent with `contentType`: the value as written,
 * unless it is the content type's own media type (what the connector sends without a header) or a multipart one (the
 * platform writes multipart's, with its boundary).
 */
export function keptContentType(contentType: ContentType, value: string): string | undefined {
  if (contentType === ContentType.NONE || contentType === ContentType.MULTIPART_FORM_DATA) return undefined;
  return value.trim().toLowerCase() === MEDIA_TYPES[contentType] ? undefined : value.trim();
}

/** A write's problems with the connector's Content-Type headers: one that does not fit `contentType` (declaredTypeFits), or a second one. */
export function contentTypeHeaderProblems(contentType: ContentType, headers: ReadonlyArray<{ header: string; value: string }>): string[] {
  const declared = headers.flatMap(({ header, value }, index) => (/^content-type$/i.test(header) ? [{ value, index }] : []));
  const problems = declared
    .filter(({ value }) => !declaredTypeFits(contentType, value))
    .map(
      ({ value, index }) =>
        `headers.${index} Content-Type ${JSON.stringify(value.slice(0, 100))} does not fit contentType ${contentType}; ` +
        `the Content-Type that fits it: ${FITTING_MEDIA_TYPES[contentType]}`,
    );
  if (declared.length > 1) problems.push(`headers.${declared[1].index} is a second Content-Type header: a connector declares one`);
  return problems;
}

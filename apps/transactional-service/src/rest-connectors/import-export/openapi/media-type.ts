import { ContentType } from '@app/domain';

/** The essence of a media type (`type/subtype`, lower case): parameters such as `charset` do not change it. */
export function essenceOf(mediaType: string): string {
  return mediaType.split(';')[0].trim().toLowerCase();
}

/** The connector content type for a media type, or undefined when none fits. */
export function contentTypeOf(mediaType: string): ContentType | undefined {
  const essence = essenceOf(mediaType);
  if (essence === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.-]+\+json$/.test(essence)) return ContentType.APPLICATION_JSON;
  if (essence === 'application/xml' || essence === 'text/xml' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.-]+\+xml$/.test(essence))
    return ContentType.APPLICATION_XML;
  return CONTENT_TYPES.get(essence);
}

const CONTENT_TYPES = new Map([
  ['application/x-www-form-urlencoded', ContentType.APPLICATION_FORM_URLENCODED],
  ['multipart/form-data', ContentType.MULTIPART_FORM_DATA],
  ['text/plain', ContentType.TEXT_PLAIN],
]);

import { ContentType, contentTypeOfMediaType, keptContentType, mediaTypeEssence } from '@app/domain';
import { ImportWarning } from '../connector-draft';
import { multipartParts } from './multipart-body';
import { skeletonOf } from './schema-skeleton';
import { shownUrl } from './server-userinfo';
import { JsonRecord, arrayOrEmpty, entriesOf, has, isRecord, recordOrEmpty, stringOrUndefined, unresolvedRef } from './values';
import { warning } from './warnings';

const MAX_BODY = 65_536;

export interface BodyPart {
  contentType: ContentType;
  body: string;
  /** The declared media type as the connector's Content-Type header, when it is not its content type's own (keptContentType). */
  contentTypeHeader?: { header: string; value: string };
}

/**
 * The request body: the first media type (in the document's order) a connector content type is named for (JSON and
 * `+json`, XML and `+xml`, the form types, text/plain), else the first one; its content type by the domain's rule
 * (contentTypeOfMediaType: `text/csv` is TEXT_PLAIN), the declared type kept as the Content-Type header, sent as
 * written. Its body from `example`, the first of `examples`, the schema's example, else a skeleton of the schema (a
 * multipart body's parts from its fields: multipartParts).
 * Nothing is fetched: an `externalValue` example is named in a warning.
 */
export function bodyOf(operation: JsonRecord, where: string, warnings: ImportWarning[]): BodyPart {
  const media = entriesOf(recordOrEmpty(operation.requestBody).content);
  if (media.length === 0) return { contentType: ContentType.NONE, body: '' };
  const chosen = media.find(([type]) => isNamedFor(type)) ?? media[0];
  const [mediaType, content] = chosen;
  const others = media.filter((entry) => entry !== chosen).map(([type]) => type);
  if (others.length)
    warnings.push(warning('OTHER_MEDIA_TYPES', where, `the body is sent as ${mediaType}; the API also takes ${others.slice(0, 5).join(', ')}`));
  const fitting = contentTypeOfMediaType(mediaType);
  const contentType = fitting ?? unsupported(mediaType, where, warnings);
  const body = cappedBody(bodyText(contentType, recordOrEmpty(content), where, warnings), where, warnings);
  const declared = fitting === null ? undefined : keptContentType(fitting, mediaType);
  return { contentType, body, ...(declared !== undefined && { contentTypeHeader: { header: 'Content-Type', value: declared } }) };
}

/** A media type a content type is named for, rather than one TEXT_PLAIN takes as any other. */
function isNamedFor(mediaType: string): boolean {
  const contentType = contentTypeOfMediaType(mediaType);
  return contentType !== null && (contentType !== ContentType.TEXT_PLAIN || mediaTypeEssence(mediaType) === 'text/plain');
}

function unsupported(mediaType: string, where: string, warnings: ImportWarning[]): ContentType {
  warnings.push(
    warning(
      'UNSUPPORTED_MEDIA_TYPE',
      where,
      `${mediaType.slice(0, 100)} is a media type no connector content type sends: the body is sent as text/plain (edit the connector if the API needs more)`,
    ),
  );
  return ContentType.TEXT_PLAIN;
}

function bodyText(contentType: ContentType, content: JsonRecord, where: string, warnings: ImportWarning[]): string {
  const example = exampleOf(content, where, warnings);
  if (contentType === ContentType.MULTIPART_FORM_DATA) return multipartParts(content, example, where, warnings) ?? '';
  if (example.found) return rendered(contentType, example.value, where, warnings);
  // A schema left as an external `$ref` says nothing of the body's shape.
  const schemaKnown = isRecord(content.schema) && unresolvedRef(content.schema) === undefined;
  if (!schemaKnown || contentType === ContentType.APPLICATION_XML) {
    warnings.push(
      warning('BODY_LEFT_EMPTY', where, 'the document gives no example of the body, and no skeleton can be written in its media type: write the body'),
    );
    return '';
  }
  warnings.push(warning('BODY_GENERATED', where, 'the document gives no example of the body: it is a skeleton made from the schema, to be filled in'));
  return rendered(contentType, skeletonOf(content.schema), where, warnings);
}

function exampleOf(content: JsonRecord, where: string, warnings: ImportWarning[]): { found: boolean; value?: unknown } {
  if (has(content, 'example')) return { found: true, value: content.example };
  for (const [name, example] of entriesOf(content.examples)) {
    const record = recordOrEmpty(example);
    if (has(record, 'value')) return { found: true, value: record.value };
    if (typeof record.externalValue === 'string') {
      warnings.push(
        warning(
          'EXTERNAL_EXAMPLE',
          where,
          `the example ${name.slice(0, 100)} is at ${shownUrl(record.externalValue).slice(0, 200)}, which an import never fetches`,
        ),
      );
    }
  }
  const schema = recordOrEmpty(content.schema);
  if (has(schema, 'example')) return { found: true, value: schema.example };
  const [first] = arrayOrEmpty(schema.examples);
  return first !== undefined ? { found: true, value: first } : { found: false };
}

/** A string example is the body as it is written (JSON text included); other values are serialised. */
function rendered(contentType: ContentType, value: unknown, where: string, warnings: ImportWarning[]): string {
  if (typeof value === 'string') return value;
  if (contentType === ContentType.APPLICATION_JSON) return jsonText(value, where, warnings);
  if (contentType === ContentType.APPLICATION_FORM_URLENCODED && isRecord(value)) return formText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  warnings.push(warning('BODY_LEFT_EMPTY', where, 'the example is structured data, which this media type cannot carry as written: write the body'));
  return '';
}

function jsonText(value: unknown, where: string, warnings: ImportWarning[]): string {
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    // A `$ref` inside an example was dereferenced into a cycle: no JSON text can hold it.
    warnings.push(warning('BODY_LEFT_EMPTY', where, 'the example refers to itself (a recursive $ref): write the body'));
    return '';
  }
}

function formText(value: JsonRecord): string {
  const form = new URLSearchParams();
  for (const [name, field] of Object.entries(value)) {
    form.append(name, typeof field === 'string' ? field : (stringOrUndefined(safeJson(field)) ?? ''));
  }
  return form.toString();
}

function safeJson(value: unknown): string | undefined {
  try {
    return value === null || value === undefined ? '' : JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function cappedBody(body: string, where: string, warnings: ImportWarning[]): string {
  if (body.length <= MAX_BODY) return body;
  warnings.push(
    warning('BODY_TOO_LARGE', where, `the example is ${body.length} characters, over the ${MAX_BODY} a connector body holds: the body is left empty`),
  );
  return '';
}

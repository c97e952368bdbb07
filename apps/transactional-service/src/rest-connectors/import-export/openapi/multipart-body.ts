import { multipartBody, MULTIPART_LIMITS, MultipartPart, readMultipartParts } from '@app/domain';
import { ImportWarning } from '../connector-draft';
import { skeletonOf } from './schema-skeleton';
import { JsonRecord, entriesOf, has, isRecord, recordOrEmpty, stringOrUndefined } from './values';
import { warning } from './warnings';

/** Where an export writes a multipart body's parts exactly, in its media type object (exportOpenApi). */
export const X_CONNECTOR_PARTS = 'x-connector-parts';

/** A file in a form schema: `format: binary` (OpenAPI 3.0), a `contentMediaType` (3.1), Swagger 2's `type: file`; or an array of one. */
function isFile(schema: JsonRecord): boolean {
  if (schema.type === 'array' && isRecord(schema.items)) return isFile(schema.items);
  return schema.format === 'binary' || schema.type === 'file' || typeof schema.contentMediaType === 'string';
}

/** A property's value as a part's text: a string as it is, anything else as JSON (how a client sends a structured field). */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/**
 * A multipart/form-data request body as the connector's parts: those an export wrote (X_CONNECTOR_PARTS), else one per property of the schema (an object example's
 * members first, in its order, for the values), a file property (isFile) a file part named by the property with an
 * empty value, the `encoding` object's `contentType` kept (its first type when it lists several). Null, said in a
 * warning, when they give no parts a connector can hold: the body is left empty then.
 */
export function multipartParts(content: JsonRecord, example: { found: boolean; value?: unknown }, where: string, warnings: ImportWarning[]): string | null {
  if (Array.isArray(content[X_CONNECTOR_PARTS])) {
    const exported = readMultipartParts(JSON.stringify(content[X_CONNECTOR_PARTS]));
    if ('parts' in exported) return multipartBody(exported.parts);
    warnings.push(
      warning('BODY_GENERATED', where, `${X_CONNECTOR_PARTS} is not a connector's parts (${exported.problems[0]}): the parts are read from the schema`),
    );
  }
  const properties = new Map(entriesOf(recordOrEmpty(content.schema).properties).map(([name, schema]) => [name, recordOrEmpty(schema)]));
  const given = example.found && isRecord(example.value) ? example.value : undefined;
  if (example.found && given === undefined) {
    warnings.push(warning('BODY_LEFT_EMPTY', where, 'the example of the multipart body is not an object of its fields: write the parts'));
    return null;
  }
  const names = [...new Set([...Object.keys(given ?? {}), ...properties.keys()])].filter((name) => name !== '');
  if (names.length === 0) {
    warnings.push(warning('BODY_LEFT_EMPTY', where, 'the document names no field of the multipart body: write the parts'));
    return null;
  }
  const encoding = recordOrEmpty(content.encoding);
  const files: string[] = [];
  const parts = names.slice(0, MULTIPART_LIMITS.parts).map((name): MultipartPart => {
    const schema = properties.get(name) ?? {};
    const declared = stringOrUndefined(recordOrEmpty(encoding[name]).contentType)?.split(',')[0].trim();
    const typed = declared ? { contentType: declared } : {};
    const value = given !== undefined && has(given, name) ? asText(given[name]) : undefined;
    if (isFile(schema)) {
      if (value === undefined || value === '') files.push(name);
      return { name, value: value ?? '', filename: name, ...typed };
    }
    return { name, value: value ?? asText(skeletonOf(schema)), ...typed };
  });
  const text = multipartBody(parts);
  const reading = readMultipartParts(text);
  if ('problems' in reading) {
    warnings.push(warning('BODY_LEFT_EMPTY', where, `the form's fields cannot be a connector's parts (${reading.problems[0]}): write the parts`));
    return null;
  }
  const notes = [
    ...(names.length > MULTIPART_LIMITS.parts
      ? [`the form has ${names.length} fields: the first ${MULTIPART_LIMITS.parts} are kept, as many as a body holds`]
      : []),
    ...(given === undefined ? ["the document gives no example of the form: its parts are made from the schema's fields, to be filled in"] : []),
    ...(files.length > 0
      ? [`the file parts ${files.slice(0, 5).join(', ').slice(0, 200)} have an empty value: write their content (value, or base64 for bytes)`]
      : []),
  ];
  if (notes.length > 0) warnings.push(warning('BODY_GENERATED', where, notes.join('; ')));
  return text;
}

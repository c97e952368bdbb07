import { ContentType, contentTypeOfMediaType, keptContentType, MEDIA_TYPES, multipartBody, MultipartPart, readMultipartParts } from '@app/domain';
import stripJsonComments from 'strip-json-comments';
import { Header } from './headers';
import { JsonNode } from './postman-json';
import { leadingName } from '../quoted-list';
import { Warnings } from './warnings';
import { encodedOutsideVariables } from './variables';

/** The Content-Type Postman's runtime sends for a raw body's `options.raw.language` when no header says one (postman-runtime's core-body-builder). */
const LANGUAGE_MEDIA_TYPES: ReadonlyMap<string, string> = new Map([
  ['json', 'application/json'],
  ['xml', 'application/xml'],
  ['text', 'text/plain'],
  ['html', 'text/html'],
  ['javascript', 'application/javascript'],
]);

/** A form's text percent-encoded (UTF-8; well-formed text only), every `{{variable}}` left as it is: it is filled in when the connector runs. */
export function formEncode(text: string): string {
  return encodedOutsideVariables(text, encodeURIComponent);
}

/** A form field's key or value, as text that can be encoded. */
function fieldText(field: JsonNode, key: string): string {
  const text = field.text(key) ?? '';
  if (!text.isWellFormed()) throw field.fail(`${field.pathOf(key)} must not contain a lone UTF-16 surrogate`);
  return text;
}

/** What a body mode gives: the text, and the media type it sends when no header names one. */
interface ModeContent {
  text: string;
  mediaType?: string;
}

type ModeReader = (body: JsonNode, warnings: Warnings) => ModeContent;

const raw: ModeReader = (body) => {
  const text = body.string('raw') ?? '';
  const language = body.object('options')?.object('raw')?.string('language');
  // Postman sends an empty raw body as no body; a filled one without a language as text/plain.
  if (language === undefined) return { text, mediaType: text === '' ? undefined : 'text/plain' };
  return { text, mediaType: LANGUAGE_MEDIA_TYPES.get(language) ?? 'text/plain' };
};

/** The enabled fields of a urlencoded or formdata body (disabled ones warned about, as Postman does not send them). */
function enabledFields(body: JsonNode, mode: string, warnings: Warnings): JsonNode[] {
  return body.objects(mode).filter((field) => {
    if (!field.flag('disabled')) return true;
    warnings.add(
      'DISABLED_SKIPPED',
      body.where,
      `The disabled form field ${JSON.stringify(leadingName(field.string('key') ?? ''))} is not sent by Postman: left out.`,
    );
    return false;
  });
}

/** The enabled text fields of a urlencoded body as `key=value&…`; file fields and fields' content types warned about. */
function urlencodedFields(body: JsonNode, warnings: Warnings): string {
  return enabledFields(body, 'urlencoded', warnings)
    .filter((field) => {
      const key = JSON.stringify(leadingName(field.string('key') ?? ''));
      if (field.string('type') === 'file') {
        warnings.add('FILE_NOT_IMPORTED', body.where, `The file form field ${key} is left out: an import never reads a file.`);
        return false;
      }
      if (field.string('contentType')) warnings.add('BODY_NOT_IMPORTED', body.where, `The form field ${key} has a content type of its own: not imported.`);
      return true;
    })
    .map((field) => `${formEncode(fieldText(field, 'key'))}=${formEncode(fieldText(field, 'value'))}`)
    .join('&');
}

/** Where an export keeps a file part's bytes in a form data field (Postman leaves it aside; exportPostman). */
export const X_BASE64 = 'x-base64';

/**
 * A formdata body's enabled fields as multipart parts, as Postman sends them: a text field its value (and its own
 * content type), a file field one part per file of its `src`, named by the path's last segment. An import never reads
 * a file: a file field's content is the `x-base64` bytes or the text `value` an export wrote, else an empty value
 * (FILE_NOT_IMPORTED says to fill it in).
 */
function formdataParts(body: JsonNode, warnings: Warnings): string {
  const parts = enabledFields(body, 'formdata', warnings).flatMap((field): MultipartPart[] => {
    const name = fieldText(field, 'key');
    if (name === '') {
      warnings.add('BODY_NOT_IMPORTED', body.where, 'A form data field without a key is left out: every part of a connector has a name.');
      return [];
    }
    const contentType = field.string('contentType') || undefined;
    const typed = contentType === undefined ? {} : { contentType };
    if (field.string('type') !== 'file') return [{ name, value: fieldText(field, 'value'), ...typed }];
    const src = field.member('src');
    const paths = (Array.isArray(src) ? src : [src]).filter((path): path is string => typeof path === 'string' && path !== '');
    const filename = paths.length === 1 ? { filename: paths[0].split(/[/\\]/).pop()! } : {};
    const base64 = field.string(X_BASE64);
    if (base64 !== undefined) return [{ name, base64, ...filename, ...typed }];
    // Postman's own file fields hold no text (`value` absent, null or another type): only an export's does.
    const value = field.member('value');
    if (typeof value === 'string' && value !== '') return [{ name, value, ...filename, ...typed }];
    warnings.add(
      'FILE_NOT_IMPORTED',
      body.where,
      `The file form field ${JSON.stringify(leadingName(name))} is kept with an empty value: an import never reads a file; write its content (value, or base64 for bytes).`,
    );
    const filenames = paths.length === 0 ? [undefined] : paths.map((path) => path.split(/[/\\]/).pop()!);
    return filenames.map((filename) => ({ name, value: '', ...(filename !== undefined && { filename }), ...typed }));
  });
  const text = multipartBody(parts);
  const reading = readMultipartParts(text);
  if ('problems' in reading) throw body.fail(`${body.pathOf('formdata')} cannot be a connector's parts: ${reading.problems[0]}`);
  return text;
}

/** A GraphQL body as Postman's runtime writes it: `variables` text is put in as written, an object as JSON. */
const graphql: ModeReader = (body) => {
  const content = body.object('graphql');
  const query = content?.string('query');
  const operationName = content?.string('operationName');
  const variables = content?.member('variables');
  if (typeof variables !== 'string') {
    try {
      return { text: JSON.stringify({ query, operationName, variables }), mediaType: 'application/json' };
    } catch {
      // Only a stack overflow: JSON.parse's values are plain.
      throw body.fail(`${body.pathOf('graphql.variables')} nests too deeply`);
    }
  }
  const members = [
    ...(query === undefined ? [] : [`"query":${JSON.stringify(query)}`]),
    ...(operationName === undefined ? [] : [`"operationName":${JSON.stringify(operationName)}`]),
    ...(variables === '' ? [] : [`"variables":${variables}`]),
  ];
  return { text: `{${members.join(',')}}`, mediaType: 'application/json' };
};

const MODES: ReadonlyMap<string, ModeReader> = new Map<string, ModeReader>([
  ['raw', raw],
  ['urlencoded', (body, warnings) => ({ text: urlencodedFields(body, warnings), mediaType: MEDIA_TYPES.APPLICATION_FORM_URLENCODED })],
  ['formdata', (body, warnings) => ({ text: formdataParts(body, warnings), mediaType: MEDIA_TYPES.MULTIPART_FORM_DATA })],
  ['graphql', graphql],
  [
    'file',
    (body, warnings) => {
      warnings.add('FILE_NOT_IMPORTED', body.where, 'The body is a file: left out, an import never reads a file.');
      return { text: '' };
    },
  ],
]);

function modeContent(body: JsonNode | undefined, warnings: Warnings): ModeContent {
  const mode = body?.string('mode');
  if (body === undefined || mode === undefined) return { text: '' };
  const reader = MODES.get(mode);
  if (reader !== undefined) return reader(body, warnings);
  warnings.add(
    'BODY_NOT_IMPORTED',
    body.where,
    `The body's mode ${JSON.stringify(mode).slice(0, 40)} is none of Postman's (raw, urlencoded, formdata, graphql, file): left out.`,
  );
  return { text: '' };
}

export interface BodyDraft {
  contentType: ContentType;
  body: string;
  /** The declared media type when it is not the content type's own (a vendor's, parameters): kept, and sent as written (keptContentType). */
  header?: Header;
}

/**
 * The content type a media type gives (the domain's contentTypeOfMediaType: `text/html` and `text/csv` are TEXT_PLAIN,
 * sent with their own Content-Type); one no content type sends (`multipart/mixed`, a `{{variable}}`) is TEXT_PLAIN
 * sent as text/plain, its header left out and warned about.
 */
function typed(mediaType: string | undefined, text: string, where: string, warnings: Warnings): BodyDraft {
  if (mediaType === undefined) return { contentType: ContentType.NONE, body: text };
  const contentType = contentTypeOfMediaType(mediaType);
  if (contentType === null) {
    warnings.add(
      'CONTENT_TYPE_UNSUPPORTED',
      where,
      `The media type ${JSON.stringify(mediaType.slice(0, 100))} is none a connector sends: imported as TEXT_PLAIN, sent as text/plain; the Content-Type header is left out.`,
    );
    return { contentType: ContentType.TEXT_PLAIN, body: text };
  }
  const header = keptContentType(contentType, mediaType);
  return { contentType, body: text, ...(header === undefined ? {} : { header: { header: 'Content-Type', value: header } }) };
}

/** A JSON body without comments, which Postman's runtime strips before sending (with strip-json-comments 3.1.1, as here). */
function withoutComments(draft: BodyDraft, where: string, warnings: Warnings): BodyDraft {
  if (draft.contentType !== ContentType.APPLICATION_JSON || !/\/\/|\/\*/.test(draft.body)) return draft;
  const stripped = stripJsonComments(draft.body, { whitespace: false });
  if (stripped !== draft.body) warnings.add('JSON_COMMENTS_REMOVED', where, 'The JSON body had comments: removed, as Postman removes them before sending.');
  return { ...draft, body: stripped };
}

/** A multipart body holds parts: a text body a multipart Content-Type header declares (a raw one) is left out, said so. */
function onlyParts(draft: BodyDraft, where: string, warnings: Warnings): BodyDraft {
  if (draft.contentType !== ContentType.MULTIPART_FORM_DATA || !('problems' in readMultipartParts(draft.body))) return draft;
  warnings.add('BODY_NOT_IMPORTED', where, 'The body is multipart/form-data written as text, not form data fields: left out; write its parts.');
  return { ...draft, body: '' };
}

/**
 * The request's body and content type: the Content-Type header decides when there is one (Postman sends it),
 * else the body mode (a raw body's language). A disabled body is kept, with NONE: Postman sends none.
 */
export function bodyOf(request: JsonNode, contentTypeHeader: string | undefined, warnings: Warnings): BodyDraft {
  const body = request.object('body');
  const content = modeContent(body, warnings);
  const draft = typed(contentTypeHeader ?? content.mediaType, content.text, request.where, warnings);
  const isRaw = body?.string('mode') === 'raw';
  const result = onlyParts(isRaw ? withoutComments(draft, request.where, warnings) : draft, request.where, warnings);
  if (!body?.flag('disabled')) return result;
  const header = result.header === undefined ? '' : ' Its Content-Type header is left out: a connector without a body declares no media type.';
  warnings.add('DISABLED_SKIPPED', request.where, `The body is disabled, so Postman sends none: kept, with content type NONE.${header}`);
  return { contentType: ContentType.NONE, body: result.body };
}

import { ContentType, contentTypeOfMediaType, keptContentType, MEDIA_TYPES } from '@app/domain';
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

/** The enabled text fields of a urlencoded or formdata body as `key=value&…`; file fields and disabled ones warned about. */
function formFields(body: JsonNode, mode: string, warnings: Warnings): string {
  return body
    .objects(mode)
    .filter((field) => {
      const key = JSON.stringify(leadingName(field.string('key') ?? ''));
      if (field.flag('disabled')) warnings.add('DISABLED_SKIPPED', body.where, `The disabled form field ${key} is not sent by Postman: left out.`);
      else if (field.string('type') === 'file')
        warnings.add('FILE_NOT_IMPORTED', body.where, `The file form field ${key} is left out: an import never reads a file.`);
      else {
        if (field.string('contentType')) warnings.add('BODY_NOT_IMPORTED', body.where, `The form field ${key} has a content type of its own: not imported.`);
        return true;
      }
      return false;
    })
    .map((field) => `${formEncode(fieldText(field, 'key'))}=${formEncode(fieldText(field, 'value'))}`)
    .join('&');
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
  ['urlencoded', (body, warnings) => ({ text: formFields(body, 'urlencoded', warnings), mediaType: MEDIA_TYPES.APPLICATION_FORM_URLENCODED })],
  ['formdata', (body, warnings) => ({ text: formFields(body, 'formdata', warnings), mediaType: MEDIA_TYPES.MULTIPART_FORM_DATA })],
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

/**
 * The request's body and content type: the Content-Type header decides when there is one (Postman sends it),
 * else the body mode (a raw body's language). A disabled body is kept, with NONE: Postman sends none.
 */
export function bodyOf(request: JsonNode, contentTypeHeader: string | undefined, warnings: Warnings): BodyDraft {
  const body = request.object('body');
  const content = modeContent(body, warnings);
  const draft = typed(contentTypeHeader ?? content.mediaType, content.text, request.where, warnings);
  const isRaw = body?.string('mode') === 'raw';
  const result = isRaw ? withoutComments(draft, request.where, warnings) : draft;
  if (!body?.flag('disabled')) return result;
  const header = result.header === undefined ? '' : ' Its Content-Type header is left out: a connector without a body declares no media type.';
  warnings.add('DISABLED_SKIPPED', request.where, `The body is disabled, so Postman sends none: kept, with content type NONE.${header}`);
  return { contentType: ContentType.NONE, body: result.body };
}

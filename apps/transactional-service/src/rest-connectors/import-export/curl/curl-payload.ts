import { MultipartPart } from '@app/domain';
import { ImportSourceError } from '../connector-draft';
import { ImportWarnings } from '../import-warnings';
import { CurlOption } from './curl-arguments';
import { formPart } from './curl-form';
import { fileNotRead } from './curl-settings';

/** What the data options of a group send, before -G decides between body and query. */
export interface CurlPayload {
  /** -d, --data-*, --json pieces joined as curl joins them; null when there are none. */
  data: string | null;
  /** --json was used: curl sends `Content-Type: application/json` and `Accept: application/json`. */
  json: boolean;
  /** -F / --form-string parts, in order; null without either. */
  multipart: MultipartPart[] | null;
  /** -T files, in order: curl pairs each with a URL, in order, and uploads it with PUT. */
  uploads: string[];
  /** --url-query parts, each already encoded. */
  urlQuery: string[];
}

const FILE_READING = new Set(['data', 'data-ascii', 'data-binary', 'json']);

/**
 * curl's rules (tool_getparam.c): -d, --data-ascii, --data-binary and --json read a file after `@` (never done here:
 * FILE_NOT_READ); --data-raw never does; pieces are joined with `&`, and --json pieces to each other with nothing.
 * --data-urlencode and --url-query encode as curl does (urlEncodedPiece).
 */
export function readPayload(payload: CurlOption[], warnings: ImportWarnings, files: ReadonlyMap<string, string> = new Map()): CurlPayload {
  const pieces: Array<{ text: string; json: boolean }> = [];
  const parts: MultipartPart[] = [];
  const result: CurlPayload = { data: null, json: false, multipart: null, uploads: [], urlQuery: [] };
  for (const option of payload) {
    const value = option.value ?? '';
    if (option.name === 'upload-file') {
      result.uploads.push(value);
      warnings.push(fileNotRead(option, `${option.written} ${value.slice(0, 60)} uploads a file (curl sends it with PUT)`));
    } else if (option.name === 'form' || option.name === 'form-string') {
      parts.push(formPart(option, warnings, files));
    } else if (option.name === 'url-query') {
      const part = value.startsWith('+') ? value.slice(1) : urlEncodedPiece(option, warnings);
      if (part !== null) result.urlQuery.push(part);
    } else {
      const text = dataPiece(option, warnings);
      if (text !== null) pieces.push({ text, json: option.name === 'json' });
    }
  }
  result.json = payload.some((option) => option.name === 'json');
  // A data option that reads a file still makes curl POST a (form) body: data is '' then, not null.
  result.data = !payload.some(isData)
    ? null
    : pieces.map((piece, index) => (index > 0 && !(piece.json && pieces[index - 1].json) ? '&' : '') + piece.text).join('');
  result.multipart = payload.some(isForm) ? parts : null;
  refuseMixedMethods(payload, result);
  return result;
}

/** curl refuses to send a form, data and an upload in one request ("You can only select one HTTP request method!"). */
function refuseMixedMethods(payload: CurlOption[], result: CurlPayload): void {
  const kinds = [result.data !== null && 'data (-d, --json)', result.multipart !== null && 'a form (-F)', result.uploads.length > 0 && 'an upload (-T)'].filter(
    Boolean,
  );
  if (kinds.length > 1) {
    throw new ImportSourceError(`line ${payload[0].line}`, `${kinds.join(' and ')} together: curl refuses to send them in one request; keep one`);
  }
}

function isData(option: CurlOption): boolean {
  return option.name.startsWith('data') || option.name === 'json';
}

function isForm(option: CurlOption): boolean {
  return option.name === 'form' || option.name === 'form-string';
}

function dataPiece(option: CurlOption, warnings: ImportWarnings): string | null {
  const value = option.value ?? '';
  if (option.name === 'data-urlencode') return urlEncodedPiece(option, warnings);
  if (FILE_READING.has(option.name) && value.startsWith('@')) {
    warnings.push(fileNotRead(option, `${option.written} ${value.slice(0, 60)} reads its data from ${value === '@-' ? 'standard input' : 'a file'}`));
    return null;
  }
  return value;
}

/**
 * `--data-urlencode` (and `--url-query`) as curl reads it: up to the first `=` is a name left as written and the rest
 * is encoded (`name=value`, `=value`); without `=`, up to the first `@` names a file (`name@file`, `@file`); else the
 * whole is encoded. curl encodes every byte but `A-Z a-z 0-9 - . _ ~` as %XX (curl_easy_escape: a space is %20).
 */
export function urlEncodedPiece(option: CurlOption, warnings: ImportWarnings): string | null {
  const value = option.value ?? '';
  const equals = value.indexOf('=');
  const separator = equals >= 0 ? equals : value.indexOf('@');
  if (separator >= 0 && value[separator] === '@') {
    warnings.push(fileNotRead(option, `${option.written} ${value.slice(0, 60)} encodes the content of a file`));
    return null;
  }
  if (separator < 0) return curlEscape(value);
  const name = value.slice(0, separator);
  const content = curlEscape(value.slice(separator + 1));
  return name === '' ? content : `${name}=${content}`;
}

/** curl_easy_escape: UTF-8 bytes, unreserved characters kept, the rest %XX in upper case. */
export function curlEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

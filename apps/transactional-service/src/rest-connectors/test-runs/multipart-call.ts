import { MultipartPart } from '@app/domain';
import { Blob, File } from 'node:buffer';
import { undiciForms } from './undici';

/** A part as a test run's answer shows it: its text value, never a file's bytes. */
export interface ShownPart {
  name: string;
  filename: string | null;
  /** The part's Content-Type as sent; null for a text field, which has none. */
  contentType: string | null;
  /** The part's content in bytes as sent. */
  sizeBytes: number;
  /** A `value` part's text as sent, variables filled; absent for `base64`. */
  value?: string;
}

/** What a multipart body is sent as: its bytes, its Content-Type (with the boundary), and its parts as shown. */
export interface EncodedForm {
  bytes: Buffer;
  contentType: string;
  parts: ShownPart[];
}

/** What the form-data encoding makes of a text field's line breaks: CRLF each. */
const normalizedLineBreaks = (text: string) => text.replace(/\r?\n|\r/g, '\r\n');

/**
 * The parts as undici's FormData encodes them (multipart/form-data, RFC 7578, with a boundary of its own): a part with
 * neither `filename`, `contentType` nor `base64` is a text field; any other is a file, a Blob of its text or bytes
 * typed `contentType` (application/octet-stream without one) and named `filename` (FormData names one without `blob`).
 */
export async function encodeForm(parts: readonly MultipartPart[]): Promise<EncodedForm> {
  const { FormData, extractBody } = undiciForms();
  const form = new FormData();
  const shown = parts.map((part): ShownPart => {
    const text = part.base64 === undefined ? (part.value ?? '') : undefined;
    if (text !== undefined && part.filename === undefined && part.contentType === undefined) {
      form.append(part.name, text);
      return { name: part.name, filename: null, contentType: null, sizeBytes: Buffer.byteLength(normalizedLineBreaks(text)), value: text };
    }
    const bytes = text !== undefined ? Buffer.from(text, 'utf8') : Buffer.from(part.base64!, 'base64');
    const blob = part.filename === undefined ? new Blob([bytes], { type: part.contentType }) : new File([bytes], part.filename, { type: part.contentType });
    form.append(part.name, blob as unknown as globalThis.Blob);
    return {
      name: part.name,
      filename: part.filename ?? 'blob',
      contentType: blob.type || 'application/octet-stream',
      sizeBytes: bytes.length,
      ...(text !== undefined && { value: text }),
    };
  });
  const [body, contentType] = extractBody(form);
  const chunks: Buffer[] = [];
  for await (const chunk of body.stream) chunks.push(Buffer.from(chunk));
  return { bytes: Buffer.concat(chunks), contentType, parts: shown };
}

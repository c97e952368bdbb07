/**
 * FROZEN: never change this file. It is what MultipartBodyParts1796300000000 used when it was written: how a
 * MULTIPART_FORM_DATA body stored as text becomes the JSON array of parts that libs/domain/src/rest-connectors/
 * multipart-parts.ts reads. A migration carries its own copy so that the bodies it rewrites never follow a later
 * change of the live rule; change the live code, never this.
 */

interface Part {
  name: string;
  value: string;
}

/** The most parts, and the longest part name, the parts format took when this was written. */
const MAX_PARTS = 100;
const MAX_NAME = 256;

/**
 * The parts body for a stored multipart body, or null when it already is a JSON array (left as it is). A body of
 * `name=value` pairs joined by `&` (what imports and users wrote, form-encoded: `+` a space, `%XX` a byte; `{{variables}}`
 * kept) becomes one text part per pair, in order; an empty body stays empty. Any other text (a pair without a
 * name, a name on two lines or longer than a part name may be, more pairs than a body may hold) becomes one text
 * part named `body` holding the text as it was.
 */
export function multipartPartsBody(body: string): string | null {
  if (isJsonArray(body)) return null;
  if (body.trim() === '') return '';
  const pairs = body.split('&').filter((pair) => pair !== '');
  const parts: Part[] = pairs.map((pair) => {
    const equals = pair.indexOf('=');
    const [name, value] = equals === -1 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
    return { name: formDecoded(name), value: formDecoded(value) };
  });
  const readable = parts.length <= MAX_PARTS && parts.every(({ name }) => name !== '' && name.length <= MAX_NAME && !/[\r\n\0]/.test(name));
  return JSON.stringify(readable ? parts : [{ name: 'body', value: body }]);
}

function isJsonArray(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

/** A form-encoded name or value decoded as URLSearchParams decodes it (`+` a space; a malformed `%` kept as written). */
function formDecoded(text: string): string {
  return new URLSearchParams(`a=${text.replace(/&/g, '%26').replace(/=/g, '%3D')}`).get('a') ?? text;
}

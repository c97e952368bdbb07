/**
 * The part of postman-url-encoder 3.0 (CommonJS, untyped; the encoder Postman's runtime sends every request's URL
 * through) that the importer uses: its encode sets are the WHATWG URL standard's, extended as Postman extends them.
 */
declare module 'postman-url-encoder/encoder' {
  /** A set of characters to percent-encode (beside the C0 controls and every non-ASCII character, always encoded). */
  export interface EncodeSet {
    has(charCode: number): boolean;
  }
  /** The path percent-encoded: space, `"`, `#`, `<`, `>`, `?`, `` ` ``, `{`, `}`; a `%XX` already there is kept. */
  export function encodePath(path: string): string;
  /** The fragment percent-encoded: space, `"`, `<`, `>`, `` ` ``. */
  export function encodeFragment(fragment: string): string;
  /** `value` percent-encoded with `encodeSet`; a `%XX` already there is kept. */
  export function percentEncode(value: string, encodeSet: EncodeSet): string;
}

declare module 'postman-url-encoder/encoder/encode-set' {
  import type { EncodeSet } from 'postman-url-encoder/encoder';
  /** Space, `"`, `#`, `'`, `<`, `>`: what Postman encodes in a query (never `&` or `=`, which separate its parameters). */
  export const QUERY_ENCODE_SET: EncodeSet;
}

declare module 'postman-url-encoder' {
  /** The URL as Postman's runtime sends it, parsed by Node's URL: what the tests compare the importer with. */
  export function toNodeUrl(url: string): URL;
}

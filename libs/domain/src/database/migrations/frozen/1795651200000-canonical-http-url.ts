/**
 * FROZEN: never change this file. It is what CanonicalConnectorUrls1795651200000 used when it was written (commit
 * 5b53c3c): `canonicalHttpUrl` of libs/domain/src/validation/http-url.validator.ts then. A migration carries its own
 * copy so that the URLs it rewrites never follow a later change of the live rule; change the live code, never this.
 */

/** What the WHATWG parser trims from both ends of a URL: C0 controls and space. */
const C0_OR_SPACE_AT_ENDS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
/** An http(s) scheme, any case, and the run of `/` and `\` the WHATWG parser skips after it. */
const HTTP_SCHEME_AND_SLASHES = /^(https?):[/\\]*/i;

/**
 * An http(s) URL spelled as every parser reads it: the scheme lower-cased and followed by exactly `//`.
 * The WHATWG parser (undici's) skips any run of `/` and `\` after a special scheme, so `HTTP:/host`,
 * `https:host`, `https:\\host` and `https:///host` all go to `host`; other parsers (RFC 3986, Java's) read
 * them otherwise or not at all. Only that prefix changes (and the C0 controls and spaces WHATWG trims from the
 * ends): the rest, `{{variable}}` placeholders included, stays as written. Anything else is returned as is.
 */
export function canonicalHttpUrl(url: string): string {
  const trimmed = url.replace(C0_OR_SPACE_AT_ENDS, '');
  const match = HTTP_SCHEME_AND_SLASHES.exec(trimmed);
  return match ? `${match[1].toLowerCase()}://${trimmed.slice(match[0].length)}` : url;
}

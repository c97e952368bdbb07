/**
 * Where a request to an http(s) URL goes, as written and lower-cased: the scheme and the authority
 * (`https://user@host:port`). A stored secret stays bound to it: a move from https to http would send
 * it in clear text, a move of the host, port or user info to another server.
 */
export function destinationOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = /^(https?:\/\/[^/?#]*)/i.exec(url);
  return match ? match[1].toLowerCase() : null;
}

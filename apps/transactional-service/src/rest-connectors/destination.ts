import { PLACEHOLDER } from '@app/domain';

/** Whether `text` holds a `{{variable}}`. */
export const holdsPlaceholder = (text: string) => text.replace(PLACEHOLDER, '') !== text;

/** Two stand-ins for every `{{variable}}`: where the destination differs between them, a variable is part of it. */
const STAND_INS = ['a', 'b'] as const;

/** The URL as undici's parser (WHATWG) reads it, every placeholder filled with `standIn`; null when it is not http(s). */
function parsed(url: string, standIn: string): URL | null {
  try {
    const parsedUrl = new URL(url.replace(PLACEHOLDER, standIn));
    return parsedUrl.protocol === 'http:' || parsedUrl.protocol === 'https:' ? parsedUrl : null;
  } catch {
    return null;
  }
}

/** `scheme://userinfo@host:port` of a parsed URL: scheme and host lower-cased, a default port dropped, user info as parsed. */
function serialized({ protocol, username, password, host }: URL): string {
  const userinfo = username || password ? `${username}${password ? `:${password}` : ''}@` : '';
  return `${protocol}//${userinfo}${host}`;
}

/** The parsed URL when its destination holds no `{{variable}}`, else null. */
function fixedDestination(url: string | null | undefined): URL | null {
  if (!url) return null;
  const [a, b] = STAND_INS.map((standIn) => parsed(url, standIn));
  return a !== null && b !== null && serialized(a) === serialized(b) ? a : null;
}

/**
 * Where a request to an http(s) URL goes, as undici sees it (WHATWG parser): `scheme://userinfo@host:port`, so
 * `HTTPS:\\API.example.com:443` and `https://api.example.com` are one destination. A stored secret stays bound to
 * it: a move from https to http would send it in clear text, a move of the host, port or user info to another
 * server. Null when the URL is not an http(s) URL or a `{{variable}}` stands in its scheme or authority (it
 * could go anywhere).
 */
export function destinationOf(url: string | null | undefined): string | null {
  const fixed = fixedDestination(url);
  return fixed === null ? null : serialized(fixed);
}

/** Whether a `{{variable}}` stands in the scheme or authority (user info, host, port) of a valid http(s) URL. */
export function hasVariableDestination(url: string): boolean {
  return holdsPlaceholder(url) && fixedDestination(url) === null;
}

/**
 * Whether two URLs, or two destinations (destinationOf gives its own answer back unchanged), are one destination.
 * A destination that cannot be told (null) is never the same as any, not even as another null.
 */
export function sameDestination(a: string | null | undefined, b: string | null | undefined): boolean {
  const destination = destinationOf(a);
  return destination !== null && destination === destinationOf(b);
}

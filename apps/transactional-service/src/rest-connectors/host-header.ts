import { destinationOf, holdsPlaceholder } from './destination';

/**
 * Headers that shared front ends (CDNs, load balancers, the frameworks behind them) route by instead of the
 * connection's host: `Host` itself, the de facto `X-Forwarded-Host`, `X-Host` and `X-Original-Host`, and the
 * `host=` of RFC 7239's `Forwarded`. Each gives the hosts its value names.
 */
const ROUTING_HEADERS: Record<string, (value: string) => string[]> = {
  host: (value) => [value],
  'x-forwarded-host': (value) => value.split(','),
  'x-host': (value) => [value],
  'x-original-host': (value) => value.split(','),
  // Tolerant on purpose: any `host=` anywhere, even inside a quoted value, is checked.
  forwarded: (value) => [...value.matchAll(/host\s*=\s*("(?:[^"\\]|\\.)*"|[^;,]*)/gi)].map(([, host]) => host.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1')),
};
/** A host and optional port as a Host header holds it (RFC 9110 uri-host [":" port]), in ASCII, and nothing else. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d*)?$/;

/**
 * The routing headers (Host, X-Forwarded-Host, X-Host, X-Original-Host, Forwarded's host=) must name the host and
 * port of `url`, as WHATWG parses `scheme://<value>` (case and a default port make no difference): a shared front
 * end would route the call, and the secret sent with it, to the site the header names. A `{{variable}}` in such a
 * value cannot be checked before it is filled. One message per header; none when url has no readable destination
 * (its own 400 says why). Pure: a write calls it when a secret goes to url, a test run again on the filled values.
 */
export function hostHeaderProblems(url: string, headers: ReadonlyArray<{ header: string; value: string }>): string[] {
  const destination = destinationOf(url);
  if (destination === null) return [];
  const { protocol, host: target } = new URL(destination);
  const hostOf = (value: string) => {
    try {
      return new URL(`${protocol}//${value}`).host;
    } catch {
      return null;
    }
  };
  return headers.flatMap(({ header, value }, index) => {
    const hosts = ROUTING_HEADERS[header.toLowerCase()]?.(value);
    if (hosts === undefined) return [];
    if (holdsPlaceholder(value)) {
      return [
        `headers.${index}.value must not hold a {{variable}} in ${header}: it could name another host than url's, and a front end may route the call, and the secret sent with it, there`,
      ];
    }
    const elsewhere = hosts.some((host) => !AUTHORITY.test(host.trim()) || hostOf(host.trim()) !== target);
    return elsewhere
      ? [
          `headers.${index}.value must name the host (and port) of url in ${header}: a front end may route the call by it, and the secret sent with it, to another site`,
        ]
      : [];
  });
}

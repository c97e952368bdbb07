import { ROUTING_HEADERS, RoutingHeaderKind } from '@app/domain';
import { destinationOf, holdsPlaceholder } from './destination';

/** The hosts a routing header's value names, by how it names them (ROUTING_HEADERS). */
const HOSTS_IN: Record<Exclude<RoutingHeaderKind, 'other'>, (value: string) => string[]> = {
  host: (value) => [value],
  hosts: (value) => value.split(','),
  // Tolerant on purpose: any `host=` anywhere, even inside a quoted value, is checked.
  forwarded: (value) => [...value.matchAll(/host\s*=\s*("(?:[^"\\]|\\.)*"|[^;,]*)/gi)].map(([, host]) => host.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1')),
};
/** A host and optional port as a Host header holds it (RFC 9110 uri-host [":" port]), in ASCII, and nothing else. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d*)?$/;

/**
 * The routing headers (ROUTING_HEADERS) of a call that carries a secret: those that name a host (Host,
 * X-Forwarded-Host, X-Forwarded-Server, X-HTTP-Host-Override, Forwarded's host=, …) must name the host and port of
 * `url`, as WHATWG parses `scheme://<value>` (case and a default port make no difference), and those that route by
 * a path, URL, scheme or port (X-Original-URL, X-Rewrite-URL, X-Forwarded-Prefix, X-Forwarded-Proto, …) are not
 * sent at all: a shared front end would route the call, and the secret sent with it, to the site or path the header
 * names. A `{{variable}}` in a host-naming value cannot be checked before it is filled. One message per header; the
 * host-naming ones are not checked when url has no readable destination (its own 400 says why). Pure: a write
 * calls it when a secret goes to url, a test run again on the filled values.
 */
export function hostHeaderProblems(url: string, headers: ReadonlyArray<{ header: string; value: string }>): string[] {
  const destination = destinationOf(url);
  const target = destination === null ? null : new URL(destination);
  const hostOf = (value: string) => {
    try {
      return new URL(`${target!.protocol}//${value}`).host;
    } catch {
      return null;
    }
  };
  return headers.flatMap(({ header, value }, index) => {
    const kind = ROUTING_HEADERS.get(header.toLowerCase());
    if (kind === 'other') {
      return [
        `headers.${index}.header ${header} cannot go with a secret: a front end may route the call by it, and the secret sent with it, to another path or site; remove the header`,
      ];
    }
    if (kind === undefined || target === null) return [];
    if (holdsPlaceholder(value)) {
      return [
        `headers.${index}.value must not hold a {{variable}} in ${header}: it could name another host than url's, and a front end may route the call, and the secret sent with it, there`,
      ];
    }
    const elsewhere = HOSTS_IN[kind](value).some((host) => !AUTHORITY.test(host.trim()) || hostOf(host.trim()) !== target.host);
    return elsewhere
      ? [
          `headers.${index}.value must name the host (and port) of url in ${header}: a front end may route the call by it, and the secret sent with it, to another site`,
        ]
      : [];
  });
}

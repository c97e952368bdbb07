/**
 * Headers the HTTP client (undici) frames the message with itself and refuses, or would send a second time,
 * from a caller: the connection's management, the body's length and encoding, and `Expect`. Lower case.
 */
export const CLIENT_MANAGED_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'expect',
  'content-length',
  'te',
  'trailer',
  'proxy-connection',
]);

/**
 * How a routing header names where a call goes: `host` one host (and port), `hosts` a comma-separated list of them,
 * `forwarded` RFC 7239's list of `key=value` (its `host=`), `other` a path, URL, scheme or port.
 */
export type RoutingHeaderKind = 'host' | 'hosts' | 'forwarded' | 'other';

/**
 * Headers that front ends (load balancers, CDNs, service meshes) or the frameworks behind them route a call by, or
 * rebuild its URL from, instead of the request's own (lower case), checked wherever a secret goes with the call.
 * Hosts: `Host`; `X-Forwarded-Host` (Symfony, Laravel, Spring, Express, Django, nginx and Envoy setups);
 * `X-Host`, `X-Original-Host`, `X-HTTP-Host-Override`, `X-Forwarded-Server` (Apache mod_proxy, Traefik);
 * `X-Envoy-Original-Host` and `X-Envoy-Original-Dst-Host` (Envoy's original destination cluster routes to it);
 * RFC 7239's `Forwarded: host=`. Others: `X-Original-URL` and `X-Rewrite-URL` (IIS URL Rewrite; Symfony, Zend and
 * Laminas read the path from them), `X-Original-URI` (nginx auth_request), `X-Forwarded-Prefix` (Symfony, Spring),
 * `X-Forwarded-Uri` and `X-Forwarded-Path` (Traefik), `X-Envoy-Original-Path` (Envoy), and the scheme and port
 * (`X-Forwarded-Proto`, `X-Forwarded-Scheme`, `X-Url-Scheme`, `X-Forwarded-Ssl`, `Front-End-Https`,
 * `X-Forwarded-Port`: Symfony, Spring, Rack, Django). A Map: a header name is the caller's text, and a name such as
 * `__proto__` or `constructor` must find nothing.
 */
export const ROUTING_HEADERS: ReadonlyMap<string, RoutingHeaderKind> = new Map<string, RoutingHeaderKind>([
  ['host', 'host'],
  ['x-host', 'host'],
  ['x-http-host-override', 'host'],
  ['x-envoy-original-host', 'host'],
  ['x-envoy-original-dst-host', 'host'],
  ['x-forwarded-host', 'hosts'],
  ['x-original-host', 'hosts'],
  ['x-forwarded-server', 'hosts'],
  ['forwarded', 'forwarded'],
  ['x-original-url', 'other'],
  ['x-rewrite-url', 'other'],
  ['x-original-uri', 'other'],
  ['x-forwarded-prefix', 'other'],
  ['x-forwarded-uri', 'other'],
  ['x-forwarded-path', 'other'],
  ['x-envoy-original-path', 'other'],
  ['x-forwarded-proto', 'other'],
  ['x-forwarded-scheme', 'other'],
  ['x-url-scheme', 'other'],
  ['x-forwarded-ssl', 'other'],
  ['front-end-https', 'other'],
  ['x-forwarded-port', 'other'],
]);

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

/** Headers that name the host a call is meant for (checked against `url` wherever a secret goes with the call). Lower case. */
export const ROUTING_HEADER_NAMES: ReadonlySet<string> = new Set(['host', 'x-forwarded-host', 'x-host', 'x-original-host', 'forwarded']);

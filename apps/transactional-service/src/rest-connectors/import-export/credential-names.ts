/**
 * Header names that carry an API key, shared by the cURL and Postman importers so that both take the same headers for
 * the auth settings (a key left as a plain header would be stored and shown in clear): a name that, lower-cased without
 * `-` and `_`, ends with `apikey` (X-API-Key, Api-Key, X-RapidAPI-Key, x-goog-api-key), the token headers (X-Auth-Token,
 * Access-Token, GitLab's PRIVATE-TOKEN, Api-Token) and Azure's (Ocp-Apim-)Subscription-Key.
 */
const API_KEY_HEADER = /^(?:x-)?(?:api[-_]?token|auth[-_]?token|access[-_]?token|private[-_]?token|(?:ocp-apim-)?subscription[-_]?key)$/i;

export function isApiKeyHeaderName(name: string): boolean {
  return name.toLowerCase().replace(/[-_]/g, '').endsWith('apikey') || API_KEY_HEADER.test(name);
}

/**
 * Headers that may hold a credential but have no auth setting to become: a session cookie, the proxy's credentials.
 * They are kept as plain headers (the call may need them), stored and shown in clear: each gets a warning.
 */
export const MAY_HOLD_CREDENTIAL = /^(?:cookie|proxy-authorization)$/i;

/** The HEADER_MAY_HOLD_CREDENTIAL warning's message (never the value: it may be the secret). */
export function mayHoldCredential(header: string): string {
  return `The ${header} header is kept as a plain header, stored and shown in clear: if it holds a session or a secret, remove it or write a {{variable}} in its place.`;
}

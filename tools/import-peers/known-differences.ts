import { Difference } from './compare';
import { Format } from './peer-comparison';

/**
 * Every kind of difference from the peers that is known: decided (the connector sends what it does on purpose, or the
 * peer is wrong: docs/decisions.md, "Imports compared with peer readers"), or fixed by another point of issue 41 still
 * in flight (`owner`: the point that removes it; delete the entry when that lands, and the test says if it lingers).
 * A difference no entry matches counts against the targets.
 */
export interface KnownDifference {
  id: string;
  formats: Format[];
  /** Which differences this is: by kind, and where needed by the document or what each side has. */
  matches(difference: Difference, document: string): boolean;
  status: 'decided' | 'owned by another point';
  /** The point of issue 41 that fixes it (status `owned by another point`). */
  owner?: string;
  reason: string;
}

const kind = (pattern: RegExp) => (difference: Difference) => pattern.test(difference.kind);

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    id: 'accept-from-responses',
    formats: ['openapi'],
    matches: kind(/^header only in peer: accept$/),
    status: 'decided',
    reason:
      "openapi-to-postmanv2 sends `Accept:` the first media type of the operation's first response that has content (an error's `application/problem+json`, an `image/png`); a connector imported from OpenAPI sends no Accept, which asks for the API's default representation.",
  },
  {
    id: 'oauth2-browser-flows',
    formats: ['openapi', 'postman'],
    matches: (difference) =>
      /^auth none \(ours\) and oauth2 \(peer\)$/.test(difference.kind) && /implicit|authorization_code|AUTHORIZATION_CODE/.test(difference.peer),
    status: 'decided',
    reason:
      'The scheme offers only OAuth 2.0 flows that need a browser (implicit, authorization code): a connector gets tokens by client credentials or password, so it is imported without auth and a warning says so (UNSUPPORTED_SECURITY_SCHEME, AUTH_NOT_IMPORTED).',
  },
  {
    id: 'oauth2-flow-choice',
    formats: ['openapi'],
    matches: kind(/^auth oauth2 grant$/),
    status: 'decided',
    reason:
      "The scheme offers several flows: the connector takes the client-credentials (else password) flow it can run; openapi-to-postmanv2 takes the scheme's first flow (authorization code).",
  },
  {
    id: 'request-signing-auth',
    formats: ['postman'],
    matches: (difference) => /^auth none \(ours\) and other \(peer\)$/.test(difference.kind),
    status: 'decided',
    reason:
      'AWS Signature, Digest, OAuth 1.0 and other signing schemes are not connector auth types: the request is imported without auth and a warning says so.',
  },
  {
    id: 'cookie-api-key',
    formats: ['openapi'],
    matches: (difference) => /^auth none \(ours\) and apikey \(peer\)$/.test(difference.kind),
    status: 'decided',
    reason:
      "The API key goes in a cookie (`in: cookie`): a connector sends no cookies and imports it without auth, with a warning; openapi-to-postmanv2 sends it as a header of the cookie's name, which the API does not read.",
  },
  {
    id: 'file-bodies',
    formats: ['openapi', 'postman', 'curl'],
    matches: (difference) =>
      (/^body only in peer \(text\)$/.test(difference.kind) && difference.peer.startsWith('{"kind":"text","text":"@')) ||
      (/^body only in peer \(form\)$|^form fields$|^multipart fields$/.test(difference.kind) && onlyFilesDiffer(difference)),
    status: 'decided',
    reason:
      'A body read from a file (`-d @file`, `-T`, `-F name=@file`, Postman file mode, an OpenAPI binary body): an import reads no file, so the connector leaves it out and says so (FILE_NOT_READ, BODY_LEFT_EMPTY); the peers keep the file name.',
  },
  {
    id: 'multipart-skeleton-values',
    formats: ['openapi'],
    matches: (difference) => difference.kind === 'multipart fields' && emptyWhereTheyDiffer(difference),
    status: 'decided',
    reason:
      'A multipart body made from the schema (no example): each field a part with an empty value for the user to fill (BODY_GENERATED), a file part empty too; openapi-to-postmanv2 writes its type name (`string`) or `@`.',
  },
  {
    id: 'content-type-without-body',
    formats: ['postman'],
    matches: kind(/^media type (only in peer|differs), without a body$/),
    status: 'decided',
    reason:
      'A GET (or a request with an empty body) with a Content-Type header: there is no body for it to describe, so the connector sends none; Postman sends the header as written.',
  },
  {
    id: 'get-body',
    formats: ['postman'],
    matches: kind(/^body with GET or HEAD only in peer$/),
    status: 'decided',
    reason:
      "A GET that sends a body (Postman, with `disableBodyPruning`): a connector sends no body with GET or HEAD (the contract's test-run rule; many servers and proxies drop or refuse it), and imports the body for the caller to see.",
  },
  {
    id: 'curl-content-type-without-data',
    formats: ['curl'],
    matches: kind(/^media type only in ours, without a body$/),
    status: 'decided',
    reason:
      'A command with a Content-Type header and no data (a GET): curl sends the header as written, and so does the connector; curlconverter reports no media type without data.',
  },
  {
    id: 'second-credential-as-secret-header',
    formats: ['openapi'],
    matches: (difference, document) => /^header only in ours: /.test(difference.kind) && /security-multiple/.test(document),
    status: 'decided',
    reason:
      'An OpenAPI requirement of two schemes together: the connector sends both credentials (the second as a secret header); openapi-to-postmanv2 sends the first one only.',
  },
  {
    id: 'empty-body-content-type',
    formats: ['postman'],
    matches: kind(/^media type only in ours, without a body$/),
    status: 'decided',
    reason:
      'An empty raw body with a language (Wise `DELETE …/spend-limits/daily`): Postman sends neither body nor Content-Type, the connector (APPLICATION_JSON, empty body) sends `Content-Type: application/json`. Importing it as NONE alone breaks the Postman export round trip of an empty TEXT_PLAIN body (export-postman.spec.ts): the fix goes with the runtime not sending a type for an empty body, or the exporter writing the header.',
  },
  {
    id: 'recursive-schema-depth',
    formats: ['openapi'],
    matches: (difference, document) => difference.kind === 'body structure' && /circular/.test(document),
    status: 'decided',
    reason:
      'A body made up from a recursive schema stops where the schema meets itself (`null`); openapi-to-postmanv2 goes one level deeper. Both are skeletons to fill in.',
  },
  {
    id: 'peer-example-ref',
    formats: ['openapi'],
    matches: (difference) => difference.kind === 'body value' && /"\$ref":"#\/components\/examples\//.test(difference.peer),
    status: 'decided',
    reason: 'openapi-to-postmanv2 sends an example given by `$ref` as the literal `{"$ref": …}` object; ours sends the example it points at.',
  },
  {
    id: 'peer-ignores-form-example',
    formats: ['openapi'],
    matches: (difference, document) => difference.kind === 'form fields' && /request-examples/.test(document),
    status: 'decided',
    reason: "The document gives an example of the urlencoded body: ours sends it; openapi-to-postmanv2 makes the body up from the schema's properties instead.",
  },
  {
    id: 'peer-picks-other-media-type',
    formats: ['openapi'],
    matches: (difference, document) =>
      /^media type differs$|^body read as text \(ours\) and json \(peer\)$/.test(difference.kind) && /request-examples/.test(document),
    status: 'decided',
    reason:
      'The operation lists several media types: ours takes the first listed (as `preferredRequestBodyType: first-listed` asks of the peer), openapi-to-postmanv2 still takes JSON.',
  },
  {
    id: 'path-item-servers',
    formats: ['openapi'],
    matches: (difference, document) => /^url (origin|path)$/.test(difference.kind) && /server-variables/.test(document),
    status: 'decided',
    reason: "The path item names its own servers: ours uses them (OpenAPI: they override the document's), openapi-to-postmanv2 uses the document's.",
  },
  {
    id: 'array-query-parameter',
    formats: ['openapi'],
    matches: (difference) => difference.kind === 'query value or order' && /\["[^"]+","\{\{\}\}"\]/.test(difference.ours),
    status: 'decided',
    reason:
      'A required array query parameter is one variable in ours (the caller writes its value); openapi-to-postmanv2 repeats the parameter with two made-up items.',
  },
  {
    id: 'optional-form-fields',
    formats: ['openapi'],
    matches: (difference) => /^body only in ours \(form\)$/.test(difference.kind),
    status: 'decided',
    reason:
      'Swagger 2.0 formData parameters that are all optional: ours writes each, empty, for the caller to fill or delete; the peer (optional parameters disabled, as ours leaves optional query and header parameters out) sends none.',
  },
  {
    id: 'peer-drops-required-body',
    formats: ['openapi'],
    matches: (difference) => /^body only in ours \(json-shape\)$|^media type only in ours$/.test(difference.kind),
    status: 'decided',
    reason:
      'A Swagger 2.0 body parameter marked required (Netlify `POST /builds/{build_id}/log`, `msg`): ours sends its skeleton, openapi-to-postmanv2 sends no body.',
  },
  {
    id: 'not-a-connector-method',
    formats: ['postman', 'curl'],
    matches: kind(/^not imported: (its method "…" is none a connector has|… is not a method a connector sends)/),
    status: 'decided',
    reason: 'A connector sends GET, POST, PUT, PATCH, DELETE, HEAD and OPTIONS only (LINK, PURGE, PROPFIND…): the request is left out with a warning.',
  },
  {
    id: 'no-url',
    formats: ['postman'],
    matches: kind(/^not imported: it has no URL/),
    status: 'decided',
    reason: 'The request item has no URL: there is nothing to send.',
  },
  {
    id: 'authorization-scheme-as-api-key',
    formats: ['postman'],
    matches: (difference) => /^auth apikey \(ours\) and other \(peer\)$/.test(difference.kind) && /"name":"authorization"/.test(difference.ours),
    status: 'decided',
    reason:
      "An Authorization header of a scheme no connector auth type has (RealWorld's `Token {{token}}`): the connector sends it as an API key in the Authorization header, its whole value (`Token …`) given when importing (CREDENTIAL_FROM_VARIABLES); on the wire the two are the same header.",
  },
  {
    id: 'curl-refuses-itself',
    formats: ['curl'],
    matches: kind(/^not imported: data \(-d, --json\) and an upload \(-T\) together/),
    status: 'decided',
    reason: 'curl itself refuses `-T` with `-d` ("You can only select one HTTP request method!").',
  },
  {
    id: 'not-a-curl-command',
    formats: ['curl'],
    matches: kind(/^not imported: "echo" is not curl/),
    status: 'decided',
    reason: '`echo … | curl` feeds curl input an import does not have.',
  },
  {
    id: 'unsendable-header-or-url',
    formats: ['curl'],
    matches: kind(/^not imported: (the header value must not contain CR, LF or NUL|the URL is not an absolute http or https URL)/),
    status: 'decided',
    reason: 'A header value with a line break, or a host with spaces: no HTTP request can carry it; curlconverter keeps it as written.',
  },
  {
    id: 'invalid-basic-token',
    formats: ['curl'],
    matches: kind(/^not imported: the Basic credentials are not the Base64 of user-id:password/),
    status: 'decided',
    reason:
      'The Basic token (redacted in the bug report it comes from) is not Base64 of user:password (RFC 7617): refused rather than stored as an unusable credential.',
  },
];

/**
 * The two sides' fields are the same once the file parts are left out: the peer's (`@name`), and ours, a file part
 * of a multipart body being an empty value (an import reads no file).
 */
function onlyFilesDiffer(difference: Difference): boolean {
  const fields = (side: string) => (JSON.parse(side) as { fields?: Array<[string, string]> }).fields ?? [];
  const peerFields = fields(difference.peer);
  const peerFiles = peerFields.filter(([name, value]) => value.startsWith('@') || name.startsWith('@'));
  const peer = peerFields.filter((field) => !peerFiles.includes(field));
  const ours = fields(difference.ours).filter(([name, value]) => !(value === '' && peerFiles.some(([file]) => file === name)));
  const sorted = (list: Array<[string, string]>) => JSON.stringify([...list].sort(([a], [b]) => a.localeCompare(b)));
  return sorted(peer) === sorted(ours);
}

/** Both sides name the same fields in the same order, and where a value differs ours is empty (a field to fill). */
function emptyWhereTheyDiffer({ ours, peer }: Difference): boolean {
  const fields = (side: string) => (JSON.parse(side) as { fields?: Array<[string, string]> }).fields ?? [];
  const [mine, theirs] = [fields(ours), fields(peer)];
  return mine.length === theirs.length && mine.every(([name, value], index) => name === theirs[index][0] && (value === theirs[index][1] || value === ''));
}

/** The entry a difference is known by, if any. */
export function knownAs(difference: Difference, document: string, format: Format): KnownDifference | undefined {
  return KNOWN_DIFFERENCES.find((known) => known.formats.includes(format) && known.matches(difference, document));
}

import { ImportWarning } from '../connector-draft';
import type { TagWarning } from '../draft-tags';

/**
 * Every code the OpenAPI importer emits (stable: clients branch on them).
 *
 * - DOCUMENT_WARNING: the parser's validator found something it tolerates (a path parameter declared twice, an array
 *   without `items`, a duplicate operationId, …); the import goes on.
 * - EXTERNAL_REF_NOT_FETCHED: the document points outside itself (`./other.yaml`, `https://…`); an import never
 *   fetches, so those parts are left out (bundle the document into one file first).
 * - WEBHOOKS_NOT_IMPORTED, CALLBACKS_NOT_IMPORTED: calls the API makes to its clients are not connectors.
 * - UNSUPPORTED_METHOD: an operation whose method a connector cannot send (TRACE) was left out.
 * - OTHER_SERVERS: the document names several servers; the connector uses the first.
 * - RELATIVE_SERVER_URL: the server URL is relative (or missing), so the URL starts with `https://{{apiHost}}`.
 * - SERVER_USERINFO: the server URL holds a user name and password: they become basic auth when the operation has no
 *   other auth, and are left out otherwise; never kept in the URL.
 * - TOKEN_URL_USERINFO: an OAuth 2.0 token URL holds a user name and password: left out of oauthUrl, never kept.
 * - SERVER_SCHEME_ASSUMED: a Swagger 2.0 document without `schemes`: https assumed.
 * - AUTH_NEEDS_ABSOLUTE_SERVER: the operation needs auth but its host is a variable, which a connector with auth may
 *   not have: the connector is imported without auth.
 * - OPTIONAL_PARAMETERS_LEFT_OUT: optional query and header parameters are not in the connector.
 * - VARIABLE_RENAMED: a parameter name is not a valid variable name; the variable has another name.
 * - HEADER_PARAMETER_IGNORED: a header parameter the connector sets otherwise (Authorization, Accept, Content-Type
 *   without a fixed value), that the HTTP client sets (Content-Length, Connection, …), that routes the call (Host,
 *   X-Forwarded-Host, …), or whose name is not an HTTP token.
 * - COOKIE_PARAMETER: cookie parameters are not sent by connectors.
 * - UNKNOWN_PARAMETER_LOCATION: a parameter `in` a place this importer does not know.
 * - TOO_MANY_HEADERS: more than 50 headers; the rest are left out.
 * - OTHER_MEDIA_TYPES: the request body may be sent in other media types too; the connector uses one.
 * - UNSUPPORTED_MEDIA_TYPE: a multipart type other than form-data, which no content type sends: sent as TEXT_PLAIN.
 * - BODY_GENERATED: no example: the body is a skeleton made from the schema (multipart: its fields as parts, file parts empty), to be filled in.
 * - BODY_LEFT_EMPTY: no example and no skeleton possible in that media type (XML, binary), or a multipart body without fields.
 * - EXTERNAL_EXAMPLE: an example given only by `externalValue` (never fetched).
 * - BODY_TOO_LARGE: the example or skeleton is over 64 KiB: the body is left empty.
 * - SECURITY_ALTERNATIVES: several security requirements: the first one a connector supports is used.
 * - SECURITY_SCHEMES_COMBINED: a requirement of several schemes at once: the connector carries one.
 * - UNSUPPORTED_SECURITY_SCHEME: a scheme a connector cannot use (digest, cookie API key, implicit or authorization
 *   code flow, openIdConnect, mutualTLS): the connector is imported without it.
 * - OAUTH2_SCOPES_NOT_SENT: the token request of a connector sends no scope.
 * - NAME_SHORTENED, DESCRIPTION_SHORTENED: cut to 100 and 1000 characters.
 * - TAG_SHORTENED, TAG_LEFT_OUT, TAGS_CUT: an operation tag cut to 50 characters, one a tag cannot hold, the tags past
 *   the 20th (draft-tags.ts).
 */
export type WarningCode =
  | 'DOCUMENT_WARNING'
  | 'EXTERNAL_REF_NOT_FETCHED'
  | 'WEBHOOKS_NOT_IMPORTED'
  | 'CALLBACKS_NOT_IMPORTED'
  | 'UNSUPPORTED_METHOD'
  | 'OTHER_SERVERS'
  | 'RELATIVE_SERVER_URL'
  /** A server's variables written in with their defaults, since a secret goes to the server (else they are the environment's `{{env.NAME}}`). */
  | 'SERVER_VARIABLES_WRITTEN_IN'
  | 'SERVER_SCHEME_ASSUMED'
  | 'SERVER_USERINFO'
  | 'TOKEN_URL_USERINFO'
  | 'AUTH_NEEDS_ABSOLUTE_SERVER'
  | 'OPTIONAL_PARAMETERS_LEFT_OUT'
  | 'VARIABLE_RENAMED'
  | 'HEADER_PARAMETER_IGNORED'
  | 'COOKIE_PARAMETER'
  | 'UNKNOWN_PARAMETER_LOCATION'
  | 'TOO_MANY_HEADERS'
  | 'OTHER_MEDIA_TYPES'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BODY_GENERATED'
  | 'BODY_LEFT_EMPTY'
  | 'EXTERNAL_EXAMPLE'
  | 'BODY_TOO_LARGE'
  | 'SECURITY_ALTERNATIVES'
  | 'SECURITY_SCHEMES_COMBINED'
  | 'UNSUPPORTED_SECURITY_SCHEME'
  | 'OAUTH2_SCOPES_NOT_SENT'
  | 'NAME_SHORTENED'
  | 'DESCRIPTION_SHORTENED'
  | TagWarning['code'];

export function warning(code: WarningCode, where: string, message: string): ImportWarning {
  return { code, where, message };
}

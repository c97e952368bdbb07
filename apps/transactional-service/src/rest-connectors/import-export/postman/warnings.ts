import { ImportWarning } from '../connector-draft';
import type { TagWarning } from '../draft-tags';
import { ImportWarnings, MAX_WARNINGS } from '../import-warnings';

/**
 * Every warning the Postman importer gives: what the collection says that the connectors carry differently, or
 * not at all. A warning never holds a secret's value (nor any variable's value: a collection variable may hold one).
 */
export type PostmanWarningCode =
  /** A request that cannot become a connector (method, URL, size): left out, the message says why and how to fix it. */
  | 'ITEM_SKIPPED'
  /** Pre-request or test scripts: never run, not imported. */
  | 'SCRIPTS_NOT_IMPORTED'
  /** A header, query parameter, form field or body that Postman does not send (`disabled`): left out (a body: kept, contentType NONE). */
  | 'DISABLED_SKIPPED'
  /** A header a connector cannot hold (not an RFC 9110 name, a value with CR/LF/NUL or over 8 KiB, past the 50th): left out. */
  | 'HEADER_SKIPPED'
  /** An Authorization or API-key header that became the auth settings. */
  | 'HEADER_AS_AUTH'
  /** A Cookie or Proxy-Authorization header, kept as a plain header (stored and shown in clear): it may hold a credential. */
  | 'HEADER_MAY_HOLD_CREDENTIAL'
  /** An API-key query parameter that became the auth settings. */
  | 'QUERY_AS_AUTH'
  /** User info in the URL that became basic auth settings, or was removed because other auth settings apply. */
  | 'USERINFO_AS_AUTH'
  /** An Authorization header set by hand while auth settings apply (Postman's auth replaces it too): left out. */
  | 'AUTHORIZATION_HEADER_REPLACED'
  /** A key in clear in a query parameter while other auth settings apply: replaced by a `{{variable}}`. */
  | 'SECRET_REPLACED_BY_VARIABLE'
  /** An API-key or Authorization header beside other auth settings: kept as a secret header (sealed, shown as `<SECRET>`). */
  | 'SECRET_HEADER'
  /** An auth type (digest, hawk, awsv4, ntlm, edgegrid, oauth1, jwt, asap, …) or incomplete auth settings: AUTH_NONE. */
  | 'AUTH_UNSUPPORTED'
  /** OAuth 2.0 with a grant other than client credentials or password: AUTH_NONE. */
  | 'OAUTH2_GRANT_UNSUPPORTED'
  /** OAuth 2.0 settings a connector has no field for (scope, audience, resource, client credentials in the body, token in the query, header prefix). */
  | 'AUTH_SETTINGS_NOT_IMPORTED'
  /** A credential that is partly text and partly variables, or basic auth from variables: its value must be given when importing. */
  | 'CREDENTIAL_FROM_VARIABLES'
  /** A variable name a connector cannot use (`{{$guid}}`, `{{my var}}`): renamed. */
  | 'VARIABLE_RENAMED'
  /** A collection variable's value written into a URL's scheme, host or port. */
  | 'VARIABLE_INLINED'
  /** A variable the collection does not declare in a URL's scheme, host or port: the environment's `{{env.NAME}}`. */
  | 'ENVIRONMENT_VARIABLE'
  /** Variables whose values the collection holds (collection or path variables): kept as `{{variables}}`, their values not imported. */
  | 'VARIABLE_VALUES_NOT_IMPORTED'
  /** A URL without a scheme: `http://` added, as Postman does. */
  | 'SCHEME_ADDED'
  /** A URL object whose `raw` text differs from its parts: the parts are imported, as Postman sends them. */
  | 'URL_RAW_DIFFERS'
  /** A media type no content type sends (another multipart type, a variable): TEXT_PLAIN sent as text/plain, the Content-Type header left out. */
  | 'CONTENT_TYPE_UNSUPPORTED'
  /** Comments in a JSON body: removed, as Postman removes them before sending. */
  | 'JSON_COMMENTS_REMOVED'
  /** A file body (left out) or file form field (a part with an empty value): a file is never read. */
  | 'FILE_NOT_IMPORTED'
  /** A body mode Postman does not define, a urlencoded field's own content type, a form field without a key, a multipart raw body. */
  | 'BODY_NOT_IMPORTED'
  /** A body on a GET or HEAD: kept, but a connector sends none with these methods. */
  | 'BODY_NOT_SENT'
  /** Request settings a connector has no field for (protocolProfileBehavior, proxy, certificate). */
  | 'SETTINGS_NOT_IMPORTED'
  /** A name over 100 characters, or over several lines: shortened to one line of 100. */
  | 'NAME_SHORTENED'
  /** Tags of an export's ```connector block a connector cannot take (past the 20th, empty, over 50 characters, several lines). */
  | 'TAGS_LEFT_OUT'
  /** A description over 1000 characters: cut. */
  | 'DESCRIPTION_SHORTENED'
  /** A folder name cut to 50 characters as a tag, one a tag cannot hold, the folders past the 20th (draft-tags.ts). */
  | TagWarning['code']
  /** More warnings than an answer lists (MAX_WARNINGS): the rest are counted, not listed. */
  | 'WARNINGS_CUT';

export { MAX_WARNINGS } from '../import-warnings';

export interface PostmanWarning extends ImportWarning {
  code: PostmanWarningCode;
}

/** The warnings of one import, in the order they arose, each said once, at most MAX_WARNINGS listed (ImportWarnings). */
export class Warnings extends ImportWarnings<PostmanWarning> {
  /** `limit`: how many are listed (an item's own warnings, merged into the import's later, are all kept until then). */
  constructor(limit = MAX_WARNINGS) {
    super('collection', limit);
  }

  add(code: PostmanWarningCode, where: string, message: string): void {
    this.push({ code, where, message });
  }

  addAll(other: Warnings): void {
    this.pushAll(other);
  }
}

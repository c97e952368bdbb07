/** Allowed values decided by the API contract (the seed shows one value of each). */
export enum RequestType {
  GET = 'GET',
  POST = 'POST',
  PUT = 'PUT',
  PATCH = 'PATCH',
  DELETE = 'DELETE',
  HEAD = 'HEAD',
  OPTIONS = 'OPTIONS',
}

export enum ContentType {
  NONE = 'NONE',
  APPLICATION_JSON = 'APPLICATION_JSON',
  APPLICATION_XML = 'APPLICATION_XML',
  APPLICATION_FORM_URLENCODED = 'APPLICATION_FORM_URLENCODED',
  MULTIPART_FORM_DATA = 'MULTIPART_FORM_DATA',
  TEXT_PLAIN = 'TEXT_PLAIN',
}

/** The media type a connector of each content type sends (a test run's Content-Type; what an export declares). */
export const MEDIA_TYPES: Readonly<Record<Exclude<ContentType, ContentType.NONE>, string>> = {
  [ContentType.APPLICATION_JSON]: 'application/json',
  [ContentType.APPLICATION_XML]: 'application/xml',
  [ContentType.APPLICATION_FORM_URLENCODED]: 'application/x-www-form-urlencoded',
  [ContentType.MULTIPART_FORM_DATA]: 'multipart/form-data',
  [ContentType.TEXT_PLAIN]: 'text/plain',
};

export enum AuthType {
  AUTH_NONE = 'AUTH_NONE',
  AUTH_BASIC = 'AUTH_BASIC',
  AUTH_BEARER = 'AUTH_BEARER',
  AUTH_OAUTH2 = 'AUTH_OAUTH2',
  /** A key sent as the header or query parameter `apiKeyName` (`apiKeyIn`). */
  AUTH_API_KEY = 'AUTH_API_KEY',
}

/** Where an AUTH_API_KEY connector sends its key. */
export enum ApiKeyIn {
  HEADER = 'HEADER',
  QUERY = 'QUERY',
}

export enum GrantType {
  CLIENT_CREDENTIALS = 'CLIENT_CREDENTIALS',
  PASSWORD = 'PASSWORD',
}

/** What happened when a connector's outbound call was tried (docs/api-contract.md, "Connector test runs"). */
export enum TestRunOutcome {
  /** The far side answered 2xx. */
  SUCCESS = 'SUCCESS',
  /** The far side answered any other status (3xx included: redirects are not followed). */
  HTTP_ERROR = 'HTTP_ERROR',
  /** No whole answer within CONNECTOR_TEST_TIMEOUT_MS. */
  TIMEOUT = 'TIMEOUT',
  /** Name not found, connection refused or reset. */
  CONNECTION_FAILED = 'CONNECTION_FAILED',
  TLS_ERROR = 'TLS_ERROR',
  /** The host is, or resolves to, an address test runs may not reach. */
  BLOCKED_DESTINATION = 'BLOCKED_DESTINATION',
  /** The OAuth 2.0 token endpoint refused or failed. */
  AUTH_FAILED = 'AUTH_FAILED',
}

/** What a recorded version of a connector did (docs/api-contract.md, "History, trash and restore"). */
export enum VersionOperation {
  CREATED = 'CREATED',
  UPDATED = 'UPDATED',
  DELETED = 'DELETED',
  RESTORED = 'RESTORED',
}

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

export enum AuthType {
  AUTH_NONE = 'AUTH_NONE',
  AUTH_BASIC = 'AUTH_BASIC',
  AUTH_BEARER = 'AUTH_BEARER',
  AUTH_OAUTH2 = 'AUTH_OAUTH2',
}

export enum GrantType {
  CLIENT_CREDENTIALS = 'CLIENT_CREDENTIALS',
  PASSWORD = 'PASSWORD',
}

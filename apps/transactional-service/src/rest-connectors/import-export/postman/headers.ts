import { ApiKeyIn, AuthType, HTTP_TOKEN, isBasicCredentials, LIMITS } from '@app/domain';
import { isApiKeyHeaderName, MAY_HOLD_CREDENTIAL, mayHoldCredential } from '../credential-names';
import { AuthSettings, DraftHeader, isExportedSecretHeader, NO_AUTH, secretHeaderOf } from '../connector-draft';
import { credentialOf } from './auth';
import { JsonNode } from './postman-json';
import { variablesIn } from './variables';
import { leadingName } from '../quoted-list';
import { Warnings } from './warnings';

/** A header of the request; a secret one (a credential that is not the auth settings') as the draft holds it. */
export type Header = DraftHeader;

/** `Key: value` lines: the v2.1 schema lets `header` be one string. */
function headersFromText(text: string): Header[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0 ? { header: line.trim(), value: '' } : { header: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
}

/** The headers Postman sends: the disabled ones are warned about and left out. */
export function enabledHeaders(request: JsonNode, warnings: Warnings): Header[] {
  if (typeof request.member('header') === 'string') return headersFromText(request.string('header')!);
  return request.objects('header').flatMap((header) => {
    const name = header.string('key') ?? '';
    if (!header.flag('disabled')) return [{ header: name, value: header.text('value') ?? '' }];
    warnings.add('DISABLED_SKIPPED', request.where, `The disabled header ${JSON.stringify(leadingName(name))} is not sent by Postman: left out.`);
    return [];
  });
}

/** What a header a connector cannot hold is: undefined when it can hold it. */
function headerProblem({ header, value }: Header): string | undefined {
  if (!HTTP_TOKEN.test(header) || header.length > LIMITS.headerName) return 'its name is not an HTTP header name (RFC 9110 token, at most 256 characters)';
  if (/[\r\n\0]/.test(value)) return 'its value holds a line break or NUL';
  if (Buffer.byteLength(value) > LIMITS.headerValueBytes) return 'its value is over 8 KiB';
  return undefined;
}

/** The auth settings an `Authorization` header means: Basic, Bearer, or any other scheme as an API key named Authorization. */
function authorizationAuth(value: string, where: string, warnings: Warnings): AuthSettings | undefined {
  const [scheme, ...rest] = value.trim().split(/\s+/);
  const credential = rest.join(' ');
  switch (scheme.toLowerCase()) {
    case 'basic':
      if (variablesIn(credential).length === 0 && !isBasicCredentials(credential)) return undefined;
      return {
        ...NO_AUTH,
        authType: AuthType.AUTH_BASIC,
        credentials: [credentialOf('basicToken', credential, `${where}, header Authorization`, warnings, where)],
      };
    case 'bearer':
      return {
        ...NO_AUTH,
        authType: AuthType.AUTH_BEARER,
        credentials: [credentialOf('bearerToken', credential, `${where}, header Authorization`, warnings, where)],
      };
    default:
      return apiKeyAuth('Authorization', ApiKeyIn.HEADER, value.trim(), `${where}, header Authorization`, warnings, where);
  }
}

export function apiKeyAuth(name: string, place: ApiKeyIn, value: string, credentialWhere: string, warnings: Warnings, where: string): AuthSettings {
  return {
    ...NO_AUTH,
    authType: AuthType.AUTH_API_KEY,
    apiKeyName: name,
    apiKeyIn: place,
    credentials: [credentialOf('apiKey', value, credentialWhere, warnings, where)],
  };
}

/** The request's headers sorted out: the plain ones, the Content-Type (the body's business), and the auth settings they set. */
export interface SortedHeaders {
  headers: Header[];
  contentType: string | undefined;
  auth: AuthSettings;
}

function authorizationHeader(header: Header, sorted: SortedHeaders, where: string, warnings: Warnings): void {
  const { value } = header;
  if (value.trim() === '') {
    warnings.add('HEADER_SKIPPED', where, 'The Authorization header is left out: it is empty.');
    return;
  }
  // An API key sent in another header leaves Authorization to the request, as Postman sends it: a second credential.
  if (sorted.auth.authType === AuthType.AUTH_API_KEY && !(sorted.auth.apiKeyIn === ApiKeyIn.HEADER && /^authorization$/i.test(sorted.auth.apiKeyName ?? ''))) {
    secretHeader(header, sorted, where, warnings);
    return;
  }
  if (sorted.auth.authType !== AuthType.AUTH_NONE) {
    warnings.add(
      'AUTHORIZATION_HEADER_REPLACED',
      where,
      `The Authorization header set by hand is left out: the auth settings (${sorted.auth.authType}) send their own, as in Postman.`,
    );
    return;
  }
  const auth = authorizationAuth(value, where, warnings);
  if (auth === undefined) {
    warnings.add('HEADER_SKIPPED', where, 'The Authorization header is left out: its Basic credentials are not the Base64 of user:password (RFC 7617).');
    return;
  }
  sorted.auth = auth;
  warnings.add(
    'HEADER_AS_AUTH',
    where,
    `The Authorization header became the auth settings (${auth.authType}): its credential is kept as a secret, not as a header.`,
  );
}

/**
 * An API-key header: the auth settings when there are none yet; otherwise a secret header (a key in clear is sealed,
 * a `{{variable}}` asked for with the import), never a plain one: both credentials are sent.
 */
function apiKeyHeader(header: Header, sorted: SortedHeaders, where: string, warnings: Warnings): void {
  if (sorted.auth.authType === AuthType.AUTH_NONE) {
    sorted.auth = apiKeyAuth(header.header, ApiKeyIn.HEADER, header.value, `${where}, header ${header.header}`, warnings, where);
    warnings.add('HEADER_AS_AUTH', where, `The ${header.header} header became the auth settings (AUTH_API_KEY): its key is kept as a secret, not as a header.`);
  } else if (header.value !== '') {
    secretHeader(header, sorted, where, warnings);
  } else {
    keepHeader(header, sorted, where, warnings);
  }
}

/** A credential header that is not the auth settings': a secret header (SECRET_HEADER), its value sealed or asked for. */
function secretHeader(header: Header, sorted: SortedHeaders, where: string, warnings: Warnings): void {
  keepHeader(secretHeaderOf(header.header, header.value, `${where}, header ${header.header}`), sorted, where, warnings);
  if (!isExportedSecretHeader(header.header, header.value)) {
    warnings.add(
      'SECRET_HEADER',
      where,
      `The ${header.header} header is kept as a secret header (sealed, shown as <SECRET>) beside the auth settings (${sorted.auth.authType}): both are sent.`,
    );
  }
}

/** A plain header, when a connector can hold it. */
export function keepHeader(header: Header, sorted: SortedHeaders, where: string, warnings: Warnings): void {
  const problem = headerProblem(header);
  if (problem !== undefined) warnings.add('HEADER_SKIPPED', where, `The header ${JSON.stringify(leadingName(header.header))} is left out: ${problem}.`);
  else if (sorted.headers.length >= LIMITS.headers)
    warnings.add('HEADER_SKIPPED', where, `The headers past the ${LIMITS.headers}th are left out: a connector has at most ${LIMITS.headers}.`);
  else sorted.headers.push(header);
}

/** A header that is no auth setting; one that may hold a credential (a session cookie) is kept with a warning. */
function keepPlainHeader(header: Header, sorted: SortedHeaders, where: string, warnings: Warnings): void {
  if (MAY_HOLD_CREDENTIAL.test(header.header) && header.value !== '') warnings.add('HEADER_MAY_HOLD_CREDENTIAL', where, mayHoldCredential(header.header));
  keepHeader(header, sorted, where, warnings);
}

/** The headers sorted out, starting from the auth settings the `auth` objects give (`auth`). */
/**
 * The Authorization headers come first, whatever their place: an API-key header before them is then a second
 * credential (a secret header), not the auth settings that would crowd Authorization out. A header holding the
 * exporter's variable for a secret header (`{{SECRET_X_TENANT}}`) is that secret header.
 */
export function sortHeaders(headers: Header[], auth: AuthSettings, where: string, warnings: Warnings): SortedHeaders {
  const sorted: SortedHeaders = { headers: [], contentType: undefined, auth };
  const isAuthorization = (header: Header) => header.header.toLowerCase() === 'authorization';
  for (const header of [...headers.filter(isAuthorization), ...headers.filter((header) => !isAuthorization(header))]) {
    const name = header.header.toLowerCase();
    if (isExportedSecretHeader(header.header, header.value)) secretHeader(header, sorted, where, warnings);
    else if (name === 'authorization') authorizationHeader(header, sorted, where, warnings);
    else if (name === 'content-type' && sorted.contentType === undefined) sorted.contentType = header.value;
    else if (name === 'content-type') warnings.add('HEADER_SKIPPED', where, 'A second Content-Type header is left out: the first one gives the media type.');
    else if (isApiKeyHeaderName(header.header) && headerProblem(header) === undefined) apiKeyHeader(header, sorted, where, warnings);
    else keepPlainHeader(header, sorted, where, warnings);
  }
  return sorted;
}

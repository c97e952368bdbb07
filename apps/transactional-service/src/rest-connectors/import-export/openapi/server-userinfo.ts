import { AuthType, isBasicCredentials } from '@app/domain';
import { AuthSettings, ImportSourceError, ImportWarning, NO_AUTH } from '../connector-draft';
import { warning } from './warnings';

/** `scheme://user:password@` (or `//user:password@`) at the start of a URL: group 1 is up to `//`, group 2 the user info. */
const USER_INFO = /^((?:[a-z][a-z0-9+.-]*:)?\/\/)([^/?#]*)@/i;

/** The URL without its user info, and the user info (still percent-encoded), if it had one. */
export function splitUserInfo(url: string): { url: string; userInfo?: string } {
  const match = USER_INFO.exec(url);
  return match ? { url: match[1] + url.slice(match[0].length), userInfo: match[2] } : { url };
}

/** User info however a URL is written: after `scheme://`, `//`, or a bare `user:password@host` (read as a scheme). */
const ANY_USER_INFO = /^((?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?)[^/?#]*@/i;

/**
 * A URL as a message may quote it: never with a user name or password (however it is written), nor its query (an API
 * key or `access_token` may be in it); `?…` says there was one.
 */
export function shownUrl(url: string): string {
  return url.replace(ANY_USER_INFO, '$1').replace(/\?[^#]*/, '?…');
}

/**
 * User info in a server URL (`https://user:password@host`) is never kept in the connector URL, where it would be
 * stored and shown in clear: it becomes basic auth (basicToken = Base64 of `user:password`, as the cURL and Postman
 * importers make it) when the operation has no other auth, and is left out otherwise.
 */
export function userInfoAuth(userInfo: string | undefined, auth: AuthSettings, where: string, warnings: ImportWarning[]): AuthSettings {
  if (userInfo === undefined) return auth;
  if (auth.authType !== AuthType.AUTH_NONE) {
    warnings.push(
      warning('SERVER_USERINFO', where, `the user info in the server URL is left out: the security scheme (${auth.authType}) authenticates the call`),
    );
    return auth;
  }
  const declared = 'server URL user info';
  const basic = { ...NO_AUTH, authType: AuthType.AUTH_BASIC };
  const text = decoded(userInfo);
  const colon = text.indexOf(':');
  if (colon === -1 || text.includes('{')) {
    // No password, or a server variable in it: the user and the password are asked for apart, the user when it is written out.
    const user = colon === -1 ? text : text.slice(0, colon);
    warnings.push(warning('SERVER_USERINFO', where, 'the user info in the server URL became basic auth settings: not in the URL'));
    return {
      ...basic,
      credentials: [
        user.includes('{') ? { field: 'basicUsername', where: declared } : { field: 'basicUsername', value: user, where: declared },
        { field: 'basicPassword', where: declared },
      ],
    };
  }
  const token = Buffer.from(text, 'utf8').toString('base64');
  if (!text.isWellFormed() || !isBasicCredentials(token)) {
    throw new ImportSourceError(where, 'the user name or password of the server URL holds a control character, which HTTP Basic cannot carry (RFC 7617)');
  }
  warnings.push(warning('SERVER_USERINFO', where, 'the user info in the server URL became basic auth settings: kept as a secret, not in the URL'));
  return { ...basic, credentials: [{ field: 'basicToken', value: token, where: declared }] };
}

/** User info is percent-encoded in a URL (RFC 3986); a malformed escape is taken as written. */
function decoded(userInfo: string): string {
  try {
    return decodeURIComponent(userInfo);
  } catch {
    return userInfo;
  }
}

import { ApiKeyIn, AuthType } from '@app/domain';
import { AuthSettings } from '../connector-draft';
import { basicSettings } from './auth';
import { apiKeyAuth } from './headers';
import { joinUrl, splitUrl } from './url';
import { maskVariables, variablesIn } from './variables';
import { Warnings } from './warnings';

/** Query parameter names that carry an API key. */
const API_KEY_PARAMETER = /^(?:api[-_]?key|apikey|api[-_]?token|auth[-_]?token|access[-_]?token|subscription[-_]?key)$/i;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Percent-decoded text (in a query, `+` is a space); text that does not decode stays as written. */
function decoded(text: string, inQuery = false): string {
  try {
    return decodeURIComponent(inQuery ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
}

/** `text` cut at each `separator` that stands outside a `{{variable}}`. */
function cutOutsideVariables(text: string, separator: string): string[] {
  const masked = maskVariables(text);
  const pieces: string[] = [];
  let start = 0;
  for (let at = masked.indexOf(separator); at >= 0; at = masked.indexOf(separator, at + 1)) {
    pieces.push(text.slice(start, at));
    start = at + 1;
  }
  return [...pieces, text.slice(start)];
}

export interface UrlAndAuth {
  url: string;
  auth: AuthSettings;
}

/** One query parameter: its place in the auth settings when it carries an API key, or itself (its key in clear replaced by a variable). */
function queryParameterAuth(parameter: string, state: UrlAndAuth, where: string, warnings: Warnings): string[] {
  const [rawName, ...rest] = cutOutsideVariables(parameter, '=');
  const name = decoded(rawName, true);
  if (!API_KEY_PARAMETER.test(name)) return [parameter];
  const value = decoded(rest.join('='), true);
  if (state.auth.authType === AuthType.AUTH_NONE) {
    state.auth = apiKeyAuth(name, ApiKeyIn.QUERY, value, `${where}, query ${name}`, warnings, where);
    warnings.add(
      'QUERY_AS_AUTH',
      where,
      `The query parameter ${name} became the auth settings (AUTH_API_KEY, QUERY): its key is kept as a secret, not in the URL.`,
    );
    return [];
  }
  if (value === '' || variablesIn(value).length > 0) return [parameter];
  warnings.add(
    'SECRET_REPLACED_BY_VARIABLE',
    where,
    `The query parameter ${name} holds a key in clear while the auth settings are ${state.auth.authType}: its value is now {{${name}}}.`,
  );
  return [`${rawName}={{${name}}}`];
}

/** API keys in the query: the auth settings when there are none yet, else replaced by variables (a URL is stored and shown as it is). */
export function queryAuth(state: UrlAndAuth, where: string, warnings: Warnings): UrlAndAuth {
  const pieces = splitUrl(state.url);
  if (pieces.query.length <= 1) return state;
  const result = { ...state };
  const kept = cutOutsideVariables(pieces.query.slice(1), '&').flatMap((parameter) => queryParameterAuth(parameter, result, where, warnings));
  return { ...result, url: joinUrl({ ...pieces, query: kept.length === 0 ? '' : `?${kept.join('&')}` }) };
}

/** User info in the URL (`https://user:password@host`): basic auth when there is none yet, else removed; never kept in the URL. */
export function userinfoAuth(state: UrlAndAuth, where: string, warnings: Warnings): UrlAndAuth {
  const pieces = splitUrl(state.url);
  const masked = maskVariables(pieces.origin);
  const schemeLength = SCHEME.exec(masked)?.[0].length ?? 0;
  const at = masked.lastIndexOf('@');
  if (at < schemeLength) return state;
  const url = joinUrl({ ...pieces, origin: pieces.origin.slice(0, schemeLength) + pieces.origin.slice(at + 1) });
  if (state.auth.authType !== AuthType.AUTH_NONE) {
    warnings.add('USERINFO_AS_AUTH', where, `The user info in the URL is removed: the auth settings (${state.auth.authType}) authenticate the request.`);
    return { ...state, url };
  }
  const [user, ...password] = cutOutsideVariables(pieces.origin.slice(schemeLength, at), ':');
  warnings.add('USERINFO_AS_AUTH', where, 'The user info in the URL became basic auth settings: its credentials are kept as a secret, not in the URL.');
  return { url, auth: basicSettings(decoded(user), decoded(password.join(':')), `${where}, URL user info`, warnings, where) };
}

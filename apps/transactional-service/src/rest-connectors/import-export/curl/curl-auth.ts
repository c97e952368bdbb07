import { ApiKeyIn, AuthType, ImportCredentialField, isBasicCredentials, WHOLE_PLACEHOLDER } from '@app/domain';
import { basicCredentials } from '../basic-credentials';
import { AuthSettings, CredentialDraft, DraftHeader, ImportSourceError, isExportedSecretHeader, NO_AUTH, secretHeaderOf } from '../connector-draft';
import { isApiKeyHeaderName, MAY_HOLD_CREDENTIAL, mayHoldCredential } from '../credential-names';
import { ImportWarnings } from '../import-warnings';
import { CurlSettings, WrittenHeader } from './curl-settings';
import { OAuth2Settings } from './oauth2-comment';
import { percentDecoded, ResolvedUrl } from './curl-url';

/** The auth settings of a draft, and the headers and URL left once the secrets are out of them (a credential header as a secret header). */
export interface Auth extends AuthSettings {
  headers: Array<WrittenHeader & Partial<DraftHeader>>;
  url: string;
}

/** A place in the source that carries credentials; `rank` is curl's precedence (lower wins). */
interface Candidate {
  rank: number;
  what: string;
  where: string;
  settings: () => AuthSettings;
  /** The header it comes from: when another credential wins, it stays as a secret header. */
  header?: WrittenHeader;
}

/** A whole value that is one variable: the credential is that variable, given when the connector runs. */
/** The variable the exporter writes for an API key: whatever the header or parameter is called, it is the API key. */
const EXPORTED_API_KEY = '{{API_KEY}}';

/**
 * Credentials become the auth settings or secret headers, never plain headers or query parameters (the secret would be
 * stored in clear). The sources, in curl's precedence: an `Authorization` header (curl sends a custom header instead
 * of its own), then --oauth2-bearer, then -u, then user info in the URL; then an API-key header, then an API-key query
 * parameter. The first wins; another header among them stays a secret header (SECRET_HEADER: a bearer token and an
 * `x-api-key` both go), any other is left out with AUTH_CONFLICT (a connector has one auth setting). A header whose
 * value is the exporter's variable for a secret header (`$SECRET_X_TENANT` for X-Tenant) is that secret header. With
 * the exporter's `# connector-oauth2:` line, that OAuth 2.0 setting wins and the Bearer header below it is the token
 * the connector fetches itself.
 *
 * API-key headers: the names both importers share (isApiKeyHeaderName: X-API-Key, X-RapidAPI-Key, X-Auth-Token,
 * PRIVATE-TOKEN, Ocp-Apim-Subscription-Key, …). A Cookie or Proxy-Authorization header stays a plain header, with
 * HEADER_MAY_HOLD_CREDENTIAL (a connector has no auth setting for it). API-key query parameters: `api_key`, `apikey`,
 * `api-key`, `apiKey`, Google's `key` and `access_token` (RFC 6750's token in the query). Either, whatever its name, when its value is `$API_KEY` (the exporter's). A
 * name taken for an API key by mistake costs nothing on the wire: the key is sent under the same name, where declared.
 */
export function readAuth(
  settings: CurlSettings,
  headers: WrittenHeader[],
  url: ResolvedUrl,
  urlLine: number,
  oauth2: OAuth2Settings | undefined,
  warnings: ImportWarnings,
): Auth {
  const candidates: Candidate[] = [];
  if (oauth2) candidates.push(oauth2Candidate(oauth2));
  /** The headers that are credentials: each one's candidate, or null for one that is not sent as written. */
  const taken = new Map<WrittenHeader, Candidate | null>();
  for (const header of headers) {
    if (isExportedSecretHeader(header.header, header.value)) continue;
    const candidate = headerCandidate(header, warnings);
    if (candidate === undefined) {
      if (MAY_HOLD_CREDENTIAL.test(header.header)) {
        warnings.push({ code: 'HEADER_MAY_HOLD_CREDENTIAL', where: `line ${header.line}, -H ${header.header}`, message: mayHoldCredential(header.header) });
      }
      continue;
    }
    // Below the OAuth 2.0 comment, the Bearer header stands for the token the connector gets itself.
    const fetched = oauth2 && candidate.rank === 1 && /^bearer\b/i.test(header.value);
    if (!fetched) candidates.push(candidate);
    taken.set(header, fetched ? null : candidate);
  }
  candidates.push(...optionCandidates(settings, url.userInfo));
  const { rest, found } = queryCandidates(url.url, urlLine);
  candidates.push(...found);
  candidates.sort((a, b) => a.rank - b.rank);
  const [winner, ...others] = candidates;
  for (const other of others) {
    warnings.push(
      other.header
        ? {
            code: 'SECRET_HEADER',
            where: other.where,
            message: `${other.what} is kept as a secret header (sealed, shown as <SECRET>): the connector's auth setting is ${winner.what}, which comes first (as curl would send it).`,
          }
        : {
            code: 'AUTH_CONFLICT',
            where: other.where,
            message: `${other.what} is left out, its secret not imported: the connector has one auth setting, and ${winner.what} comes first (as curl would send it).`,
          },
    );
  }
  const plainHeaders = headers.flatMap((header): Auth['headers'] => {
    if (isExportedSecretHeader(header.header, header.value))
      return [{ ...header, ...secretHeaderOf(header.header, header.value, `line ${header.line}, -H ${header.header}`) }];
    const candidate = taken.get(header);
    if (candidate === undefined) return [header];
    if (candidate === null || candidate === winner) return [];
    return [{ ...header, ...secretHeaderOf(header.header, header.value, candidate.where) }];
  });
  const auth = winner ? winner.settings() : NO_AUTH;
  for (const scheme of settings.otherAuthSchemes) {
    warnings.push({
      code: 'UNSUPPORTED_AUTH_SCHEME',
      where: `line ${scheme.line}, ${scheme.written}`,
      message: `${scheme.written} asks curl for another auth scheme: the connector sends its own (${auth.authType}) instead.`,
    });
  }
  return { ...auth, headers: plainHeaders, url: rest };
}

export function credentialOf(field: ImportCredentialField, text: string, where: string): CredentialDraft {
  const variable = WHOLE_PLACEHOLDER.exec(text.trim());
  return variable ? { field, variable: variable[1], where } : { field, value: text, where };
}

function oauth2Candidate(oauth2: OAuth2Settings): Candidate {
  return {
    rank: 0,
    what: 'the # connector-oauth2 comment',
    where: `line ${oauth2.line}`,
    settings: () => ({ ...NO_AUTH, authType: AuthType.AUTH_OAUTH2, grantType: oauth2.grantType, oauthUrl: oauth2.oauthUrl, credentials: oauth2.credentials }),
  };
}

function headerCandidate(header: WrittenHeader, warnings: ImportWarnings): Candidate | undefined {
  const where = `line ${header.line}, -H ${header.header}`;
  if (/^authorization$/i.test(header.header))
    return { rank: 1, what: `the Authorization header (line ${header.line})`, where, settings: () => authorizationSettings(header, where, warnings), header };
  if (!isApiKeyHeader(header)) return undefined;
  return {
    rank: 5,
    what: `the ${header.header} header (line ${header.line})`,
    where,
    settings: () => apiKeySettings(header.header, ApiKeyIn.HEADER, header.value, where),
    header,
  };
}

function isApiKeyHeader({ header, value }: WrittenHeader): boolean {
  return isApiKeyHeaderName(header) || value === EXPORTED_API_KEY;
}

/** `Basic <token>` and `Bearer <token>` are those auth types; another scheme is kept whole as an API key named Authorization. */
function authorizationSettings(header: WrittenHeader, where: string, warnings: ImportWarnings): AuthSettings {
  const [, scheme, rest = ''] = /^(\S*)\s*(.*)$/s.exec(header.value)!;
  const token = rest.trim();
  if (/^basic$/i.test(scheme)) {
    if (!WHOLE_PLACEHOLDER.test(token) && !isBasicCredentials(token)) {
      throw new ImportSourceError(where, 'the Basic credentials are not the Base64 of user-id:password (RFC 7617)');
    }
    return { ...NO_AUTH, authType: AuthType.AUTH_BASIC, credentials: [credentialOf('basicToken', token, where)] };
  }
  if (/^bearer$/i.test(scheme)) return { ...NO_AUTH, authType: AuthType.AUTH_BEARER, credentials: [credentialOf('bearerToken', token, where)] };
  warnings.push({
    code: 'AUTHORIZATION_AS_API_KEY',
    where,
    message: `The Authorization header is neither Basic nor Bearer: it is kept whole as an API key sent in the Authorization header.`,
  });
  return apiKeySettings('Authorization', ApiKeyIn.HEADER, header.value, where);
}

function apiKeySettings(name: string, apiKeyIn: ApiKeyIn, value: string, where: string): AuthSettings {
  return { ...NO_AUTH, authType: AuthType.AUTH_API_KEY, apiKeyName: name, apiKeyIn, credentials: [credentialOf('apiKey', value, where)] };
}

function optionCandidates(settings: CurlSettings, userInfo: ResolvedUrl['userInfo']): Candidate[] {
  const candidates: Candidate[] = [];
  const { oauth2Bearer, user } = settings;
  if (oauth2Bearer) {
    const where = `line ${oauth2Bearer.line}, ${oauth2Bearer.written}`;
    candidates.push({
      rank: 2,
      what: oauth2Bearer.written,
      where,
      settings: () => ({ ...NO_AUTH, authType: AuthType.AUTH_BEARER, credentials: [credentialOf('bearerToken', oauth2Bearer.value ?? '', where)] }),
    });
  }
  if (user) {
    const where = `line ${user.line}, ${user.written}`;
    candidates.push({ rank: 3, what: user.written, where, settings: () => basicSettings(user.value ?? '', where) });
  }
  if (userInfo) {
    const where = `line ${userInfo.line}, URL user info`;
    candidates.push({ rank: 4, what: 'the user info in the URL', where, settings: () => basicSettings(userInfo.text, where) });
  }
  return candidates;
}

/**
 * `-u user:password` (or `user:password@` in the URL): AUTH_BASIC with basicToken = Base64(UTF-8 `user:password`), as
 * curl sends it. Without a password (curl would prompt for one), or with a variable in either (`-u $SID:$TOKEN`), the
 * import asks for the user and the password apart, only the one the source does not hold (basicCredentials).
 */
function basicSettings(text: string, where: string): AuthSettings {
  const colon = text.indexOf(':');
  const credentials = colon === -1 ? basicCredentials(text, undefined, where) : basicCredentials(text.slice(0, colon), text.slice(colon + 1), where);
  if (credentials === null) throw new ImportSourceError(where, 'the user name or password holds a control character, which HTTP Basic cannot carry (RFC 7617)');
  return { ...NO_AUTH, authType: AuthType.AUTH_BASIC, credentials };
}

/** API-key query parameters, each a candidate; the URL without any of them (a loser's secret must not stay in it). */
function queryCandidates(url: string, line: number): { rest: string; found: Candidate[] } {
  const match = /^([^?#]*)\?([^#]*)(#.*)?$/s.exec(url);
  if (!match) return { rest: url, found: [] };
  const [, base, query, fragment = ''] = match;
  const found: Candidate[] = [];
  const kept = query.split('&').filter((parameter) => {
    const { name, value } = queryParameter(parameter);
    if (!isApiKeyParameter(name, value)) return true;
    const where = `line ${line}, URL query parameter ${name.slice(0, 40)}`;
    found.push({ rank: 6, what: `the query parameter ${name.slice(0, 40)}`, where, settings: () => apiKeySettings(name, ApiKeyIn.QUERY, value, where) });
    return false;
  });
  return { rest: base + (kept.length > 0 ? `?${kept.join('&')}` : '') + fragment, found };
}

function queryParameter(parameter: string): { name: string; value: string } {
  const equals = parameter.indexOf('=');
  const name = percentDecoded(equals < 0 ? parameter : parameter.slice(0, equals));
  return { name, value: equals < 0 ? '' : percentDecoded(parameter.slice(equals + 1).replace(/\+/g, ' ')) };
}

/** Whether a `name=value` of a query is an API key, which readAuth takes out of the URL into the auth settings. */
export function isApiKeyQueryParameter(parameter: string): boolean {
  const { name, value } = queryParameter(parameter);
  return isApiKeyParameter(name, value);
}

function isApiKeyParameter(name: string, value: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, '');
  return normalized === 'apikey' || name === 'key' || name === 'access_token' || value === EXPORTED_API_KEY;
}

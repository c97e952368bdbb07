import { ApiKeyIn, AuthType, GrantType, ImportCredentialField, apiKeyNameProblem } from '@app/domain';
import { AuthSettings, DraftHeader, ImportWarning, NO_AUTH } from '../connector-draft';
import { ServerBase } from './server-url';
import { shownUrl, splitUserInfo } from './server-userinfo';
import { JsonRecord, arrayOrEmpty, entriesOf, has, isRecord, recordOrEmpty, stringOrUndefined } from './values';
import { warning } from './warnings';

/** A scheme as a connector's auth settings, or why it cannot be one. */
type Supported = { auth: AuthSettings; scopes: string[]; tokenUrlUserInfo?: true; secretHeader?: true };
type Mapped = Supported | { unsupported: string };

/** The auth settings of an operation, and the secret headers its other schemes required with them become. */
export interface Security {
  auth: AuthSettings;
  secretHeaders: DraftHeader[];
}

/** Marks a security scheme the exporter wrote for a secret header: read back as that secret header, never as the auth settings. */
export const SECRET_HEADER_EXTENSION = 'x-connector-secret-header';

/**
 * The operation's `security` (else the document's): each requirement object is one alternative, each of its schemes
 * required together. The connector carries one scheme as its auth settings: the first one it supports, in the
 * document's order (an empty requirement, "no auth", is taken only when no scheme fits). A scheme required with it
 * that sends a header the auth settings do not (an API key in a header; HTTP basic or bearer beside an API key) is a
 * secret header, its value asked for with the import (`credentials.headers`). What it cannot carry is a warning.
 */
export function authOf(document: JsonRecord, operation: JsonRecord, server: ServerBase, where: string, warnings: ImportWarning[]): Security {
  const requirements = arrayOrEmpty(Array.isArray(operation.security) ? operation.security : document.security).filter(isRecord);
  const schemes = recordOrEmpty(recordOrEmpty(document.components).securitySchemes);
  const alternatives = requirements.map((requirement) =>
    entriesOf(requirement).map(([name, scopes]) => ({ name, scopes, mapped: mapScheme(name, schemes, server) })),
  );
  const chosen = alternatives.flat().find((candidate) => 'auth' in candidate.mapped && !candidate.mapped.secretHeader);
  const together = alternatives.find((requirement) => requirement.some((scheme) => scheme === chosen)) ?? exportedSecretHeadersAlone(alternatives);
  const secretHeaders = (together ?? []).flatMap(({ name, mapped }) => (name !== chosen?.name && 'auth' in mapped ? secretHeaderOf(mapped, chosen?.mapped, name) : []));
  reportChoice(alternatives, chosen?.name, secretHeaders, where, warnings);
  if (!chosen || !('auth' in chosen.mapped)) return { auth: NO_AUTH, secretHeaders };
  return { auth: authOfChosen(chosen.name, chosen.scopes, chosen.mapped, where, warnings), secretHeaders };
}

/** Without any other scheme, the first requirement made only of the exporter's secret headers (a connector without auth settings). */
function exportedSecretHeadersAlone<T extends { mapped: Mapped }>(alternatives: T[][]): T[] | undefined {
  return alternatives.find((requirement) => requirement.length > 0 && requirement.every(({ mapped }) => 'auth' in mapped && mapped.secretHeader));
}

/** The header a scheme required with the auth settings sends, as a secret header; none when the auth settings send that header already. */
function secretHeaderOf(mapped: Supported, chosen: Mapped | undefined, name: string): DraftHeader[] {
  const chosenAuth = chosen !== undefined && 'auth' in chosen ? chosen.auth : NO_AUTH;
  const chosenHeader = chosenAuth.authType === AuthType.AUTH_API_KEY ? (chosenAuth.apiKeyIn === ApiKeyIn.HEADER ? chosenAuth.apiKeyName : null) : 'Authorization';
  const sendsNone = chosenAuth.authType === AuthType.AUTH_NONE;
  const { authType, apiKeyIn, apiKeyName } = mapped.auth;
  const header = authType === AuthType.AUTH_API_KEY ? (apiKeyIn === ApiKeyIn.HEADER ? apiKeyName : null) : authType === AuthType.AUTH_OAUTH2 ? null : 'Authorization';
  if (header === null || (!sendsNone && header.toLowerCase() === chosenHeader?.toLowerCase())) return [];
  return [{ header, value: '', secret: true, where: `security scheme ${name}` }];
}

function authOfChosen(name: string, scopesGiven: unknown, mapped: Supported, where: string, warnings: ImportWarning[]): AuthSettings {
  const chosen = { name, scopes: scopesGiven, mapped };
  const scopes = arrayOrEmpty(chosen.scopes).filter((scope): scope is string => typeof scope === 'string');
  if (chosen.mapped.auth.authType === AuthType.AUTH_OAUTH2 && scopes.length) {
    warnings.push(
      warning(
        'OAUTH2_SCOPES_NOT_SENT',
        where,
        `the scopes ${scopes.slice(0, 10).join(', ')} of ${chosen.name} are not asked for: a connector's token request sends no scope`,
      ),
    );
  }
  if (chosen.mapped.tokenUrlUserInfo) {
    warnings.push(
      warning(
        'TOKEN_URL_USERINFO',
        where,
        `the token URL of ${chosen.name.slice(0, 100)} holds a user name and password: left out of oauthUrl, where they would be stored in clear; ` +
          'a connector authenticates to the token endpoint with its clientId and clientSecret (send them in credentials)',
      ),
    );
  }
  return chosen.mapped.auth;
}

function reportChoice(
  alternatives: Array<Array<{ name: string; mapped: Mapped }>>,
  chosen: string | undefined,
  secretHeaders: DraftHeader[],
  where: string,
  warnings: ImportWarning[],
): void {
  for (const candidate of alternatives.flat()) {
    if ('unsupported' in candidate.mapped && !chosen) {
      warnings.push(
        warning('UNSUPPORTED_SECURITY_SCHEME', where, `${candidate.name.slice(0, 100)}: ${candidate.mapped.unsupported}; the connector is imported without it`),
      );
    }
  }
  const names = alternatives.map((requirement) => (requirement.length ? requirement.map((scheme) => scheme.name).join(' and ') : 'none'));
  if (chosen && alternatives.length > 1) {
    warnings.push(warning('SECURITY_ALTERNATIVES', where, `the API accepts ${names.join(' or ')}: the connector uses ${chosen}`));
  }
  const together = alternatives.find((requirement) => requirement.some((scheme) => scheme.name === chosen));
  // The exporter's own secret headers are no loss: nothing to warn about.
  const others = (together ?? []).filter(({ name, mapped }) => name !== chosen && !('auth' in mapped && mapped.secretHeader));
  if (chosen && together && others.length > 0) {
    const asHeaders = secretHeaders.map(({ where: declared }) => declared!.replace(/^security scheme /, ''));
    const left = others.filter(({ name }) => !asHeaders.includes(name)).map(({ name }) => name);
    const carried =
      asHeaders.length === 0
        ? `only ${chosen}`
        : `${chosen}, and ${asHeaders.join(' and ')} as ${asHeaders.length > 1 ? 'secret headers' : 'a secret header'}${left.length > 0 ? ` (not ${left.join(' and ')})` : ''}`;
    warnings.push(warning('SECURITY_SCHEMES_COMBINED', where, `the API wants ${names[alternatives.indexOf(together)]} together: the connector carries ${carried}`));
  }
}

function mapScheme(name: string, schemes: JsonRecord, server: ServerBase): Mapped {
  const scheme = has(schemes, name) ? recordOrEmpty(schemes[name]) : undefined;
  if (!scheme) return { unsupported: 'no such security scheme is declared' };
  const declared = `security scheme ${name}`;
  if (scheme.type === 'http') return httpScheme(scheme, declared);
  if (scheme.type === 'apiKey') {
    const mapped = apiKeyScheme(scheme, declared);
    return scheme[SECRET_HEADER_EXTENSION] === true && 'auth' in mapped ? { ...mapped, secretHeader: true } : mapped;
  }
  if (scheme.type === 'oauth2') return oauth2Scheme(scheme, declared, server);
  return { unsupported: `a connector cannot use ${String(scheme.type).slice(0, 40)} security` };
}

function httpScheme(scheme: JsonRecord, declared: string): Mapped {
  const kind = String(scheme.scheme).toLowerCase();
  // The user and the password are asked for apart: the service makes basicToken from them.
  if (kind === 'basic') return { auth: auth(AuthType.AUTH_BASIC, declared, ['basicUsername', 'basicPassword']), scopes: [] };
  if (kind === 'bearer') return { auth: auth(AuthType.AUTH_BEARER, declared, ['bearerToken']), scopes: [] };
  return { unsupported: `a connector cannot use HTTP ${kind.slice(0, 40)} authentication (basic and bearer only)` };
}

function apiKeyScheme(scheme: JsonRecord, declared: string): Mapped {
  const name = stringOrUndefined(scheme.name);
  const placement = scheme.in === 'header' ? ApiKeyIn.HEADER : scheme.in === 'query' ? ApiKeyIn.QUERY : undefined;
  if (!name || !placement) return { unsupported: `a connector sends an API key in a header or the query, not in ${String(scheme.in).slice(0, 40)}` };
  // The service's own rule: a header the HTTP client or the connector's settings set cannot carry the key.
  const problem = apiKeyNameProblem(name, placement);
  if (problem) return { unsupported: `its name ${name.slice(0, 100)} ${problem}` };
  return { auth: { ...auth(AuthType.AUTH_API_KEY, declared, ['apiKey']), apiKeyName: name, apiKeyIn: placement }, scopes: [] };
}

/** Client credentials first (no user involved), then password; the other flows need a browser. */
function oauth2Scheme(scheme: JsonRecord, declared: string, server: ServerBase): Mapped {
  const flows = recordOrEmpty(scheme.flows);
  for (const [flow, grantType, fields] of [
    ['clientCredentials', GrantType.CLIENT_CREDENTIALS, ['clientId', 'clientSecret']],
    ['password', GrantType.PASSWORD, ['clientId', 'authUsername', 'authPassword']],
  ] as const) {
    if (!isRecord(flows[flow])) continue;
    const tokenUrl = absoluteTokenUrl(flows[flow].tokenUrl, server);
    if (!tokenUrl) return { unsupported: `its token URL ${shownUrl(String(flows[flow].tokenUrl)).slice(0, 100)} is not an absolute http(s) URL` };
    const scopes = Object.keys(recordOrEmpty(flows[flow].scopes));
    // User info in the token URL would be stored, and shown, in clear: never kept (the warning says so).
    const { url, userInfo } = splitUserInfo(tokenUrl);
    const mapped = { auth: { ...auth(AuthType.AUTH_OAUTH2, declared, [...fields]), grantType, oauthUrl: url }, scopes };
    return userInfo === undefined ? mapped : { ...mapped, tokenUrlUserInfo: true };
  }
  return {
    unsupported: `a connector gets OAuth 2.0 tokens by client credentials or password, not by ${Object.keys(flows).join(', ').slice(0, 100) || 'no flow'}`,
  };
}

/** OpenAPI allows a token URL relative to the server; resolved against an absolute server only. */
function absoluteTokenUrl(tokenUrl: unknown, server: ServerBase): string | undefined {
  if (typeof tokenUrl !== 'string') return undefined;
  const authority = /^https?:\/\/([^/?#]+)/i.exec(tokenUrl);
  if (authority) return authority[1].includes('{') ? undefined : tokenUrl;
  if (!server.hostIsFixed || /^[a-z][a-z0-9+.-]*:/i.test(tokenUrl)) return undefined;
  try {
    return new URL(tokenUrl, `${server.url}/`).href;
  } catch {
    return undefined;
  }
}

/** The credentials an auth type needs: the document holds no values, so each is asked for (neither value nor variable). */
function auth(authType: AuthType, declared: string, fields: ImportCredentialField[]): AuthSettings {
  return { ...NO_AUTH, authType, credentials: fields.map((field) => ({ field, where: declared })) };
}

import { ApiKeyIn, AuthType, GrantType, HTTP_TOKEN, ImportCredentialField, isBasicCredentials } from '@app/domain';
import { AuthSettings, CredentialDraft, CredentialField, NO_AUTH } from '../connector-draft';
import { Json, JsonNode } from './postman-json';
import { variablesIn, wholeVariable } from './variables';
import { Warnings } from './warnings';

/** An `auth` object that applies (not `inherit`), and the level that declares it: `collection`, `folder "Users"`, `item "Users / Get"`. */
export interface DeclaredAuth {
  auth: JsonNode;
  where: string;
}

/** The level's own auth, or undefined when it inherits its parent's (no `auth`, `null`, or type `inherit`). */
export function declaredAuth(owner: JsonNode, where: string): DeclaredAuth | undefined {
  const auth = owner.object('auth');
  const type = auth?.string('type');
  return auth === undefined || type === undefined || type === 'inherit' ? undefined : { auth, where };
}

/** One credential from the text that holds it: its value, or the variable it names (a warning when it mixes both). */
export function credentialOf(field: ImportCredentialField, text: string | undefined, where: string, warnings: Warnings, warnAt: string): CredentialDraft {
  if (!text) return { field, where };
  const names = variablesIn(text);
  if (names.length === 0) return { field, value: text, where };
  if (wholeVariable(text) === undefined) {
    warnings.add('CREDENTIAL_FROM_VARIABLES', warnAt, `${field} (${where}) mixes text and {{${names[0]}}}: give its whole value when importing.`);
  }
  return { field, variable: names[0], where };
}

/** An auth type's attributes: v2.1's `[{ key, value }]` or v2.0's `{ key: value }` (the one difference between them). */
class AuthAttributes {
  private constructor(
    private readonly values: Map<string, Json>,
    private readonly at: JsonNode,
    private readonly type: string,
  ) {}

  static of(auth: JsonNode, type: string): AuthAttributes {
    const values = new Map<string, Json>();
    if (Array.isArray(auth.member(type))) {
      for (const attribute of auth.objects(type)) {
        const key = attribute.string('key');
        if (key !== undefined && !values.has(key)) values.set(key, attribute.member('value') ?? null);
      }
    } else if (auth.has(type)) {
      // Object.entries, into a Map: a `__proto__` attribute stays a name like any other.
      for (const [key, value] of Object.entries(auth.object(type)!.value)) values.set(key, value);
    }
    return new AuthAttributes(values, auth, type);
  }

  text(key: string): string | undefined {
    const value = this.values.get(key);
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw this.at.fail(`${this.at.pathOf(this.type)} ${JSON.stringify(key)} must be text`);
  }

  /** Whether the attribute holds anything (of any type): a setting that would change what is sent. */
  isSet(key: string): boolean {
    const value = this.values.get(key);
    return value !== undefined && value !== null && value !== '' && value !== false;
  }
}

type AuthReader = (attributes: AuthAttributes, where: string, warnings: Warnings, at: string) => AuthSettings;

function unsupported(warnings: Warnings, at: string, what: string): AuthSettings {
  warnings.add(
    'AUTH_UNSUPPORTED',
    at,
    `${what}: imported without auth (AUTH_NONE). A connector has basic, bearer, API key and OAuth 2.0 (client credentials, password) auth: set one after importing.`,
  );
  return NO_AUTH;
}

/**
 * Basic auth from a username and password: basicToken is the Base64 of `username:password` (RFC 7617, UTF-8), which
 * only values can make. With a variable in either, the import asks for the two apart (basicUsername, basicPassword),
 * only the one the collection does not hold, and the service makes the token.
 */
export function basicSettings(username: string, password: string, where: string, warnings: Warnings, at: string): AuthSettings {
  const settings = { ...NO_AUTH, authType: AuthType.AUTH_BASIC };
  if (variablesIn(password).length > 0 || variablesIn(username).length > 0) {
    // An empty username is one (Postman sends `:password`); an empty password too.
    const part = (field: 'basicUsername' | 'basicPassword', text: string): CredentialDraft =>
      text === '' ? { field, value: '', where } : credentialOf(field, text, where, warnings, at);
    return { ...settings, credentials: [part('basicUsername', username), part('basicPassword', password)] };
  }
  const token = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
  if (!`${username}${password}`.isWellFormed() || !isBasicCredentials(token)) {
    return unsupported(warnings, at, `Basic auth (${where}) whose username or password holds control characters or lone surrogates`);
  }
  return { ...settings, credentials: [{ field: 'basicToken', value: token, where }] };
}

const basic: AuthReader = (attributes, where, warnings, at) =>
  basicSettings(attributes.text('username') ?? '', attributes.text('password') ?? '', where, warnings, at);

const bearer: AuthReader = (attributes, where, warnings, at) => ({
  ...NO_AUTH,
  authType: AuthType.AUTH_BEARER,
  credentials: [credentialOf('bearerToken', attributes.text('token'), where, warnings, at)],
});

const apiKey: AuthReader = (attributes, where, warnings, at) => {
  const name = attributes.text('key') ?? '';
  const place = (attributes.text('in') ?? 'header').toLowerCase();
  if (place !== 'header' && place !== 'query') return unsupported(warnings, at, `API key auth (${where}) sent in ${JSON.stringify(place)}`);
  if (name === '' || variablesIn(name).length > 0 || (place === 'header' && !HTTP_TOKEN.test(name))) {
    return unsupported(warnings, at, `API key auth (${where}) whose key name is empty, holds a {{variable}} or is no header name`);
  }
  return {
    ...NO_AUTH,
    authType: AuthType.AUTH_API_KEY,
    apiKeyName: name,
    apiKeyIn: place === 'query' ? ApiKeyIn.QUERY : ApiKeyIn.HEADER,
    credentials: [credentialOf('apiKey', attributes.text('value'), where, warnings, at)],
  };
};

/** Postman's grant_type values a connector can carry (Postman's default grant is authorization_code). */
function grantTypeOf(grant: string): GrantType | undefined {
  if (grant === 'client_credentials') return GrantType.CLIENT_CREDENTIALS;
  return grant === 'password_credentials' ? GrantType.PASSWORD : undefined;
}

/** OAuth 2.0 settings that change what is sent, and that a connector has no field for. */
function oauthSettingsNotCarried(attributes: AuthAttributes): string[] {
  const notCarried = ['scope', 'audience', 'resource'].filter((key) => attributes.isSet(key));
  if (attributes.text('client_authentication') === 'body')
    notCarried.push('client_authentication (body: a connector sends the client credentials as Basic auth)');
  if (attributes.text('addTokenTo') === 'queryParams') notCarried.push('addTokenTo (queryParams: a connector sends the token in the Authorization header)');
  const prefix = attributes.text('headerPrefix');
  if (prefix !== undefined && prefix !== '' && prefix !== 'Bearer') notCarried.push('headerPrefix (a connector sends Bearer)');
  return notCarried;
}

function oauthCredentials(attributes: AuthAttributes, grantType: GrantType, where: string, warnings: Warnings, at: string): CredentialDraft[] {
  const credential = (field: CredentialField, key: string) => credentialOf(field, attributes.text(key), where, warnings, at);
  if (grantType === GrantType.CLIENT_CREDENTIALS) return [credential('clientId', 'clientId'), credential('clientSecret', 'clientSecret')];
  const withPassword = [credential('clientId', 'clientId'), credential('authUsername', 'username'), credential('authPassword', 'password')];
  return attributes.text('clientSecret') ? [...withPassword, credential('clientSecret', 'clientSecret')] : withPassword;
}

const oauth2: AuthReader = (attributes, where, warnings, at) => {
  const grant = attributes.text('grant_type') ?? 'authorization_code';
  const grantType = grantTypeOf(grant);
  if (grantType === undefined) {
    warnings.add(
      'OAUTH2_GRANT_UNSUPPORTED',
      at,
      `OAuth 2.0 (${where}) with grant ${JSON.stringify(grant)}: a connector gets tokens by client credentials or password only. Imported without auth (AUTH_NONE).`,
    );
    return NO_AUTH;
  }
  const tokenUrl = attributes.text('accessTokenUrl')?.trim();
  if (!tokenUrl) return unsupported(warnings, at, `OAuth 2.0 (${where}) without an access token URL`);
  const notCarried = oauthSettingsNotCarried(attributes);
  if (notCarried.length > 0) warnings.add('AUTH_SETTINGS_NOT_IMPORTED', at, `OAuth 2.0 (${where}): not imported: ${notCarried.join(', ')}.`);
  return {
    ...NO_AUTH,
    authType: AuthType.AUTH_OAUTH2,
    grantType,
    oauthUrl: tokenUrl,
    credentials: oauthCredentials(attributes, grantType, where, warnings, at),
  };
};

const READERS: ReadonlyMap<string, AuthReader> = new Map([
  ['basic', basic],
  ['bearer', bearer],
  ['apikey', apiKey],
  ['oauth2', oauth2],
]);

/**
 * The auth settings of a declared `auth` (none declared at any level: AUTH_NONE). `at` is where the warnings go:
 * the level that declares the auth, so that a collection's auth is warned about once.
 */
export function authSettingsOf(declared: DeclaredAuth | undefined, warnings: Warnings): AuthSettings {
  if (declared === undefined) return NO_AUTH;
  const type = declared.auth.string('type')!;
  if (type === 'noauth') return NO_AUTH;
  const where = `${declared.where}, auth ${type}`;
  const reader = READERS.get(type);
  if (reader === undefined) return unsupported(warnings, declared.where, `${JSON.stringify(type).slice(0, 40)} auth (${declared.where})`);
  return reader(AuthAttributes.of(declared.auth, type), where, warnings, declared.where);
}

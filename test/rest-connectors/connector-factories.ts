import { randomUUID } from 'node:crypto';
import { Tenant } from '../support/fixtures';
import { TestApp } from '../support/test-app';
import { bearer, signToken, TokenClaims } from '../support/tokens';

/** The write body of create and update (docs/api-contract.md, "Rest connectors"). Every field optional so tests can break it. */
export interface ConnectorWriteBody {
  name?: unknown;
  description?: unknown;
  requestType?: unknown;
  url?: unknown;
  headers?: unknown;
  contentType?: unknown;
  authType?: unknown;
  grantType?: unknown;
  basicToken?: unknown;
  bearerToken?: unknown;
  clientId?: unknown;
  clientSecret?: unknown;
  oauthUrl?: unknown;
  authUsername?: unknown;
  authPassword?: unknown;
  apiKeyName?: unknown;
  apiKeyIn?: unknown;
  apiKey?: unknown;
  body?: unknown;
  output?: unknown;
  tags?: unknown;
  [field: string]: unknown;
}

export const UUID_REGEX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ISO_UTC_MILLIS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The keys of the full record, in the order the get operation returns them. */
export const RECORD_KEYS = [
  'uuid',
  'name',
  'description',
  'requestType',
  'url',
  'headers',
  'contentType',
  'authType',
  'grantType',
  'basicToken',
  'bearerToken',
  'clientId',
  'clientSecret',
  'oauthUrl',
  'authUsername',
  'authPassword',
  'apiKeyName',
  'apiKeyIn',
  'apiKey',
  'body',
  'output',
  'tags',
  'flows',
  'updatedAt',
  'updatedBy',
];

/** A valid write body: a GET without authentication, one header, one tag and a name of its own. */
export function aConnectorBody(overrides: ConnectorWriteBody = {}): ConnectorWriteBody {
  return {
    name: `Connector ${randomUUID().slice(0, 8)}`,
    requestType: 'GET',
    url: 'https://api.example.com/items/{{id}}',
    headers: [{ header: 'Accept', value: 'application/json' }],
    contentType: 'NONE',
    authType: 'AUTH_NONE',
    body: '',
    output: '$.data',
    tags: [{ name: 'alpha' }],
    ...overrides,
  };
}

/** An HTTP Basic token as RFC 7617 has it: the Base64 of `user-id:password`. */
export const basicTokenOf = (userId: string, password: string) => Buffer.from(`${userId}:${password}`, 'utf8').toString('base64');

/** A body authenticating with each auth type, every required field set. */
export const withBasicAuth = (overrides: ConnectorWriteBody = {}) => aConnectorBody({ authType: 'AUTH_BASIC', basicToken: 'dXNlcjpwYXNz', ...overrides });
export const withBearerAuth = (overrides: ConnectorWriteBody = {}) =>
  aConnectorBody({ authType: 'AUTH_BEARER', bearerToken: 'bearer-token-value', ...overrides });
export const withClientCredentials = (overrides: ConnectorWriteBody = {}) =>
  aConnectorBody({
    authType: 'AUTH_OAUTH2',
    grantType: 'CLIENT_CREDENTIALS',
    oauthUrl: 'https://auth.example.com/oauth/token',
    clientId: 'client-42',
    clientSecret: 'client-secret-value',
    ...overrides,
  });
export const withApiKey = (overrides: ConnectorWriteBody = {}) =>
  aConnectorBody({ authType: 'AUTH_API_KEY', apiKeyName: 'X-API-Key', apiKeyIn: 'HEADER', apiKey: 'api-key-value', ...overrides });
export const withPasswordGrant = (overrides: ConnectorWriteBody = {}) =>
  aConnectorBody({
    authType: 'AUTH_OAUTH2',
    grantType: 'PASSWORD',
    oauthUrl: 'https://auth.example.com/oauth/token',
    clientId: 'client-42',
    authUsername: 'svc-user',
    authPassword: 'password-value',
    ...overrides,
  });

/** Claims of the writer most tests act as. */
export const ALICE: TokenClaims = {
  scope: 'connectors:write',
  username: 'alice',
  picture: 'https://img.example.com/alice.png',
};

export const aliceToken = () => signToken(ALICE);

/** `/platform-transactional-service/org/{org}/env/{env}/bot/{bot}/rest-connectors` */
export const connectorsPath = (org: string, env: string, bot: string) => `/platform-transactional-service/org/${org}/env/${env}/bot/${bot}/rest-connectors`;

export const tenantPath = (tenant: Tenant) => connectorsPath(tenant.organization.uuid, tenant.environment.uuid, tenant.bot.uuid);

/** Creates a connector through the API (expecting 201) and returns its uuid. */
export async function createConnector(sut: TestApp, tenant: Tenant, token: string, overrides: ConnectorWriteBody = {}): Promise<string> {
  const res = await sut.http.post(tenantPath(tenant)).set(bearer(token)).send(aConnectorBody(overrides));
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.uuid;
}

/** The error body of the contract; `path` is the requested URL. */
export const errorBody = (statusCode: number, error: string, message: unknown, path: string) => ({
  statusCode,
  error,
  message,
  path,
  timestamp: expect.stringMatching(ISO_UTC_MILLIS),
  requestId: expect.any(String),
});

export const connectorNotFound = (uuid: string, bot: string) => `Rest connector ${uuid} not found in bot ${bot}`;
/** The 404 of an active connector's read or write that finds it in the trash: how to restore it. */
export const connectorInTrash = (tenant: Parameters<typeof tenantPath>[0], uuid: string, version: number) =>
  new RegExp(
    `^Rest connector ${uuid} is in the trash \\(deleted on \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z by alice\\): restore it with POST ` +
      `${tenantPath(tenant).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${uuid}/restore \\(If-Match: "v${version}" to restore exactly this version\\), then retry$`,
  );

export const names = (items: Array<{ name: string }>) => items.map((item) => item.name);

/** The secret columns as stored, read with SQL so no entity transformer could decrypt them. */
export async function readStoredSecrets(app: TestApp, uuid: string) {
  const [row] = await app.dataSource.query(
    'SELECT basic_token AS basicToken, bearer_token AS bearerToken, client_secret AS clientSecret, auth_password AS authPassword FROM rest_connectors WHERE uuid = ?',
    [uuid],
  );
  return row as { basicToken: string | null; bearerToken: string | null; clientSecret: string | null; authPassword: string | null };
}

/**
 * FROZEN: never change this file. It is what ConnectorVersions1795564800000 used when it was written (commit 1d99b91):
 * `connectorSnapshot` of libs/domain/src/rest-connectors/connector-snapshot.ts with the secrets' placeholders of
 * connector-secrets.ts then. A record field added later (the API key's) is not in it: readers take a stored snapshot
 * without a field as one whose field is null (`recordedSnapshot`). Change the live code, never this.
 */
import type { ConnectorRow } from './1795564800000-table-rows';

/** The columns a snapshot shows. */
type SnapshotSource = Omit<
  ConnectorRow,
  'botUuid' | 'nameKey' | 'activeNameKey' | 'createdAt' | 'createdBy' | 'updatedByImage' | 'deletedAt' | 'deletedBy' | 'version'
>;

const SECRET_PLACEHOLDERS = {
  basicToken: '<BASIC_TOKEN>',
  bearerToken: '<BEARER_TOKEN>',
  clientSecret: '<CLIENT_SECRET>',
  authPassword: '<PASSWORD>',
} as const;

const SECRET_FIELDS = Object.keys(SECRET_PLACEHOLDERS) as Array<keyof typeof SECRET_PLACEHOLDERS>;

/**
 * The record of a connector as a get showed it, without its flows: what a version keeps. A set secret appears only
 * as its placeholder. In the seed's field order.
 */
export function connectorSnapshot(connector: SnapshotSource, tags: ReadonlyArray<{ name: string }>) {
  const secrets = Object.fromEntries(SECRET_FIELDS.map((field) => [field, connector[field] === null ? null : SECRET_PLACEHOLDERS[field]]));
  return {
    uuid: connector.uuid,
    name: connector.name,
    description: connector.description,
    requestType: connector.requestType,
    url: connector.url,
    headers: connector.headers,
    contentType: connector.contentType,
    authType: connector.authType,
    grantType: connector.grantType,
    basicToken: secrets.basicToken,
    bearerToken: secrets.bearerToken,
    clientId: connector.clientId,
    clientSecret: secrets.clientSecret,
    oauthUrl: connector.oauthUrl,
    authUsername: connector.authUsername,
    authPassword: secrets.authPassword,
    body: connector.body,
    output: connector.output,
    tags: tags.map(({ name }) => ({ name })),
    updatedAt: connector.updatedAt.toISOString(),
    updatedBy: connector.updatedBy,
  };
}

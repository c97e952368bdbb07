import { SECRET_FIELDS, SECRET_PLACEHOLDERS } from './connector-secrets';
import type { TagRef } from './connector-relations.repository';
import type { RestConnectorSnapshotDto } from './dto/rest-connector-history.dto';
import { RestConnector } from './rest-connector.entity';

/** The columns a snapshot shows. */
export type SnapshotSource = Omit<RestConnector, 'botUuid' | 'bot' | 'nameKey' | 'activeNameKey' | 'createdAt' | 'createdBy' | 'updatedByImage' | 'deletedAt' | 'deletedBy' | 'version'>;

/**
 * The record of a connector as a get shows it, without its flows (which belong to other parts of the
 * platform): what a version keeps. A set secret appears only as its placeholder. In the seed's field order.
 */
export function connectorSnapshot(connector: SnapshotSource, tags: readonly TagRef[]): RestConnectorSnapshotDto {
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

/** The record fields a version's `changedFields` may name, in the record's order: all but the id and who wrote it when. */
export const RECORDED_FIELDS = [
  'name', 'description', 'requestType', 'url', 'headers', 'contentType', 'authType', 'grantType', 'basicToken', 'bearerToken',
  'clientId', 'clientSecret', 'oauthUrl', 'authUsername', 'authPassword', 'body', 'output', 'tags',
] as const satisfies ReadonlyArray<keyof RestConnectorSnapshotDto>;

const hasValue = (value: unknown) => value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/** A creation changes every field it sets: those with a value (not null, empty text or an empty list). */
export function fieldsSetBy(created: RestConnectorSnapshotDto): string[] {
  return RECORDED_FIELDS.filter((field) => hasValue(created[field]));
}

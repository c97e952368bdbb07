import { SECRET_PLACEHOLDERS, SecretField } from './connector-secrets';
import type { FlowRef, TagRef } from './connector-relations.repository';
import type { RestConnectorDto } from './dto/rest-connector.dto';
import type { RestConnectorSnapshotDto } from './dto/rest-connector-history.dto';
import { RestConnector } from './rest-connector.entity';

/** The columns a snapshot shows. */
export type SnapshotSource = Omit<
  RestConnector,
  'botUuid' | 'bot' | 'nameKey' | 'activeNameKey' | 'createdAt' | 'createdBy' | 'updatedByImage' | 'deletedAt' | 'deletedBy' | 'version'
>;

/**
 * The record of a connector as a get shows it, without its flows (which belong to other parts of the
 * platform): what a version keeps. A set secret appears only as its placeholder. In the seed's field order.
 */
export function connectorSnapshot(connector: SnapshotSource, tags: readonly TagRef[]): RestConnectorSnapshotDto {
  return recordOf(connector, tags, undefined);
}

/** The record a get shows: the snapshot with the flows that use the connector, before `updatedAt`. */
export function connectorRecord(connector: SnapshotSource, tags: readonly TagRef[], flows: FlowRef[]): RestConnectorDto {
  return recordOf(connector, tags, flows) as RestConnectorDto;
}

/**
 * Both records in one pass, the flows put in their place when given: every get builds one, and copying a
 * snapshot into a record with object rest and spread cost more than building it (docs/performance.md).
 */
function recordOf(connector: SnapshotSource, tags: readonly TagRef[], flows: FlowRef[] | undefined): RestConnectorSnapshotDto & { flows?: FlowRef[] } {
  const record: RestConnectorSnapshotDto & { flows?: FlowRef[] } = {
    uuid: connector.uuid,
    name: connector.name,
    description: connector.description,
    requestType: connector.requestType,
    url: connector.url,
    headers: connector.headers,
    contentType: connector.contentType,
    authType: connector.authType,
    grantType: connector.grantType,
    basicToken: secretShown(connector, 'basicToken'),
    bearerToken: secretShown(connector, 'bearerToken'),
    clientId: connector.clientId,
    clientSecret: secretShown(connector, 'clientSecret'),
    oauthUrl: connector.oauthUrl,
    authUsername: connector.authUsername,
    authPassword: secretShown(connector, 'authPassword'),
    apiKeyName: connector.apiKeyName,
    apiKeyIn: connector.apiKeyIn,
    apiKey: secretShown(connector, 'apiKey'),
    body: connector.body,
    output: connector.output,
    tags: tags.map(({ name }) => ({ name })),
  } as RestConnectorSnapshotDto & { flows?: FlowRef[] };
  if (flows !== undefined) record.flows = flows;
  record.updatedAt = connector.updatedAt.toISOString();
  record.updatedBy = connector.updatedBy;
  return record;
}

/** A set secret as its placeholder; null when not set. */
const secretShown = (connector: SnapshotSource, field: SecretField): string | null => (connector[field] === null ? null : SECRET_PLACEHOLDERS[field]);

/** The record fields a version's `changedFields` may name, in the record's order: all but the id and who wrote it when. */
export const RECORDED_FIELDS = [
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
] as const satisfies ReadonlyArray<keyof RestConnectorSnapshotDto>;

const hasValue = (value: unknown) => value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/** A creation changes every field it sets: those with a value (not null, empty text or an empty list). */
export function fieldsSetBy(created: RestConnectorSnapshotDto): string[] {
  return RECORDED_FIELDS.filter((field) => hasValue(created[field]));
}

/** A snapshot's members, in the record's order. */
const SNAPSHOT_KEYS = ['uuid', ...RECORDED_FIELDS, 'updatedAt', 'updatedBy'] as const;

/**
 * A stored snapshot in today's shape: a field added to the record after it was recorded (the API key's) is null in
 * it, as the connector had none then. Versions are never rewritten; they are read this way.
 */
export function recordedSnapshot(stored: RestConnectorSnapshotDto): RestConnectorSnapshotDto {
  if (RECORDED_FIELDS.every((field) => field in stored)) return stored;
  return Object.fromEntries(SNAPSHOT_KEYS.map((key) => [key, key in stored ? stored[key] : null])) as unknown as RestConnectorSnapshotDto;
}

import {
  CONNECTOR_FIELDS,
  type FieldFlags,
  RECORDED_FIELDS,
  type SecretField,
  SHOWN_COLUMNS,
  SHOWN_FIELDS,
  type ShownColumn,
  type ShownField,
} from './connector-fields';
import { SECRET_PLACEHOLDERS, shownHeaders } from './connector-secrets';
import type { FlowRef, TagRef } from './rest-connector.entity';
import type { RestConnectorDto } from './dto/rest-connector.dto';
import type { RestConnectorSnapshotDto } from './dto/rest-connector-history.dto';
import { REST_CONNECTOR_ROWS, RestConnector } from './rest-connector.entity';

/** The columns a snapshot shows (CONNECTOR_FIELDS' `shown`). */
export type SnapshotSource = Pick<RestConnector, ShownColumn>;

/** The snapshot's members, in the record's order (the compiler holds each shown field to one of the record's). */
const RECORD_FIELDS: ReadonlyArray<keyof RestConnectorSnapshotDto> = SHOWN_FIELDS;

const isSecret = (field: ShownField) => (CONNECTOR_FIELDS[field] as FieldFlags).secret === true;
const isTime = (field: ShownField) => REST_CONNECTOR_ROWS.layout.some(({ property, kind }) => property === field && kind === 'date');
/** The shown columns by how the record writes them: as stored, a secret as its placeholder (null when not set), a time in ISO 8601. */
const AS_STORED = SHOWN_COLUMNS.filter((field) => !isSecret(field) && !isTime(field));
const SECRETS_SHOWN = SHOWN_COLUMNS.filter(isSecret) as SecretField[];
const TIMES = SHOWN_COLUMNS.filter(isTime);
/**
 * Every record starts as a copy of one of these, its members in the record's order (the flows after the tags), then
 * gets its values: one object shape for every record, which costs far less than adding members one by one.
 */
const templateOf = (flows: boolean) =>
  Object.fromEntries(SHOWN_FIELDS.flatMap((field) => (field === 'tags' && flows ? [[field], ['flows']] : [[field]])).map(([field]) => [field, null]));
const SNAPSHOT_TEMPLATE = templateOf(false);
const RECORD_TEMPLATE = templateOf(true);

/**
 * The record of a connector as a get shows it, without its flows (which belong to other parts of the
 * platform): what a version keeps. A set secret appears only as its placeholder. In the seed's field order.
 */
export function connectorSnapshot(connector: SnapshotSource, tags: readonly TagRef[]): RestConnectorSnapshotDto {
  return recordOf(connector, tags, undefined);
}

/** The record a get shows: the snapshot with the flows that use the connector, after its tags. */
export function connectorRecord(connector: SnapshotSource, tags: readonly TagRef[], flows: FlowRef[]): RestConnectorDto {
  return recordOf(connector, tags, flows) as RestConnectorDto;
}

/**
 * Both records in one pass over the shown fields, the flows put in their place when given: every get builds one, and
 * copying a snapshot into a record with object rest and spread cost more than building it (docs/performance.md).
 */
function recordOf(connector: SnapshotSource, tags: readonly TagRef[], flows: FlowRef[] | undefined): RestConnectorSnapshotDto & { flows?: FlowRef[] } {
  const record: Record<string, unknown> = flows === undefined ? { ...SNAPSHOT_TEMPLATE } : { ...RECORD_TEMPLATE, flows };
  const stored = connector as unknown as Record<string, unknown>;
  for (const field of AS_STORED) record[field] = stored[field];
  for (const field of SECRETS_SHOWN) record[field] = stored[field] === null ? null : SECRET_PLACEHOLDERS[field];
  for (const field of TIMES) record[field] = (stored[field] as Date).toISOString();
  record.headers = shownHeaders(connector.headers);
  record.tags = tags.map(({ name }) => ({ name }));
  return record as unknown as RestConnectorSnapshotDto & { flows?: FlowRef[] };
}

const hasValue = (value: unknown) => value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/** A creation changes every field it sets: those with a value (not null, empty text or an empty list). */
export function fieldsSetBy(created: RestConnectorSnapshotDto): string[] {
  return RECORDED_FIELDS.filter((field) => hasValue(created[field]));
}

/**
 * A stored snapshot in today's shape: a field added to the record after it was recorded (the API key's) is null in
 * it, as the connector had none then. Versions are never rewritten; they are read this way.
 */
export function recordedSnapshot(stored: RestConnectorSnapshotDto): RestConnectorSnapshotDto {
  if (RECORDED_FIELDS.every((field) => field in stored)) return stored;
  return Object.fromEntries(RECORD_FIELDS.map((key) => [key, key in stored ? stored[key] : null])) as unknown as RestConnectorSnapshotDto;
}

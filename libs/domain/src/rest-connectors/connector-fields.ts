import type { ColumnProperties } from '../database/table-rows';
import type { RestConnector } from './rest-connector.entity';

/**
 * What the platform does with one field of a connector. A flag left out is false. A change event carries a version's
 * snapshot and its changed fields, so what `shown` and `recorded` say of history holds for events too.
 */
export interface FieldFlags {
  /** A column of rest_connectors (the tags are rows of rest_connector_tags). */
  readonly stored?: true;
  /** In the record a get answers and a version's snapshot keeps (a secret as its placeholder), in this table's order. */
  readonly shown?: true;
  /**
   * Set by every full write (create, PUT): `body` as the write body sends it (the write DTO's rules), `derived` from
   * the body, `writer` from who writes when. Left out: set once at creation, by the trash, or by the version step.
   */
  readonly written?: 'body' | 'derived' | 'writer';
  /** What a write body that leaves it out stores: the body's optional fields (the others are required). */
  readonly unset?: null | readonly [];
  /** Sealed at rest and shown only as its placeholder; its rule (which auth type uses it) is in SECRETS. */
  readonly secret?: true;
  /** A version's `changedFields` may name it: a write changes it, and history diffs it. */
  readonly recorded?: true;
  /** Written by the exporters and made by the importers (never a secret: an export holds none). */
  readonly exported?: true;
  /** A credential of the auth settings: an import takes it from the source or from the request's `credentials`. */
  readonly credential?: true;
  /** An auth setting: meaningful only with the auth types that use it, so an import leaves a null one out of its create body. */
  readonly auth?: true;
}

/**
 * Every field of a connector, once, in the entity's column order (the tags where the record shows them): the
 * repository's column lists, the snapshot, the write, the import's drafts, the export and the factories are derived
 * from it. The compiler holds it to the entity (an entry per column, none other); connector-fields.spec.ts holds the
 * order and the flags' rules.
 */
export const CONNECTOR_FIELDS = {
  uuid: { stored: true, shown: true },
  botUuid: { stored: true },
  name: { stored: true, shown: true, written: 'body', recorded: true, exported: true },
  nameKey: { stored: true, written: 'derived' },
  activeNameKey: { stored: true, written: 'derived' },
  description: { stored: true, shown: true, written: 'body', unset: null, recorded: true, exported: true },
  requestType: { stored: true, shown: true, written: 'body', recorded: true, exported: true },
  url: { stored: true, shown: true, written: 'body', recorded: true, exported: true },
  headers: { stored: true, shown: true, written: 'body', unset: [], recorded: true, exported: true },
  contentType: { stored: true, shown: true, written: 'body', recorded: true, exported: true },
  authType: { stored: true, shown: true, written: 'body', recorded: true, exported: true, auth: true },
  grantType: { stored: true, shown: true, written: 'body', unset: null, recorded: true, exported: true, auth: true },
  basicToken: { stored: true, shown: true, written: 'body', unset: null, secret: true, recorded: true, credential: true, auth: true },
  bearerToken: { stored: true, shown: true, written: 'body', unset: null, secret: true, recorded: true, credential: true, auth: true },
  clientId: { stored: true, shown: true, written: 'body', unset: null, recorded: true, exported: true, credential: true, auth: true },
  clientSecret: { stored: true, shown: true, written: 'body', unset: null, secret: true, recorded: true, credential: true, auth: true },
  oauthUrl: { stored: true, shown: true, written: 'body', unset: null, recorded: true, exported: true, auth: true },
  authUsername: { stored: true, shown: true, written: 'body', unset: null, recorded: true, exported: true, credential: true, auth: true },
  authPassword: { stored: true, shown: true, written: 'body', unset: null, secret: true, recorded: true, credential: true, auth: true },
  apiKeyName: { stored: true, shown: true, written: 'body', unset: null, recorded: true, exported: true, auth: true },
  apiKeyIn: { stored: true, shown: true, written: 'body', unset: null, recorded: true, exported: true, auth: true },
  apiKey: { stored: true, shown: true, written: 'body', unset: null, secret: true, recorded: true, credential: true, auth: true },
  body: { stored: true, shown: true, written: 'body', recorded: true, exported: true },
  output: { stored: true, shown: true, written: 'body', recorded: true, exported: true },
  tags: { shown: true, written: 'body', unset: [], recorded: true, exported: true },
  createdAt: { stored: true },
  createdBy: { stored: true },
  updatedAt: { stored: true, shown: true, written: 'writer' },
  updatedBy: { stored: true, shown: true, written: 'writer' },
  updatedByImage: { stored: true, written: 'writer' },
  deletedAt: { stored: true },
  deletedBy: { stored: true },
  version: { stored: true },
  // The read copy of the tags and flows, kept by the repository (connector-read-copy.ts): no write body sets it.
  tagsJson: { stored: true },
  tagKeys: { stored: true },
  flowsJson: { stored: true },
} as const satisfies Record<ColumnProperties<RestConnector> | 'tags', FieldFlags>;

type Fields = typeof CONNECTOR_FIELDS;
export type ConnectorField = keyof Fields;

/** The fields that have the flag `Flag`, of a value in `Value` when given. */
export type FieldsWhere<Flag extends keyof FieldFlags, Value = FieldFlags[Flag]> = {
  [F in ConnectorField]: Fields[F] extends { readonly [K in Flag]: Value } ? F : never;
}[ConnectorField];

/** The fields that have the flag `flag`, of one of `values` when given, in the table's order. */
export function fieldsWhere<Flag extends keyof FieldFlags, Value extends FieldFlags[Flag] = FieldFlags[Flag]>(
  flag: Flag,
  ...values: Value[]
): Array<FieldsWhere<Flag, Value>> {
  return (Object.keys(CONNECTOR_FIELDS) as ConnectorField[]).filter((field) => {
    const flags: FieldFlags = CONNECTOR_FIELDS[field];
    return flag in flags && (values.length === 0 || values.includes(flags[flag] as Value));
  }) as Array<FieldsWhere<Flag, Value>>;
}

export type StoredField = FieldsWhere<'stored'>;
export type ShownField = FieldsWhere<'shown'>;
/** The columns a get reads and a snapshot is built from. */
export type ShownColumn = ShownField & StoredField;
/** The columns every full write sets. */
export type WrittenColumn = FieldsWhere<'written', 'body' | 'derived' | 'writer'> & StoredField;
/** The fields a write body sends. */
export type BodyField = FieldsWhere<'written', 'body'>;
export type SecretField = FieldsWhere<'secret'>;
export type RecordedField = FieldsWhere<'recorded'>;
export type ExportedField = FieldsWhere<'exported'>;
export type CredentialField = FieldsWhere<'credential'>;
export type AuthField = FieldsWhere<'auth'>;
/** The columns a write body may leave out, and what they hold then. */
export type UnsetColumns = { -readonly [F in FieldsWhere<'unset'> & StoredField]: Fields[F] extends { unset: null } ? null : never[] };
/** The columns a write body must send. */
export type RequiredBodyColumn = Exclude<BodyField & StoredField, keyof UnsetColumns>;

const isStored = (field: ConnectorField) => 'stored' in CONNECTOR_FIELDS[field];

/** In the record's order: uuid, the recorded fields, updatedAt, updatedBy. */
export const SHOWN_FIELDS = fieldsWhere('shown');
export const SHOWN_COLUMNS = SHOWN_FIELDS.filter(isStored) as ShownColumn[];
export const WRITTEN_COLUMNS = fieldsWhere('written').filter(isStored) as WrittenColumn[];
/** The columns a write body sets. */
export const BODY_COLUMNS = fieldsWhere('written', 'body').filter(isStored) as Array<BodyField & StoredField>;
/** The record fields a version's `changedFields` may name, in the record's order. */
export const RECORDED_FIELDS = fieldsWhere('recorded');
export const SECRET_FIELDS = fieldsWhere('secret');
/** What an export writes, in the record's order. */
export const EXPORTED_FIELDS = fieldsWhere('exported');
/** The credentials an import may be given for what its source does not hold: each secret, and the others. */
export const CREDENTIAL_FIELDS = fieldsWhere('credential');
export const AUTH_FIELDS = fieldsWhere('auth');

/** The columns a write body may leave out, as a write that leaves them out stores them (each list a new one). */
export function unsetColumns(): UnsetColumns {
  return Object.fromEntries(
    fieldsWhere('unset')
      .filter(isStored)
      .map((field) => {
        const flags: FieldFlags = CONNECTOR_FIELDS[field];
        return [field, flags.unset === null ? null : []];
      }),
  ) as UnsetColumns;
}

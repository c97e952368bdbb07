import {
  ConnectorWrite,
  fieldsSetBy,
  RECORDED_FIELDS,
  RestConnector,
  RestConnectorSnapshotDto,
  RestConnectorWriteDto,
  SECRET_FIELDS,
  SecretField,
  secretHeaderKey,
  storedSecretHeader,
  TagRow,
} from '@app/domain';
import type { SameAsStored } from '../use-cases/secret-sealing';

const isSecret = (field: string): field is SecretField => (SECRET_FIELDS as readonly string[]).includes(field);
import { isDeepStrictEqual } from 'node:util';

/**
 * The fields an update changed. Snapshots show secrets (and secret headers' values) only as placeholders, so a
 * secret counts as changed when `secrets` (changedSecrets) names it, and the headers when either their snapshot or
 * a secret header's value changed. Without a recorded record before, every field it sets.
 */
export function fieldsChanged(before: RestConnectorSnapshotDto | null, after: RestConnectorSnapshotDto, secrets: readonly ChangedSecret[]): string[] {
  if (before === null) return fieldsSetBy(after);
  return RECORDED_FIELDS.filter((field) => secrets.includes(field as ChangedSecret) || (!isSecret(field) && !isDeepStrictEqual(before[field], after[field])));
}

/** A secret a write changed; `headers` for a secret header's value. */
export type ChangedSecret = SecretField | 'headers';

/**
 * The secrets a write changed: set or cleared, or sent anew with another value. A sent value is compared with
 * the stored one by `sameAsStored`, which decrypts it in memory only: no plaintext is kept, answered or logged.
 * A placeholder keeps the sealed value itself, which is unchanged.
 */
export function changedSecrets(
  dto: RestConnectorWriteDto,
  stored: RestConnector,
  written: ConnectorWrite,
  sameAsStored: SameAsStored,
): ChangedSecret[] {
  const fields = SECRET_FIELDS.filter((field) => {
    const before = stored[field];
    const after = written[field];
    if ((before === null) !== (after === null)) return true;
    if (before === null || after === before) return false;
    return !sameAsStored(field, before, dto[field]!);
  });
  return secretHeaderChanged(dto, stored, written, sameAsStored) ? [...fields, 'headers'] : fields;
}

/**
 * Whether a secret header was sent with another value than the one stored under its name (a new secret header, or
 * one no longer secret, changes the snapshot itself). `written.headers` are `dto.headers` one for one (storedHeaders).
 */
function secretHeaderChanged(dto: RestConnectorWriteDto, stored: RestConnector, written: ConnectorWrite, sameAsStored: SameAsStored): boolean {
  return written.headers.some(({ header, value, secret }, index) => {
    if (secret !== true) return false;
    const before = storedSecretHeader(stored.headers, header);
    if (before === undefined) return true;
    return value !== before.value && !sameAsStored(secretHeaderKey(header), before.value, dto.headers![index].value);
  });
}

/** Whether a write's tags are the recorded ones, spelling and order included: then they need no rewrite. */
export function sameTags(before: RestConnectorSnapshotDto | null, tags: readonly TagRow[]): boolean {
  return (
    before !== null &&
    isDeepStrictEqual(
      before.tags.map(({ name }) => name),
      tags.map(({ name }) => name),
    )
  );
}

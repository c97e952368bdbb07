import {
  ConnectorWrite,
  fieldsSetBy,
  RECORDED_FIELDS,
  RestConnector,
  RestConnectorSnapshotDto,
  RestConnectorWriteDto,
  SECRET_FIELDS,
  SecretField,
  TagRow,
} from '@app/domain';

const isSecret = (field: string): field is SecretField => (SECRET_FIELDS as readonly string[]).includes(field);
import { isDeepStrictEqual } from 'node:util';

/**
 * The fields an update changed. Snapshots show secrets only as placeholders, so a secret counts as changed
 * when `secrets` (changedSecrets) names it. Without a recorded record before, every field it sets.
 */
export function fieldsChanged(before: RestConnectorSnapshotDto | null, after: RestConnectorSnapshotDto, secrets: readonly SecretField[]): string[] {
  if (before === null) return fieldsSetBy(after);
  return RECORDED_FIELDS.filter((field) => (isSecret(field) ? secrets.includes(field) : !isDeepStrictEqual(before[field], after[field])));
}

/**
 * The secrets a write changed: set or cleared, or sent anew with another value. A sent value is compared with
 * the stored one by `sameAsStored`, which decrypts it in memory only: no plaintext is kept, answered or logged.
 * A placeholder keeps the sealed value itself, which is unchanged.
 */
export function changedSecrets(
  dto: RestConnectorWriteDto,
  stored: RestConnector,
  written: ConnectorWrite,
  sameAsStored: (field: SecretField, sealed: string, plaintext: string) => boolean,
): SecretField[] {
  return SECRET_FIELDS.filter((field) => {
    const before = stored[field];
    const after = written[field];
    if ((before === null) !== (after === null)) return true;
    if (before === null || after === before) return false;
    return !sameAsStored(field, before, dto[field]!);
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

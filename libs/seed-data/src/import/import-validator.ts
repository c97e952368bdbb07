import { isUuid } from '@app/domain';
import { ImportFile } from './import-file';
import { importFile } from './import-schema';
import { childPath, INVALID, isRecord, reject } from './json-fields';

export type ReferenceTarget = 'organization' | 'environment' | 'bot';

/** A well-formed uuid that must name an item of the file or a row of the database. */
export interface Reference {
  path: string;
  target: ReferenceTarget;
  uuid: string;
}

export interface ValidatedImport {
  reasons: string[];
  /** Lower-cased uuids; present only when the file passed every check of its own. */
  file?: ImportFile;
  /** The uuids each section declares, including those of items rejected for another field. */
  declared: Record<ReferenceTarget, Set<string>>;
  references: Reference[];
}

/**
 * Checks what can be checked without the database. Duplicates and references are read from the raw
 * input, not the normalized file, so that an item rejected for one field still has its uuid checked.
 */
export function validateImport(input: unknown): ValidatedImport {
  const reasons: string[] = [];
  const file = importFile(input, '$', reasons);
  const declared = {
    organization: declaredUuids(input, 'organizations', reasons),
    environment: declaredUuids(input, 'environments', reasons),
    bot: declaredUuids(input, 'bots', reasons),
  };
  declaredUuids(input, 'flows', reasons);
  const references = [
    ...referencesOf(input, 'environments', 'organizationUuid', 'organization'),
    ...referencesOf(input, 'bots', 'environmentUuid', 'environment'),
    ...referencesOf(input, 'flows', 'botUuid', 'bot'),
  ];
  return { reasons, file: file === INVALID || reasons.length > 0 ? undefined : file, declared, references };
}

function rawItems(input: unknown, section: keyof ImportFile): Array<[string, Record<string, unknown>]> {
  const items = isRecord(input) && Object.hasOwn(input, section) ? input[section] : undefined;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item, index) => (isRecord(item) ? [[childPath(childPath('$', section), index), item] as [string, Record<string, unknown>]] : []));
}

function declaredUuids(input: unknown, section: keyof ImportFile, reasons: string[]): Set<string> {
  const firstPath = new Map<string, string>();
  for (const [path, item] of rawItems(input, section)) {
    if (!isUuid(item.uuid)) continue;
    const uuid = item.uuid.toLowerCase();
    const earlier = firstPath.get(uuid);
    if (earlier === undefined) firstPath.set(uuid, path);
    else reject(reasons, childPath(path, 'uuid'), `duplicate of ${childPath(earlier, 'uuid')}`);
  }
  return new Set(firstPath.keys());
}

function referencesOf(input: unknown, section: keyof ImportFile, field: string, target: ReferenceTarget): Reference[] {
  return rawItems(input, section).flatMap(([path, item]) => {
    const value = Object.hasOwn(item, field) ? item[field] : undefined;
    return isUuid(value) ? [{ path: childPath(path, field), target, uuid: value.toLowerCase() }] : [];
  });
}

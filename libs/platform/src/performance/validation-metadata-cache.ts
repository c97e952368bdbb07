import { getMetadataStorage, MetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;

const CACHED = Symbol('validation metadata cached');

/** Whether cacheValidationMetadata was installed on this storage. */
export function isValidationMetadataCached(storage: MetadataStorage = getMetadataStorage()): boolean {
  return (storage as MetadataStorage & { [CACHED]?: true })[CACHED] === true;
}

/**
 * Makes class-validator's per-class metadata lookups answer from a cache.
 *
 * On every `validate()`, and again for every nested object, class-validator resolves the class's rules
 * by testing every decorated class of the application for inheritance (`instanceof`) and filtering
 * their rules into new arrays, then groups them by property into a new object
 * (typestack/class-validator#2686). The answer depends only on the class and the lookup's options, and
 * rules are added only when a decorated class is defined, so it is computed once per class and options.
 * A rule added later (a class defined after the first validation) empties the cache.
 *
 * Measured on the create body (docs/performance.md): the lookups were ~17 KB of garbage per request.
 * Idempotent: the storage is patched once per process.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const patched = storage as MetadataStorage & { [CACHED]?: true };
  if (patched[CACHED]) return;
  patched[CACHED] = true;

  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);

  let byTarget = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  // Keyed by the lists the lookup hands out, which class-validator only reads. Neither is frozen: V8
  // iterates frozen arrays on a slower path, which cost more than the cache saved.
  let grouped = new WeakMap<ValidationMetadata[], Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // Only a class is a WeakMap key; anything else (a constructor property holding a primitive) is looked up.
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    // The schema name never changes a class's rules (they are stored by class), so it is not part of the key.
    const key = always || strictGroups || groups?.length ? `${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}` : '';
    let ofTarget = byTarget.get(target);
    if (!ofTarget) byTarget.set(target, (ofTarget = new Map()));
    let found = ofTarget.get(key);
    if (!found) {
      found = lookup(target, schema, always, strictGroups, groups);
      ofTarget.set(key, found);
      grouped.set(found, group(found));
    }
    return found;
  };
  storage.groupByPropertyName = (metadata) => grouped.get(metadata) ?? group(metadata);

  const add = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    byTarget = new WeakMap();
    grouped = new WeakMap();
    add(metadata);
  };
}

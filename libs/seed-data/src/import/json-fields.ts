import { isUuid, textProblem } from '@app/domain';

/**
 * Small readers for untrusted JSON: each checks one value, records every problem as
 * "<json path>: <problem>" and returns the normalized value, or INVALID once it recorded why.
 */
export const INVALID = Symbol('invalid');
export type Read<T> = T | typeof INVALID;
export type Field<T> = (value: unknown, path: string, reasons: string[]) => Read<T>;
export type Shape<T> = { [K in keyof T]-?: Field<T[K]> };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Largest document a MEDIUMTEXT column holds, in bytes. */
export const MEDIUMTEXT_BYTES = 16_777_215;

/** `$.a.b` for identifiers, `$.a["some key"]` otherwise, so a path always names one place. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function reject(reasons: string[], path: string, problem: string): typeof INVALID {
  reasons.push(`${path}: ${problem}`);
  return INVALID;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function allRead<T>(values: Array<Read<T>>): values is T[] {
  return !values.includes(INVALID);
}

/** MySQL counts a varchar's length in characters, that is code points, not UTF-16 units. */
function characters(value: string): number {
  return value.length <= 1 ? value.length : [...value].length;
}

/** A field that is absent reads as undefined; a JSON null is a wrong type, like any other. */
export const optional =
  <T>(field: Field<T>): Field<T | undefined> =>
  (value, path, reasons) =>
    value === undefined ? undefined : field(value, path, reasons);

function required<T>(check: (value: unknown, path: string, reasons: string[]) => Read<T>): Field<T> {
  return (value, path, reasons) => (value === undefined ? reject(reasons, path, 'is required') : check(value, path, reasons));
}

export const uuid: Field<string> = required((value, path, reasons) => (isUuid(value) ? value.toLowerCase() : reject(reasons, path, 'must be a UUID')));

export const name = (max: number): Field<string> =>
  required((value, path, reasons) => {
    if (typeof value !== 'string' || value.trim() === '' || characters(value) > max) {
      return reject(reasons, path, `must be a non-empty string of at most ${max} characters`);
    }
    const problem = textProblem(value, true);
    return problem ? reject(reasons, path, problem) : value;
  });

export const text = (max?: number): Field<string> =>
  required((value, path, reasons) => {
    if (typeof value !== 'string' || (max !== undefined && characters(value) > max)) {
      return reject(reasons, path, max === undefined ? 'must be a string' : `must be a string of at most ${max} characters`);
    }
    const problem = textProblem(value, false);
    return problem ? reject(reasons, path, problem) : value;
  });

export const boolean: Field<boolean> = required((value, path, reasons) => (typeof value === 'boolean' ? value : reject(reasons, path, 'must be a boolean')));

export const arrayOf = <T>(item: Field<T>): Field<T[]> =>
  required((value, path, reasons) => {
    if (!Array.isArray(value)) return reject(reasons, path, 'must be an array');
    const items = value.map((entry, index) => item(entry, childPath(path, index), reasons));
    return allRead(items) ? items : INVALID;
  });

/** An object with arbitrary keys and values of one kind. */
export const recordOf = <T>(entry: Field<T>): Field<Record<string, T>> =>
  required((value, path, reasons) => {
    if (!isRecord(value)) return reject(reasons, path, 'must be an object');
    const keys = Object.keys(value);
    const items = keys.map((key) => entry(value[key], childPath(path, key), reasons));
    if (!allRead(items)) return INVALID;
    // fromEntries defines own properties, so a key such as "__proto__" stays plain data.
    return Object.fromEntries(keys.map((key, index) => [key, items[index]]));
  });

/** Stored in a MEDIUMTEXT column, so its JSON must fit there. */
export const jsonDocument =
  <T>(field: Field<T>): Field<T> =>
  (value, path, reasons) => {
    const read = field(value, path, reasons);
    if (read === INVALID || Buffer.byteLength(JSON.stringify(read), 'utf8') <= MEDIUMTEXT_BYTES) return read;
    return reject(reasons, path, `must be at most ${MEDIUMTEXT_BYTES} bytes as JSON`);
  };

type UnknownKeyReporter = (reasons: string[], path: string, key: string) => void;

const reportUnknownKey: UnknownKeyReporter = (reasons, path, key) => reject(reasons, childPath(path, key), 'unknown key');

/** An object with exactly the keys of `shape`; absent optional fields are left out of the result. */
export function objectOf<T>(shape: Shape<T>, onUnknownKey = reportUnknownKey): Field<T> {
  const keys = Object.keys(shape) as Array<keyof T & string>;
  const known = new Set<string>(keys);
  return required((value, path, reasons) => {
    if (!isRecord(value)) return reject(reasons, path, 'must be an object');
    const before = reasons.length;
    const result: Partial<T> = {};
    for (const key of keys) {
      const read = shape[key](Object.hasOwn(value, key) ? value[key] : undefined, childPath(path, key), reasons);
      if (read !== INVALID && read !== undefined) result[key] = read;
    }
    for (const key of Object.keys(value)) if (!known.has(key)) onUnknownKey(reasons, path, key);
    // Every field of the shape was read without a reason, so `result` holds all the required ones.
    return reasons.length === before ? (result as T) : INVALID;
  });
}

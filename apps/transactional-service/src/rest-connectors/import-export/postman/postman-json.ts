import { ImportSourceError } from '../connector-draft';

/** What JSON.parse returns. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

export const isJsonObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a wrong value is named in a message: its JSON type, never its content (it may be a secret). */
function typeOf(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * One JSON object of the collection, read member by member. Only own members are read (`constructor`, `toString`
 * or `__proto__` read as what the source wrote, never as what every object inherits), and a member of the wrong
 * type is an ImportSourceError naming where it stands (`item "Users / Create"`) and its path (`request.url.host`):
 * no TypeError, whatever the source holds.
 */
export class JsonNode {
  constructor(
    readonly value: JsonObject,
    /** Where in the collection, as in ConnectorDraft.where. */
    readonly where: string,
    /** The path of this object below `where`, `request.url` (empty for the item itself). */
    readonly path: string,
  ) {}

  /** The object `value` at `path`, or an error naming what it is instead. */
  static of(value: Json, where: string, path: string): JsonNode {
    if (!isJsonObject(value)) throw new ImportSourceError(where, `${path || 'it'} must be an object, not ${typeOf(value)}`);
    return new JsonNode(value, where, path);
  }

  pathOf(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  /** The member as written; absent or null is undefined. */
  member(key: string): Json | undefined {
    const value = Object.hasOwn(this.value, key) ? this.value[key] : undefined;
    return value === null ? undefined : value;
  }

  has(key: string): boolean {
    return this.member(key) !== undefined;
  }

  fail(reason: string): ImportSourceError {
    return new ImportSourceError(this.where, reason);
  }

  wrongType(key: string, expected: string): ImportSourceError {
    return this.fail(`${this.pathOf(key)} must be ${expected}, not ${typeOf(this.member(key) as Json)}`);
  }

  string(key: string): string | undefined {
    const value = this.member(key);
    if (value === undefined || typeof value === 'string') return value;
    throw this.wrongType(key, 'a string');
  }

  /** A string, or a number or boolean written as text (Postman writes `"value": 8080` and `"value": false` for some settings). */
  text(key: string): string | undefined {
    const value = this.member(key);
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return this.string(key);
  }

  /** Whether a flag is true: Postman's `disabled`. */
  flag(key: string): boolean {
    const value = this.member(key);
    if (value === undefined || typeof value === 'boolean') return value === true;
    throw this.wrongType(key, 'true or false');
  }

  object(key: string): JsonNode | undefined {
    const value = this.member(key);
    return value === undefined ? undefined : JsonNode.of(value, this.where, this.pathOf(key));
  }

  array(key: string): Json[] | undefined {
    const value = this.member(key);
    if (value === undefined || Array.isArray(value)) return value;
    throw this.wrongType(key, 'an array');
  }

  /** Every element of an array of objects, each an object. */
  objects(key: string): JsonNode[] {
    return (this.array(key) ?? []).map((element, index) => JsonNode.of(element, this.where, `${this.pathOf(key)}[${index}]`));
  }

  /** Postman's `description`: a string, or `{ content }`. */
  description(key: string): string | undefined {
    const value = this.member(key);
    return isJsonObject(value) ? this.object(key)!.string('content') : this.string(key);
  }
}

import createCompiler from 'named-placeholders';
import { ColumnKind, TableRows } from './table-rows';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** A letter is the one character whose lower and upper case differ. */
type IsLetter<C extends string> = Lowercase<C> extends Uppercase<C> ? false : true;
type IsNameChar<C extends string> = C extends Digit | '_' ? true : IsLetter<C>;

/** The name at the start of `S` (letters, digits, `_`), '' when there is none. */
type NameAt<S extends string, Name extends string = ''> = S extends `${infer C}${infer Rest}`
  ? IsNameChar<C> extends true
    ? NameAt<Rest, `${Name}${C}`>
    : Name
  : Name;

/**
 * The `:name` placeholders of a statement text, as a union: what the compiler can check at every call site. The text
 * is a string literal type, or a template literal type whose `${string}` holes (column lists) hold no placeholder.
 */
export type PlaceholderNames<S extends string> = S extends `${string}:${infer After}`
  ? (NameAt<After> extends `${infer First}${string}` ? (IsLetter<First> extends true ? NameAt<After> : never) : never) | PlaceholderNames<After>
  : never;

/** A value both drivers bind (Database converts Dates and booleans as each engine stores them; undefined is NULL). */
export type SqlValue = string | number | boolean | Date | null | undefined;

/** The parameters of a statement: one value per name its text uses. */
export type StatementParams<S extends string> = { readonly [N in PlaceholderNames<S>]: SqlValue };

/**
 * Parts of a text, each a literal: a `string` (a text built at run time, or joined with `+`) would hide its
 * placeholders from the compiler. Column lists (`rows.select('c')`) may stand in a part as `${string}` holes.
 */
type Literals<S extends readonly string[]> = { [I in keyof S]: string extends S[I] ? never : S[I] };

/**
 * named-placeholders, the compiler mysql2 itself uses for its `namedPlaceholders` option: `:name` to `?`, skipping
 * quoted text. Run once per statement, with each name standing for itself, it answers the `?` text and the order of
 * the names; no cache (a statement is compiled once).
 */
const toUnnamed = createCompiler({ cache: false });
const EACH_NAME_ITSELF = new Proxy({}, { get: (_target, name) => name });

/**
 * One SQL statement written with named placeholders (`WHERE c.uuid = :serviceUUID`), compiled once, at module load,
 * into the `?` text both drivers take and the order of its names. A call site hands one object (often the path DTO
 * itself) whose type must have every name the text uses; `bind` puts its values in order. Values of the `rows`
 * properties (writeStatement) are stored as the rows store them (JSON as text).
 */
export class Statement<P, R = Record<string, unknown>> {
  /** The `?` text the drivers get. */
  readonly text: string;
  /** The name of each `?`, in order: a name used twice is bound twice. */
  readonly names: readonly string[];
  /** Per `?`: the kind of a rows property, or 'param'. */
  private readonly kinds: ReadonlyArray<ColumnKind | 'param'>;
  /** The rows it reads: a type only (returning). */
  declare private readonly rowType?: R;

  constructor(
    /** The text as written, with its `:name` placeholders (docs/sql shows it). */
    readonly source: string,
    rows?: { readonly layout: ReadonlyArray<{ property: string; kind: ColumnKind }> },
  ) {
    const [text, names] = toUnnamed(source, EACH_NAME_ITSELF) as [string, string[]];
    const numbered = names.find((name) => /^\d+$/.test(name));
    if (numbered !== undefined) throw new Error(`A statement takes named placeholders only, not ? or :${numbered}: ${source}`);
    const kindOf = new Map<string, ColumnKind>(rows?.layout.map(({ property, kind }) => [property, kind]));
    this.text = text;
    this.names = names;
    this.kinds = names.map((name) => kindOf.get(name) ?? 'param');
  }

  /** The same statement, its rows typed as `R` (the columns its SELECT names); Database.rows answers them so. */
  returning<Read>(): Statement<P, Read> {
    return this as unknown as Statement<P, Read>;
  }

  /** The values of `params`, in the order of the `?`s, as the engine stores them. */
  bind(params: P, sqlite: boolean): unknown[] {
    const named = params as Record<string, unknown>;
    const values = new Array<unknown>(this.names.length);
    for (let i = 0; i < values.length; i++) {
      const value = named[this.names[i]];
      // A rows property may be undefined (stored as NULL, as the rows store it); any other name must be given.
      if (value === undefined && this.kinds[i] === 'param' && !(this.names[i] in named)) throw new Error(`No value for :${this.names[i]} in ${this.source}`);
      values[i] = bindableValue(this.kinds[i] === 'json' && value !== null && value !== undefined ? JSON.stringify(value) : value, sqlite);
    }
    return values;
  }
}

/**
 * A statement of `parts`, joined: `statement('SELECT … ', `FROM … WHERE c.uuid = :serviceUUID AND ${BOT_IN_SCOPE}`)`.
 * Its parameters are the names in the parts' literal text; a fragment that holds placeholders is a literal constant
 * too (BOT_IN_SCOPE), never joined with `+`.
 */
export function statement<const S extends readonly string[]>(...parts: Literals<S>): Statement<StatementParams<S[number]>> {
  return new Statement(parts.join(''));
}

/**
 * A statement that also writes the `rows` properties by name (`SET ${rows.assignments}`, `SELECT ${rows.parameters}`):
 * their values typed as the entity's, and stored as the rows store them.
 */
export function writeStatement<T, K extends keyof T & string, const S extends readonly string[]>(
  rows: TableRows<T, K>,
  ...parts: Literals<S>
): Statement<StatementParams<S[number]> & Pick<T, K>> {
  return new Statement(parts.join(''), rows);
}

/**
 * Statements whose text depends on a few settings (an order, how many search terms): each compiled once, the first
 * time its key is asked for, and kept. The keys must be few: a page has at most MAX_SEARCH_TERMS terms and 100
 * connectors, so the page's and the relations' statements are a few hundred at most.
 */
export function statementsBy<K extends string | number, P, R>(build: (key: K) => Statement<P, R>): (key: K) => Statement<P, R> {
  const built = new Map<K, Statement<P, R>>();
  return (key) => {
    let found = built.get(key);
    if (found === undefined) {
      found = build(key);
      built.set(key, found);
    }
    return found;
  };
}

/**
 * `:name0, :name1, …`: one placeholder per value of a list whose length varies (an `IN` list, a clause per search
 * term), named by `listed`.
 */
export const placeholderList = (name: string, count: number): string => Array.from({ length: count }, (_, i) => `:${name}${i}`).join(', ');

/** The values of a `placeholderList`, by their names. */
export function listed(name: string, values: readonly SqlValue[]): Record<string, SqlValue> {
  const named: Record<string, SqlValue> = {};
  values.forEach((value, i) => (named[`${name}${i}`] = value));
  return named;
}

/**
 * A parameter as the engine stores it, as TypeORM binds it: a Date is a DATETIME(3) in UTC (mysql2 writes it in the
 * connection's time zone, `Z`; SQLite keeps the text `YYYY-MM-DD HH:MM:SS.mmm`), a boolean 1 or 0, undefined NULL.
 */
export function bindableValue(value: unknown, sqlite: boolean): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (sqlite && value instanceof Date) return value.toISOString().slice(0, 23).replace('T', ' ');
  return value;
}

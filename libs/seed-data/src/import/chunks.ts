/** Rows per multi-row statement: 16 columns at most, far below SQLite's 32,766 bound variables. */
export const ROWS_PER_STATEMENT = 200;

/** Keeps a statement of JSON-heavy rows well under MariaDB's default max_allowed_packet of 16 MiB. */
const BYTES_PER_STATEMENT = 4 * 1024 * 1024;

/** Splits rows into statements of at most ROWS_PER_STATEMENT rows and, when sized, about 4 MiB. */
export function chunks<T>(items: readonly T[], sizeOf: (item: T) => number = () => 0): T[][] {
  const result: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length === ROWS_PER_STATEMENT || (current.length > 0 && bytes + size > BYTES_PER_STATEMENT)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}

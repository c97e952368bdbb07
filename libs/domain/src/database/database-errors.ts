/**
 * What a driver error means, decided by its code (mysql2 and better-sqlite3 codes), never by a message or
 * a generated constraint name. Each code has one meaning.
 */

/** The database cannot be reached, as opposed to a bad query: 503, retry later. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_CANTOPEN',
]);

/**
 * The database aborted a transaction for a lock conflict (MySQL picks a deadlock's loser; SQLite's writer
 * lock stayed taken past its busy timeout): the transaction may simply run again (`retryTransient`).
 */
const TRANSIENT_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'SQLITE_BUSY']);

/** Duplicate-key codes, matched by driver code rather than by constraint name. */
const DUPLICATE_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/** A NULL written to a NOT NULL column: what a single-row INSERT that reads a key from elsewhere and finds none meets. */
const NULL_REFUSED_CODES = new Set(['ER_BAD_NULL_ERROR', 'SQLITE_CONSTRAINT_NOTNULL']);

/** The driver's code of an error, also when TypeORM wraps it (`QueryFailedError.driverError`). */
export function driverCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const withCode = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = withCode.driverError?.code ?? withCode.code;
  return typeof code === 'string' ? code : undefined;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = driverCodeOf(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  // mysql2 reports a pool whose connections died this way, without a code.
  return /Pool is closed|Can't add new command when connection is in closed state|connect ETIMEDOUT/.test(message);
}

export function isTransientConflict(error: unknown): boolean {
  const code = driverCodeOf(error);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

export function isDuplicateKey(error: unknown): boolean {
  const code = driverCodeOf(error);
  return code !== undefined && DUPLICATE_CODES.has(code);
}

export function isNullRefused(error: unknown): boolean {
  const code = driverCodeOf(error);
  return code !== undefined && NULL_REFUSED_CODES.has(code);
}

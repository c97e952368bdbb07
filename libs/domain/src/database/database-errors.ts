/** Driver error codes that mean "the database cannot be reached", as opposed to a bad query. */
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
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

/** Duplicate-key codes, matched by driver code rather than by constraint name. */
const DUPLICATE_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const withCode = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = withCode.driverError?.code ?? withCode.code;
  return typeof code === 'string' ? code : undefined;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  // mysql2 reports a pool whose connections died this way, without a code.
  return /Pool is closed|Can't add new command when connection is in closed state|connect ETIMEDOUT/.test(message);
}

export function isDuplicateKey(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && DUPLICATE_CODES.has(code);
}

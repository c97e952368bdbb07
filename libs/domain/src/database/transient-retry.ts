/** MySQL aborts one of two transactions that wait on each other; the loser may simply run again. */
const TRANSIENT_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'SQLITE_BUSY']);

export function isTransientConflict(error: unknown): boolean {
  const withCode = error as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = withCode?.driverError?.code ?? withCode?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}

/** Runs a whole transaction again when the database aborted it for a lock conflict. */
export async function retryTransient<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
    }
  }
}

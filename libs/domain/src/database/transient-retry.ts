import { isTransientConflict } from './database-errors';

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

import { isDuplicateKey } from '@app/domain';
import { ConnectorNameConflictException } from '../rest-connector.exceptions';

/**
 * Runs a unit of work that gives connectors their names. The database keeps active names unique per bot; its
 * duplicate-key error becomes the 409. `name`: the one name written, or undefined when several were (the 409 then
 * says one of them is taken).
 */
export async function unlessNameTaken<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKey(error)) throw new ConnectorNameConflictException(name);
    throw error;
  }
}

import { type RequiredBodyColumn, unsetColumns, type UnsetColumns } from './connector-fields';
import { FIRST_VERSION } from './connector-version';
import type { RestConnector } from './rest-connector.entity';

/** What a connector's creation is given: its ids, the columns a write body must send, and any of those it may leave out. */
export type NewConnectorFields = Pick<RestConnector, 'uuid' | 'botUuid' | RequiredBodyColumn> & Partial<Pick<RestConnector, keyof UnsetColumns>>;

/**
 * A connector as its creation by `author` at `at` stores it, the columns it is not given unset (CONNECTOR_FIELDS), no
 * tags and no flows in its read copy (RestConnectorRepository.insert writes the copy of the tags it inserts):
 * what the demo data, the bench's seed and the tests' factory (aStoredConnector) start from, so none of them lists
 * a connector's fields.
 */
export function storedConnector(fields: NewConnectorFields, author: string, at: Date): RestConnector {
  const nameKey = fields.name.toLowerCase();
  return {
    ...unsetColumns(),
    ...fields,
    nameKey,
    activeNameKey: nameKey,
    createdAt: at,
    createdBy: author,
    updatedAt: at,
    updatedBy: author,
    updatedByImage: null,
    deletedAt: null,
    deletedBy: null,
    version: FIRST_VERSION,
    tagsJson: [],
    tagKeys: '',
    flowsJson: [],
  };
}

import { ConnectorDraft, DRAFT_FIELDS, DraftField, ImportDraft } from '../../connector-draft';
import { anExportedConnector } from '../../testing/exported-connector';
import { importPostman } from '..';

/** What a collection's JSON is built from in the specs. */
export type Collection = Record<string, unknown>;

export const SCHEMA_V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** A v2.1 collection of the given items (by default one GET request), with anything else it should hold. */
export function aCollection(item: unknown[] = [aRequestItem()], extra: Collection = {}): Collection {
  return { info: { name: 'Shop', schema: SCHEMA_V21 }, item, ...extra };
}

/** A request item: a GET of https://api.example.com/orders unless `request` says otherwise. */
export function aRequestItem(name = 'List orders', request: Collection = {}, extra: Collection = {}): Collection {
  return { name, request: { method: 'GET', header: [], url: 'https://api.example.com/orders', ...request }, ...extra };
}

export const aFolder = (name: string, item: unknown[], extra: Collection = {}): Collection => ({ name, item, ...extra });

/** An `auth` object of v2.1: its attributes as a `[{ key, value, type }]` list. */
export function anAuth(type: string, attributes: Record<string, unknown> = {}): Collection {
  return { type, [type]: Object.entries(attributes).map(([key, value]) => ({ key, value, type: 'string' })) };
}

export const imported = (collection: Collection, select?: string[]): Promise<ImportDraft> => importPostman(JSON.stringify(collection), { select });

/** The one connector an import of one request gives. */
export async function theConnector(collection: Collection): Promise<ConnectorDraft> {
  const { connectors } = await imported(collection);
  // No jest global here: testing/ is compiled with the app (webpack type-checks it).
  if (connectors.length !== 1) throw new Error(`expected one connector, got ${connectors.length}`);
  return connectors[0];
}

/** The warnings' codes, in order. */
export const codesOf = (draft: ImportDraft) => draft.warnings.map((warning) => warning.code);

/** A draft connector as the importer makes a plain one: the fields a spec does not name take these values. */
export function aDraft(overrides: Partial<ConnectorDraft> = {}): ConnectorDraft {
  const connector = anExportedConnector({ name: 'List orders', url: 'https://api.example.com/orders' });
  const fields = Object.fromEntries(DRAFT_FIELDS.map((field) => [field, connector[field]])) as Pick<ConnectorDraft, DraftField>;
  return { ...fields, credentials: [], where: 'item "List orders"', ...overrides };
}

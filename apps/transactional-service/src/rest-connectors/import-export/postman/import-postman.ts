import { ConnectorDraft, ImportDraft, ImportOptions } from '../connector-draft';
import { connectorTags } from '../draft-tags';
import { collectionOf, requestsOf } from './collection';
import { connectorOf } from './request';
import { collectionVariables, declaredVariables } from './variables';
import { Warnings } from './warnings';

/** How many reasons an import that yields no connector names. */
const REASONS_SHOWN = 3;

function warnScripts(levels: string[], warnings: Warnings): void {
  for (const where of levels) warnings.add('SCRIPTS_NOT_IMPORTED', where, 'Its pre-request and test scripts are not imported: an import never runs code.');
}

/**
 * The connectors a Postman Collection v2.1 (or v2.0) describes: one per request item under the selection (item
 * paths `Folder/Sub folder/Request name`; a folder's path takes every request under it), with the auth the request
 * declares or inherits from its folders and the collection, and its `{{variables}}` kept.
 */
export function importCollection(source: string, options: ImportOptions): ImportDraft {
  const collection = collectionOf(source);
  const warnings = new Warnings();
  const variables = collectionVariables(collection);
  const declared = declaredVariables(collection);
  const used = new Set<string>();
  const found = requestsOf(collection, options.select, warnings);
  if (found.length === 0) throw collection.fail(options.select === undefined ? 'has no requests' : 'has no requests under the selection');
  const connectors: ConnectorDraft[] = [];
  for (const request of found) {
    const draft = connectorOf({ item: request.item, inheritedAuth: request.auth, variables, declared, warnings, used });
    if (draft === undefined) continue;
    warnScripts(request.scripted, warnings);
    // Each folder the request is in, from the top, is a tag, unless the request's own connector block names its tags.
    if (draft.tags.length > 0) {
      connectors.push(draft);
      continue;
    }
    const { tags, warnings: tagWarnings } = connectorTags(request.folders);
    tagWarnings.forEach(({ code, message }) => warnings.add(code, draft.where, message));
    connectors.push({ ...draft, tags });
  }
  if (connectors.length === 0) {
    const reasons = warnings.all().filter((warning) => warning.code === 'ITEM_SKIPPED');
    throw collection.fail(
      `has no request a connector can be made of: ${reasons
        .slice(0, REASONS_SHOWN)
        .map((warning) => `${warning.where}: ${warning.message}`)
        .join('; ')}`,
    );
  }
  const valued = [...used].filter((name) => variables.has(name));
  if (valued.length > 0) {
    warnings.add(
      'VARIABLE_VALUES_NOT_IMPORTED',
      'collection',
      `{{${valued.join('}}, {{')}}} keep their names: the values the collection gives them are not imported, the bot fills them in when the connector runs.`,
    );
  }
  return { connectors, warnings: warnings.all() };
}

import { ImportWarning } from '../connector-draft';
import { shownUrl } from './server-userinfo';
import { JsonRecord, entriesOf, isRecord } from './values';
import { warning } from './warnings';

const MAX_LISTED = 5;

/** What the whole document says that no connector carries: external `$ref`s left unresolved, webhooks. */
export function documentNotes(document: JsonRecord): ImportWarning[] {
  const notes: ImportWarning[] = [];
  const external = externalRefs(document);
  if (external.length) {
    const listed = external.slice(0, MAX_LISTED).map(([pointer, ref]) => `${shownUrl(ref).slice(0, 200)} at ${pointer.slice(0, 200)}`);
    notes.push(
      warning(
        'EXTERNAL_REF_NOT_FETCHED',
        'document',
        `${external.length} $ref(s) point outside the document, which an import never fetches; those parts are left out (bundle the document into one file first): ${listed.join('; ')}`,
      ),
    );
  }
  const webhooks = entriesOf(document.webhooks).length;
  if (webhooks) notes.push(warning('WEBHOOKS_NOT_IMPORTED', 'document', `${webhooks} webhook(s) are calls the API makes, not connectors: left out`));
  return notes;
}

/**
 * Every `$ref` the parser left in place (internal ones are all resolved, recursive ones as cycles): with its JSON
 * pointer. Each object is visited once, so shared parts and cycles cost nothing more.
 */
function externalRefs(document: JsonRecord): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const seen = new Set<object>();
  const pending: Array<[unknown, string]> = [[document, '#']];
  while (pending.length) {
    const [value, pointer] = pending.pop() as [unknown, string];
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (isRecord(value) && typeof value.$ref === 'string') found.push([pointer, value.$ref]);
    for (const [key, child] of Object.entries(value)) pending.push([child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  }
  return found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

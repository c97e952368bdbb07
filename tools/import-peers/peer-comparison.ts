import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Collection, Item } from 'postman-collection';
import { ConnectorDraft, ImportDraft } from '../../apps/transactional-service/src/rest-connectors/import-export/connector-draft';
import { importCurl } from '../../apps/transactional-service/src/rest-connectors/import-export/curl';
import { importOpenApi } from '../../apps/transactional-service/src/rest-connectors/import-export/openapi';
import { importPostman } from '../../apps/transactional-service/src/rest-connectors/import-export/postman';
import { whereOf } from '../../apps/transactional-service/src/rest-connectors/import-export/postman/collection';
import { differencesOf, Difference } from './compare';
import { curlconverterReadings, curlWire } from './curl-peer';
import { draftWire } from './draft-wire';
import { openApiPeer, operationsWithBodyExamples } from './openapi-peer';
import { postmanWire } from './postman-wire';

export type Format = 'openapi' | 'postman' | 'curl';

/** The corpus: real documents nobody here wrote, each folder's README naming its origin and licence. */
export const CORPUS = join(__dirname, '../../test/fixtures/import');

export interface ComparedOperation {
  /** The corpus file, relative to CORPUS. */
  document: string;
  /** Our draft's `where`. */
  where: string;
  differences: Difference[];
}

export interface NotCompared {
  document: string;
  where: string;
  reason: string;
}

export interface FormatComparison {
  format: Format;
  peer: string;
  documents: string[];
  compared: ComparedOperation[];
  notCompared: NotCompared[];
  /** How a document was read, where it was not as it is (a collection given its environment's values). */
  notes: string[];
}

const SOURCE_FILES: Record<Format, RegExp> = {
  openapi: /\.(ya?ml|json)$/,
  postman: /(?<!\.postman_environment)\.json$/,
  curl: /\.sh$/,
};

/** The corpus files of a format, sorted. */
export function corpusFiles(format: Format): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder)
      .sort()
      .flatMap((name) => {
        const path = join(folder, name);
        return statSync(path).isDirectory() ? walk(path) : SOURCE_FILES[format].test(name) ? [relative(CORPUS, path)] : [];
      });
  return walk(join(CORPUS, format));
}

const read = (document: string) => readFileSync(join(CORPUS, document), 'utf8');

async function ours(importing: Promise<ImportDraft>): Promise<ImportDraft | { refused: string }> {
  return importing.catch((error: unknown) => ({ refused: error instanceof Error ? error.message : String(error) }));
}

/** OpenAPI: openapi-to-postmanv2 makes a collection of the document, postman-collection reads each request of it. */
export async function compareOpenApi(): Promise<FormatComparison> {
  const result: FormatComparison = {
    format: 'openapi',
    peer: 'openapi-to-postmanv2 + postman-collection',
    documents: corpusFiles('openapi'),
    compared: [],
    notCompared: [],
    notes: [],
  };
  for (const document of result.documents) {
    const source = read(document);
    const draft = await ours(importOpenApi(source, {}));
    if ('refused' in draft) {
      result.notCompared.push({ document, where: 'document', reason: `our importer refuses it: ${draft.refused.slice(0, 200)}` });
      continue;
    }
    let peer: Awaited<ReturnType<typeof openApiPeer>>;
    try {
      peer = await openApiPeer(source);
    } catch (error) {
      result.notCompared.push({ document, where: 'document', reason: `openapi-to-postmanv2 refuses it: ${(error as Error).message.slice(0, 200)}` });
      continue;
    }
    const examples = operationsWithBodyExamples(source);
    for (const connector of draft.connectors) {
      const key = connector.where.replace(/^operation /, '');
      const [request] = peer.get(key) ?? [];
      if (!request) {
        result.notCompared.push({ document, where: connector.where, reason: 'openapi-to-postmanv2 makes no request of that method and path' });
        continue;
      }
      result.compared.push({ document, where: connector.where, differences: differencesOf(draftWire(connector, !examples.has(key)), request) });
    }
  }
  return result;
}

/** The names of an item and its folders, from the top, as our importer names them (a nameless item is `#n`, n its place). */
function namesOf(item: Item): string[] {
  const label = (item.name ?? '').trim() || `#${(item.parent()?.items.all().indexOf(item) ?? 0) + 1}`;
  const names = [label];
  item.forEachParent({ withRoot: false }, (parent: { name?: string }) => names.unshift((parent.name ?? '').trim()));
  return names;
}

/**
 * The collection as its README tells to import it when its base URL comes from an environment: the environment
 * beside it (`<name>.postman_environment.json`) written into the collection's variables, the collection's own first.
 * Our importer then says what it says of the collection alone (the URL's scheme and host come from a variable the
 * collection does not define): this is what a user does next, and both readers read the same text.
 */
function withEnvironment(document: string, notes: string[]): string {
  const source = read(document);
  const environment = document.replace(/(\.postman_collection)?\.json$/, '.postman_environment.json');
  if (!existsSync(join(CORPUS, environment))) return source;
  const collection = JSON.parse(source) as { variable?: Array<{ key?: string; value?: unknown }> };
  const defined = new Set((collection.variable ?? []).map(({ key }) => key));
  const values = (JSON.parse(read(environment)) as { values?: Array<{ key: string; value: unknown; enabled?: boolean }> }).values ?? [];
  const added = values.filter(({ key, value, enabled }) => enabled !== false && value !== '' && !defined.has(key)).map(({ key, value }) => ({ key, value }));
  notes.push(`${document}: read with the values of ${environment} as collection variables (${added.map(({ key }) => key).join(', ')})`);
  return JSON.stringify({ ...collection, variable: [...(collection.variable ?? []), ...added] });
}

/** Postman: postman-collection reads each request item (enabled headers, body by mode, auth resolved through its folders). */
export async function comparePostman(): Promise<FormatComparison> {
  const result: FormatComparison = {
    format: 'postman',
    peer: 'postman-collection',
    documents: corpusFiles('postman'),
    compared: [],
    notCompared: [],
    notes: [],
  };
  for (const document of result.documents) {
    const source = withEnvironment(document, result.notes);
    const draft = await ours(importPostman(source, {}));
    const peer = new Map<string, Item[]>();
    const collection = new Collection(JSON.parse(source));
    // Postman fills the collection's variables in when it sends (ours keeps them, a slot matching any value).
    const values = new Map(collection.variables.all().map((variable): [string, string] => [variable.key ?? '', String(variable.value ?? '')]));
    collection.forEachItem((item: Item) => {
      const where = whereOf('item', namesOf(item));
      peer.set(where, [...(peer.get(where) ?? []), item]);
    });
    // A request Postman sends and our importer leaves out (or a collection it refuses whole) is a difference too.
    const skipped = 'refused' in draft ? [] : draft.warnings.filter(({ code }) => code === 'ITEM_SKIPPED');
    for (const [where, items] of peer) {
      const imported = 'refused' in draft ? 0 : draft.connectors.filter((connector) => connector.where === where).length;
      const why = 'refused' in draft ? draft.refused.replace(/^source collection: /, '') : skipped.find((warning) => warning.where === where)?.message;
      for (const _item of items.slice(imported)) result.compared.push({ document, where, differences: [notImported(why ?? 'left out')] });
    }
    if ('refused' in draft) continue;
    for (const connector of draft.connectors) {
      const item = peer.get(connector.where)?.shift();
      if (!item) {
        result.notCompared.push({ document, where: connector.where, reason: 'postman-collection finds no request item of that name' });
        continue;
      }
      result.compared.push({ document, where: connector.where, differences: differencesOf(draftWire(connector), postmanWire(item, { values })) });
    }
  }
  return result;
}

/** The text of one command of a file: from the line our draft names (curlconverter reads the first command of a text). */
function commandAt(source: string, where: string): string | undefined {
  const match = /^line (\d+)(?:, URL (\d+))?$/.exec(where);
  if (!match || (match[2] !== undefined && match[2] !== '1')) return undefined;
  return source
    .split('\n')
    .slice(Number(match[1]) - 1)
    .join('\n');
}

function apiKeyOf(connector: ConnectorDraft): Parameters<typeof curlWire>[1] {
  if (connector.authType !== 'AUTH_API_KEY' || !connector.apiKeyName) return undefined;
  return { in: connector.apiKeyIn === 'QUERY' ? 'query' : 'header', name: connector.apiKeyName };
}

/** cURL: curlconverter's JSON reading of each command. */
export async function compareCurl(): Promise<FormatComparison> {
  const result: FormatComparison = { format: 'curl', peer: 'curlconverter', documents: corpusFiles('curl'), compared: [], notCompared: [], notes: [] };
  const pending: Array<{ document: string; connector: ConnectorDraft; command: string }> = [];
  const refused: Array<{ document: string; command: string; why: string }> = [];
  for (const document of result.documents) {
    const source = read(document);
    const draft = await ours(importCurl(source, {}));
    if ('refused' in draft) {
      refused.push({ document, command: source, why: draft.refused });
      continue;
    }
    for (const connector of draft.connectors) {
      const command = commandAt(source, connector.where);
      if (command === undefined)
        result.notCompared.push({ document, where: connector.where, reason: "curlconverter's JSON reads the first URL of a command only" });
      else pending.push({ document, connector, command });
    }
  }
  const readings = curlconverterReadings([...pending.map(({ command }) => command), ...refused.map(({ command }) => command)]);
  refused.forEach(({ document, why }, index) => {
    const reading = readings[pending.length + index];
    if ('error' in reading) result.notCompared.push({ document, where: 'file', reason: `both refuse it (ours: ${why.slice(0, 150)})` });
    else result.compared.push({ document, where: 'file', differences: [notImported(why)] });
  });
  pending.forEach(({ document, connector }, index) => {
    const reading = readings[index];
    if ('error' in reading) result.notCompared.push({ document, where: connector.where, reason: `curlconverter refuses it: ${reading.error.slice(0, 200)}` });
    else
      result.compared.push({ document, where: connector.where, differences: differencesOf(draftWire(connector), curlWire(reading.json, apiKeyOf(connector))) });
  });
  return result;
}

/** What our importer said when it made no connector of a request the peer reads: the reason, its values as slots. */
function notImported(why: string): Difference {
  const reason = why
    .replace(/^.*Left out: /, '')
    .replace(/^source (line \d+|collection)(, [^:]*)?: /, '')
    .replace(/its method "[^"]*"/, 'its method "…"')
    .replace(/^\S+ is not a method/, '… is not a method')
    .replace(/\{\{[^{}]*\}\}/g, '{{}}');
  return { part: 'method', kind: `not imported: ${reason.slice(0, 120)}`, ours: why.slice(0, 300), peer: '(a request)' };
}

export async function compareAll(): Promise<FormatComparison[]> {
  return [await compareOpenApi(), await comparePostman(), await compareCurl()];
}

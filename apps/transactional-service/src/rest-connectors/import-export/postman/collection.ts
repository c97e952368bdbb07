import { ImportSourceError } from '../connector-draft';
import { quotedList } from '../quoted-list';
import { DeclaredAuth, declaredAuth } from './auth';
import { isJsonObject, Json, JsonNode } from './postman-json';
import { Warnings } from './warnings';

/** How deep folders may nest: Postman sets no limit, real collections stay within a handful, and a path is named in messages. */
export const MAX_FOLDER_DEPTH = 64;
/** How many folder names a `where` shows before it elides the middle ones. */
const WHERE_NAMES = 8;
/** How much of one name a `where` shows. */
const WHERE_NAME_LENGTH = 100;

const V1 = 'a Postman Collection v1, which is not read here: export it again from Postman as Collection v2.1 (… menu → Export → Collection v2.1)';

/** A level of the collection: its names from the top, and the auth it hands down (none declared anywhere: undefined). */
export interface Level {
  names: string[];
  /** The names the folders from the top down to this level are given (an unnamed folder none): the connector tags of its requests. */
  folders: string[];
  auth: DeclaredAuth | undefined;
  /** The levels above and this one whose scripts run before or after each request (`collection`, `folder "A"`). */
  scripted: string[];
}

/** A request item found under the selection, with what its folders hand down. */
export interface FoundRequest {
  item: JsonNode;
  names: string[];
  /** Level's `folders`: the names of the folders the request is in, from the top. */
  folders: string[];
  auth: DeclaredAuth | undefined;
  scripted: string[];
}

/** `item "Users / Create"`, `folder "Users"`: the names joined by ` / `, long ones cut, deep paths elided in the middle. */
export function whereOf(kind: 'item' | 'folder', names: string[]): string {
  const shown = names.length > WHERE_NAMES ? [...names.slice(0, 3), '…', ...names.slice(-(WHERE_NAMES - 4))] : names;
  return `${kind} "${shown.map((name) => (name.length > WHERE_NAME_LENGTH ? `${name.slice(0, WHERE_NAME_LENGTH)}…` : name)).join(' / ')}"`;
}

/** Where in the source JSON.parse stopped: V8 says `at position N` (its message also quotes the source, which may hold a secret). */
function syntaxErrorPlace(source: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  if (position === null) return '';
  const before = source.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

function parsed(source: string): Json {
  try {
    return JSON.parse(source) as Json;
  } catch (error) {
    throw new ImportSourceError(
      'collection',
      `is not JSON${syntaxErrorPlace(source, (error as Error).message)}: export the collection from Postman as Collection v2.1`,
    );
  }
}

/** The version `info.schema` names (`https://schema.getpostman.com/json/collection/v2.1.0/collection.json`); v1 has no `info`. */
function checkVersion(collection: JsonNode): void {
  const schema = collection.object('info')?.string('schema');
  if (schema === undefined) {
    if (collection.has('requests') || collection.has('order')) throw collection.fail(`is ${V1}`);
    if (!Array.isArray(collection.member('item'))) throw collection.fail('is not a Postman collection: it has no `item` list');
    return;
  }
  if (/\/v1(\.\d+)*\//.test(schema)) throw collection.fail(`is ${V1}`);
  // v2.0 differs from v2.1 only in writing auth attributes as an object instead of a list, which both are read as.
  if (!/\/v2\.[01](\.\d+)*\//.test(schema)) throw collection.fail('is not a Postman Collection v2.1: its info.schema names another format');
}

/**
 * The collection object of the source, checked to be v2.1 (or v2.0, read alike). Postman's API answers a
 * collection wrapped in `{ "collection": … }`: unwrapped.
 */
export function collectionOf(source: string): JsonNode {
  const json = parsed(source);
  if (!isJsonObject(json)) throw new ImportSourceError('collection', 'is not a Postman collection: export it from Postman as Collection v2.1 (a JSON object)');
  const wrapped = !Object.hasOwn(json, 'item') && isJsonObject(json.collection) ? json.collection : json;
  const collection = new JsonNode(wrapped, 'collection', '');
  checkVersion(collection);
  return collection;
}

/** Whether a level has a pre-request or test script with any code in it. */
function hasScripts(level: JsonNode): boolean {
  return level.objects('event').some((event) => {
    const script = event.flag('disabled') ? undefined : event.object('script');
    const exec = script?.member('exec');
    const lines = typeof exec === 'string' ? [exec] : (script?.array('exec') ?? []);
    return lines.some((line) => typeof line === 'string' && line.trim() !== '');
  });
}

/** Which selectors name a level: `Folder/Request`, or as `where` writes it, `Folder / Request`. */
class Selection {
  private readonly unmatched: Set<string>;

  constructor(private readonly selectors: ReadonlySet<string> | undefined) {
    this.unmatched = new Set(selectors);
  }

  /** Whether the selection takes everything at and under these names. */
  takes(names: string[]): boolean {
    if (this.selectors === undefined) return true;
    const keys = [names.join('/'), names.join(' / ')].filter((key) => this.selectors!.has(key));
    keys.forEach((key) => this.unmatched.delete(key));
    return keys.length > 0;
  }

  /** The selectors that named nothing. */
  missed(): string[] {
    return [...this.unmatched];
  }
}

/** An element of an `item` list: its node (named by its own path) and its label (its name, or `#n` when it has none). */
function childOf(element: Json, index: number, parent: Level, parentNode: JsonNode): { node: JsonNode; label: string; isFolder: boolean } {
  const at = JsonNode.of(element, parentNode.where, parentNode.pathOf(`item[${index}]`));
  const label = at.string('name')?.trim() || `#${index + 1}`;
  const names = [...parent.names, label];
  const isFolder = at.has('item');
  return { node: new JsonNode(at.value, whereOf(isFolder ? 'folder' : 'item', names), ''), label, isFolder };
}

interface Walk {
  selection: Selection;
  warnings: Warnings;
  found: FoundRequest[];
}

function visit(owner: JsonNode, level: Level, taken: boolean, walk: Walk): void {
  owner.array('item')?.forEach((element, index) => {
    const { node, label, isFolder } = childOf(element, index, level, owner);
    const names = [...level.names, label];
    const takesThis = walk.selection.takes(names) || taken;
    if (isFolder) {
      if (names.length > MAX_FOLDER_DEPTH) throw node.fail(`folders nest deeper than ${MAX_FOLDER_DEPTH} levels: move the requests up`);
      const scripted = hasScripts(node) ? [...level.scripted, node.where] : level.scripted;
      const name = node.string('name');
      const folders = name === undefined || name.trim() === '' ? level.folders : [...level.folders, name];
      visit(node, { names, folders, auth: declaredAuth(node, node.where) ?? level.auth, scripted }, takesThis, walk);
    } else if (takesThis && node.has('request')) {
      walk.found.push({
        item: node,
        names,
        folders: level.folders,
        auth: level.auth,
        scripted: hasScripts(node) ? [...level.scripted, node.where] : level.scripted,
      });
    } else if (takesThis) {
      walk.warnings.add('ITEM_SKIPPED', node.where, 'Left out: it is neither a request (no `request`) nor a folder (no `item` list).');
    }
  });
}

/** The request items under the selection (every one without a selection), in the collection's order. */
export function requestsOf(collection: JsonNode, select: string[] | undefined, warnings: Warnings): FoundRequest[] {
  const selection = new Selection(select === undefined ? undefined : new Set(select));
  const top: Level = { names: [], folders: [], auth: declaredAuth(collection, 'collection'), scripted: hasScripts(collection) ? ['collection'] : [] };
  const walk: Walk = { selection, warnings, found: [] };
  visit(collection, top, select === undefined, walk);
  const missed = selection.missed();
  if (missed.length > 0) {
    throw new ImportSourceError(
      `select ${quotedList(missed)}`,
      'names no folder or request of the collection: write item paths as Folder/Sub folder/Request name',
    );
  }
  return walk.found;
}

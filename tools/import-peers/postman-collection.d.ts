/**
 * The part of postman-collection 5 (CommonJS; its bundled typings predate 5.x and are not named in its package.json)
 * that the peer comparison reads.
 */
declare module 'postman-collection' {
  export interface PropertyList<T> {
    all(): T[];
  }
  export interface VariableList {
    get(name: string): unknown;
  }
  export interface QueryParam {
    key: string | null;
    value: string | null | undefined;
    disabled?: boolean;
  }
  export interface Header {
    key: string;
    value: string;
    disabled?: boolean;
  }
  export interface Url {
    protocol?: string;
    port?: string;
    path?: string[];
    query: PropertyList<QueryParam>;
    getHost(): string;
  }
  export interface RequestAuth {
    type: string;
    parameters(): VariableList | undefined;
  }
  export interface Request {
    method: string;
    url: Url;
    headers: PropertyList<Header>;
    body?: unknown;
  }
  export class Item {
    name?: string;
    parent(): { items: PropertyList<Item> } | undefined;
    request: Request;
    protocolProfileBehavior?: { disableBodyPruning?: boolean };
    getAuth(): RequestAuth | undefined;
    forEachParent(options: { withRoot: boolean }, callback: (parent: { name?: string }) => void): void;
  }
  export class Collection {
    constructor(definition: unknown);
    variables: PropertyList<{ key: string; value: unknown }>;
    forEachItem(callback: (item: Item) => void): void;
  }
}

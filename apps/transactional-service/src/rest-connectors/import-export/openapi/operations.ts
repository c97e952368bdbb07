import { IMPORT_LIMITS } from '@app/domain';
import { ImportSourceError } from '../connector-draft';
import { HTTP_METHODS } from './swagger2';
import { JsonRecord, entriesOf, isRecord } from './values';

export interface OperationSource {
  /** Lower case, as the document keys it. */
  method: (typeof HTTP_METHODS)[number];
  path: string;
  pathItem: JsonRecord;
  operation: JsonRecord;
  /** `operation GET /pets`. */
  where: string;
}

/** Every operation of the document, in its order: paths as written, methods in HTTP_METHODS' order within a path. */
export function listOperations(document: JsonRecord): OperationSource[] {
  return entriesOf(document.paths).flatMap(([path, pathItem]) =>
    isRecord(pathItem)
      ? HTTP_METHODS.filter((method) => isRecord(pathItem[method])).map((method) => ({
          method,
          path,
          pathItem,
          operation: pathItem[method] as JsonRecord,
          where: `operation ${method.toUpperCase()} ${path.slice(0, 200)}`,
        }))
      : [],
  );
}

/**
 * The operations `select` names, each by its operationId or as `METHOD /path` (the method in any case), in the
 * document's order. Every selector must match: one that matches nothing is refused, naming it.
 */
export function selectOperations(operations: OperationSource[], select: unknown): OperationSource[] {
  if (select === undefined || select === null) return operations;
  if (!Array.isArray(select) || select.length === 0) {
    throw new ImportSourceError('select', 'must list operationIds or `METHOD /path`s such as "GET /pets" (leave it out to import every operation)');
  }
  const chosen = new Set<OperationSource>();
  select.forEach((selector: unknown, index) => {
    if (typeof selector !== 'string') throw new ImportSourceError(`select[${index}]`, 'must be an operationId or `METHOD /path` string');
    const matches = operations.filter((operation) => matchesSelector(operation, selector.trim()));
    if (matches.length === 0) {
      throw new ImportSourceError(
        `select ${JSON.stringify(selector.slice(0, 100))}`,
        'matches no operation of the document: give an operationId or a method and path as the document writes it, such as "GET /pets/{petId}"',
      );
    }
    matches.forEach((operation) => chosen.add(operation));
  });
  return operations.filter((operation) => chosen.has(operation));
}

/**
 * Without `select`, every operation becomes a connector, and an import creates at most IMPORT_LIMITS.connectors:
 * a larger document is refused here, before it is validated and drafted (12,000 operations took seconds to draft
 * only to be refused by the service). Counted on the document as parsed: a path item behind a `$ref` is not seen, and
 * the service's own check still applies. TRACE operations are left out of any import, so they do not count.
 */
export function checkOperationCount(document: JsonRecord, select: unknown): void {
  if (select !== undefined && select !== null) return;
  const count = listOperations(document).filter(({ method }) => method !== 'trace').length;
  if (count > IMPORT_LIMITS.connectors) {
    throw new ImportSourceError(
      'paths',
      `hold ${count} operations; an import creates at most ${IMPORT_LIMITS.connectors} connectors: choose some with select (operationIds or "METHOD /path"s such as "GET /pets")`,
    );
  }
}

export function matchesSelector(operation: OperationSource, selector: string): boolean {
  if (operation.operation.operationId === selector) return true;
  const methodAndPath = /^(\S+)\s+(\S+)$/.exec(selector);
  return methodAndPath !== null && methodAndPath[1].toLowerCase() === operation.method && methodAndPath[2] === operation.path;
}

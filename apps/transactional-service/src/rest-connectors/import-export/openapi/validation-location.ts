const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * The JSON path (keys from the root) of the value that starts on `line` (1-based) of `JSON.stringify(value, null, 2)`:
 * the validator's code frames number the lines of that text (better-ajv-errors, indent 2), not the source's. Walked
 * in JSON.stringify's own order (own enumerable keys, `undefined` and functions left out), without building the text.
 */
export function pathAtLine(value: unknown, line: number): string[] | null {
  let current = 1;
  const walk = (node: unknown, path: string[]): string[] | null => {
    if (current === line) return path;
    if (node === null || typeof node !== 'object') return null;
    const entries = Array.isArray(node)
      ? node.map((item, index) => [String(index), item] as const)
      : Object.entries(node).filter(([, item]) => item !== undefined && typeof item !== 'function');
    // `{}` and `[]` are one line; otherwise the opening line, one or more per member, and the closing line.
    if (entries.length === 0) return null;
    for (const [key, item] of entries) {
      current += 1;
      const found = walk(item, [...path, key]);
      if (found) return found;
    }
    current += 1;
    return null;
  };
  return walk(value, []);
}

/** The line a validator message's code frame points at (`> 20 |`), or null. */
export function framedLine(message: string): number | null {
  const marked = /^>\s*(\d+)\s*\|/m.exec(message);
  return marked ? Number(marked[1]) : null;
}

/** Where a JSON path stands, in the words of an import's `where`: `operation POST /items/{id}`, or the pointer. */
export function whereOf(path: string[]): string {
  if (path[0] === 'paths' && path.length >= 3 && METHODS.has(path[2])) return `operation ${path[2].toUpperCase()} ${path[1]}`;
  if (path[0] === 'paths' && path.length >= 2) return `path ${path[1]}`;
  return path.length === 0 ? 'document' : `/${path.map((key) => key.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

import { CST, Lexer } from 'yaml';
import { ImportSourceError } from '../connector-draft';
import { MAX_DEPTH } from './document-size';
import { lineAt } from './values';

/** Markers the lexer adds for the parser: no character of the source stands for them. */
const MARKERS = new Set(['doc-mode', 'flow-error-end', 'scalar']);
/** Where a line's first token (or the one after `- `, `? `, `: `) is one of these, a block node starts at its column. */
const BLOCK_NODE = new Set([
  'scalar',
  'single-quoted-scalar',
  'double-quoted-scalar',
  'block-scalar-header',
  'alias',
  'seq-item-ind',
  'explicit-key-ind',
  'map-value-ind',
]);
/** `- ` and `? ` open a block node on the line of their parent (`- - a`); a value after `: ` is counted with its key. */
const NESTING_INDICATOR = new Set(['seq-item-ind', 'explicit-key-ind']);
/** Tokens after which a node may still start on the same line. */
const NODE_MAY_FOLLOW = new Set([...NESTING_INDICATOR, 'space', 'anchor', 'tag']);

interface BlockLevel {
  column: number;
  isSequence: boolean;
}

/**
 * Refuses YAML that nests deeper than MAX_DEPTH before the `yaml` parser reads it: its parser slows down with each
 * level and its composer recurses per level, so 1 MiB of `[` or `- ` took seconds to end in a stack overflow. Counted
 * on the tokens of `yaml`'s own lexer, which reads quoted scalars and comments as the parser does, and stopped as soon
 * as the limit is passed. Flow levels (`[`, `{`) are exact; block levels are read from the columns where nodes start
 * (a sequence may stand at its parent key's column), which is close enough for a limit no document comes near.
 */
export function checkYamlNesting(source: string): void {
  const blocks: BlockLevel[] = [];
  let flow = 0;
  let offset = 0;
  let lineOffset = 0;
  let nodeMayStart = true;
  for (const token of new Lexer().lex(source)) {
    const type = CST.tokenType(token);
    if (type === 'doc-start' || type === 'doc-mode') blocks.length = 0;
    else if (type === 'flow-seq-start' || type === 'flow-map-start') flow += 1;
    else if (type === 'flow-seq-end' || type === 'flow-map-end') flow = Math.max(0, flow - 1);
    else if (flow === 0 && nodeMayStart && type !== null && BLOCK_NODE.has(type)) enterBlock(blocks, offset - lineOffset, type === 'seq-item-ind');
    if (blocks.length + flow > MAX_DEPTH) {
      throw new ImportSourceError(`line ${lineAt(source, offset)}`, `nests more than ${MAX_DEPTH} levels deep: no OpenAPI document needs that`);
    }
    if (type !== null && MARKERS.has(type)) continue;
    offset += token.length;
    const newline = token.lastIndexOf('\n');
    if (newline !== -1) lineOffset = offset - (token.length - newline - 1);
    if (newline !== -1) nodeMayStart = lineOffset === offset;
    else nodeMayStart = type !== null && (NESTING_INDICATOR.has(type) || (nodeMayStart && NODE_MAY_FOLLOW.has(type)));
  }
}

/** A node at `column` closes the deeper levels; at the column of a mapping key, a `- ` opens a sequence inside it. */
function enterBlock(blocks: BlockLevel[], column: number, isSequence: boolean): void {
  let top = blocks.at(-1);
  while (top && (top.column > column || (top.column === column && top.isSequence && !isSequence))) {
    blocks.pop();
    top = blocks.at(-1);
  }
  if (!top || top.column < column || (isSequence && !top.isSequence)) blocks.push({ column, isSequence });
}

/** Where a text stops being JSON, and why, in words that never quote it. */
export interface JsonProblem {
  /** 1-based line; lines end at `\n`. */
  line: number;
  /** 1-based column in UTF-16 code units, as editors count them. */
  column: number;
  /** What is wrong there. */
  reason: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const LITERALS = ['true', 'false', 'null'];

/** What the scanner expects next. */
type Expect = 'value' | 'value-or-end' | 'key' | 'key-or-end' | 'colon' | 'comma-or-end' | 'nothing';

/** Where a step found the text not to be JSON. */
interface Stop {
  offset: number;
  reason: string;
}

/** The scanner: the text, where it is, the open objects and arrays, what comes next. */
interface Scan {
  text: string;
  i: number;
  stack: Array<'{' | '['>;
  expect: Expect;
}

/**
 * The first place where `text` is not RFC 8259 JSON, or null when it is. One pass with an explicit stack (a body
 * nested thousands deep must not exhaust the call stack). V8's own message names a position for some failures only
 * and quotes the input for others, so the position is found here, the same way for all.
 */
export function jsonProblem(text: string): JsonProblem | null {
  const scan: Scan = { text, i: 0, stack: [], expect: 'value' };
  for (;;) {
    while (scan.i < text.length && WHITESPACE.has(text[scan.i])) scan.i++;
    const stop = scan.i === text.length ? (scan.expect === 'nothing' ? null : { offset: scan.i, reason: 'the body ends before the JSON does' }) : step(scan);
    if (stop === null) return null;
    if (stop !== undefined) return { ...lineAndColumn(text, stop.offset), reason: stop.reason };
  }
}

/** One token at `scan.i` (not whitespace, not the end): undefined when it fits, else where and why not. */
function step(scan: Scan): Stop | undefined {
  const c = scan.text[scan.i];
  switch (scan.expect) {
    case 'nothing':
      return { offset: scan.i, reason: 'more text follows the JSON value' };
    case 'colon':
      if (c !== ':') return { offset: scan.i, reason: "a ':' must follow a property name" };
      scan.i++;
      scan.expect = 'value';
      return undefined;
    case 'comma-or-end':
      return commaOrEnd(scan, c);
    default:
      if ((scan.expect === 'key-or-end' && c === '}') || (scan.expect === 'value-or-end' && c === ']')) return close(scan);
      return scan.expect === 'key' || scan.expect === 'key-or-end' ? key(scan, c) : value(scan, c);
  }
}

function close(scan: Scan): undefined {
  scan.stack.pop();
  scan.i++;
  scan.expect = afterValue(scan);
  return undefined;
}

const afterValue = (scan: Scan): Expect => (scan.stack.length === 0 ? 'nothing' : 'comma-or-end');

function commaOrEnd(scan: Scan, c: string): Stop | undefined {
  const closer = scan.stack[scan.stack.length - 1] === '{' ? '}' : ']';
  if (c === closer) return close(scan);
  if (c !== ',') return { offset: scan.i, reason: `a ',' or '${closer}' must follow a value` };
  scan.expect = closer === '}' ? 'key' : 'value';
  scan.i++;
  return undefined;
}

function key(scan: Scan, c: string): Stop | undefined {
  if (c !== '"') return { offset: scan.i, reason: 'a property name must be a double-quoted string (no trailing comma)' };
  const end = stringEnd(scan.text, scan.i);
  if (typeof end !== 'number') return end;
  scan.i = end;
  scan.expect = 'colon';
  return undefined;
}

function value(scan: Scan, c: string): Stop | undefined {
  const { text } = scan;
  if (c === '{' || c === '[') {
    scan.stack.push(c);
    scan.expect = c === '{' ? 'key-or-end' : 'value-or-end';
    scan.i++;
    return undefined;
  }
  const end = c === '"' ? stringEnd(text, scan.i) : c === '-' || (c >= '0' && c <= '9') ? numberEnd(text, scan.i) : literalEnd(scan, c);
  if (typeof end !== 'number') return end;
  scan.i = end;
  scan.expect = afterValue(scan);
  return undefined;
}

function numberEnd(text: string, start: number): number | Stop {
  NUMBER.lastIndex = start;
  return NUMBER.test(text) ? NUMBER.lastIndex : { offset: start + 1, reason: 'a number must have digits here' };
}

function literalEnd({ text, i, expect }: Scan, c: string): number | Stop {
  const literal = LITERALS.find((word) => word[0] === c);
  if (!literal) return { offset: i, reason: expect === 'value-or-end' ? 'a value must follow (no trailing comma)' : 'a value must start here' };
  for (let k = 0; k < literal.length; k++) if (text[i + k] !== literal[k]) return { offset: i + k, reason: `expected ${literal}` };
  return i + literal.length;
}

/** The offset past the string that opens at `start`, or where and why it is not one. */
function stringEnd(text: string, start: number): number | Stop {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (text[i] === '"') return i + 1;
    if (code < 0x20) return { offset: i, reason: 'a string holds a raw line break, tab or other control character (write it as \\n, \\t, \\u00XX)' };
    if (text[i] !== '\\') continue;
    const escaped = text[i + 1];
    if (escaped === 'u') {
      HEX4.lastIndex = i + 2;
      if (!HEX4.test(text)) return { offset: i, reason: 'a \\u escape needs four hexadecimal digits' };
      i += 5;
    } else if (escaped !== undefined && ESCAPES.has(escaped)) i++;
    else return { offset: i, reason: 'a backslash in a string must start an escape (write \\\\ for a backslash)' };
  }
  return { offset: text.length, reason: 'a string is not closed before the body ends' };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

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

/**
 * The first place where `text` is not RFC 8259 JSON, or null when it is. One pass with an explicit stack (a body
 * nested thousands deep must not exhaust the call stack). V8's own message names a position for some failures only
 * and quotes the input for others, so the position is found here, the same way for all.
 */
export function jsonProblem(text: string): JsonProblem | null {
  const stack: Array<'{' | '['> = [];
  let expect: Expect = 'value';
  let i = 0;
  const at = (offset: number, reason: string): JsonProblem => ({ ...lineAndColumn(text, offset), reason });
  const afterValue = (): Expect => (stack.length === 0 ? 'nothing' : 'comma-or-end');
  while (true) {
    while (i < text.length && WHITESPACE.has(text[i])) i++;
    if (i === text.length) return expect === 'nothing' ? null : at(i, 'the body ends before the JSON does');
    const c = text[i];
    if (expect === 'nothing') return at(i, 'more text follows the JSON value');
    if (expect === 'colon') {
      if (c !== ':') return at(i, "a ':' must follow a property name");
      i++;
      expect = 'value';
      continue;
    }
    if (expect === 'comma-or-end') {
      const close = stack[stack.length - 1] === '{' ? '}' : ']';
      if (c === ',') expect = close === '}' ? 'key' : 'value';
      else if (c === close) {
        stack.pop();
        expect = afterValue();
      } else return at(i, `a ',' or '${close}' must follow a value`);
      i++;
      continue;
    }
    if ((expect === 'key-or-end' && c === '}') || (expect === 'value-or-end' && c === ']')) {
      stack.pop();
      i++;
      expect = afterValue();
      continue;
    }
    if (expect === 'key' || expect === 'key-or-end') {
      if (c !== '"') return at(i, 'a property name must be a double-quoted string (no trailing comma)');
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return at(end.offset, end.reason);
      i = end;
      expect = 'colon';
      continue;
    }
    // A value.
    if (c === '{' || c === '[') {
      stack.push(c);
      expect = c === '{' ? 'key-or-end' : 'value-or-end';
      i++;
      continue;
    }
    if (c === '"') {
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return at(end.offset, end.reason);
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) return at(i + 1, 'a number must have digits here');
      i = NUMBER.lastIndex;
    } else {
      const literal = LITERALS.find((word) => word[0] === c);
      if (!literal) return at(i, expect === 'value-or-end' ? 'a value must follow (no trailing comma)' : 'a value must start here');
      for (let k = 0; k < literal.length; k++) if (text[i + k] !== literal[k]) return at(i + k, `expected ${literal}`);
      i += literal.length;
    }
    expect = afterValue();
  }
}

/** The offset past the string that opens at `start`, or where and why it is not one. */
function stringEnd(text: string, start: number): number | { offset: number; reason: string } {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (text[i] === '"') return i + 1;
    if (code < 0x20)
      return { offset: i, reason: 'a string holds a raw line break, tab or other control character (write it as \\n, \\t, \\u00XX)' };
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

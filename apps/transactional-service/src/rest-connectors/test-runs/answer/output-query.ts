/**
 * The connector's `output` applied to a far side's answer as an RFC 9535 JSONPath query (json-p3), inside the
 * answer worker (answer.worker.ts). Everything a hostile answer or query could make unbounded is bounded here
 * (nesting before parsing, query size, values and their size, regular expressions in linear time); time and
 * memory are bounded by the worker around it (answer-reader.ts).
 */
import { check as isIRegexp } from 'iregexp-check';
import { FilterFunction, FunctionExpressionType, JSONPathEnvironment, JSONPathQuery, JSONValue } from 'json-p3';
import { RE2JS } from 're2js';

export const OUTPUT_LIMITS = {
  /** Arrays and objects nested deeper than this are not read as JSON (checked before parsing). */
  jsonDepth: 64,
  /** Segments, selectors and filter-expression nodes of one query. */
  queryNodes: 256,
  /** Values shown; the rest are counted as cut. */
  values: 1000,
  /** Bytes of the values shown, as JSON. */
  valuesBytes: 64 * 1024,
  /** Keys listed in a hint. */
  hintKeys: 10,
  /** JSONPaths listed for a JSON answer, to pick an `output` from. */
  paths: 100,
} as const;

export interface QueryResult {
  /** What the query selects, in document order, within the limits; null when it could not be evaluated. */
  values: unknown[] | null;
  /** True when the query selects more than `values` holds. */
  valuesTruncated: boolean;
  error: string | null;
  /** When the query selects nothing: how far it got, in words. */
  hint: string | null;
}

export const queryFailed = (error: string): QueryResult => ({ values: null, valuesTruncated: false, error, hint: null });

/** The deepest nesting of arrays and objects in a JSON text, counted without parsing it; stops past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** I-Regexp (RFC 9485) as RE2 syntax: `.` is any character but CR and LF there, and RE2 has no other difference that I-Regexp allows. */
function toRe2(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else out += c === '.' ? '[^\\n\\r]' : c;
  }
  return out;
}

/**
 * RFC 9535's match() and search() over RE2 (re2js): linear in the text whatever the pattern, so that a pattern
 * such as `(x+)+y` cannot stall the evaluation as it does a backtracking engine. A pattern that is not I-Regexp
 * gives false, as the RFC says. Patterns are compiled once per evaluation.
 */
class LinearRegexFunction implements FilterFunction {
  readonly argTypes = [FunctionExpressionType.ValueType, FunctionExpressionType.ValueType];
  readonly returnType = FunctionExpressionType.LogicalType;
  private readonly compiled = new Map<string, RE2JS | null>();

  constructor(private readonly whole: boolean) {}

  call(value: unknown, pattern: unknown): boolean {
    if (typeof value !== 'string' || typeof pattern !== 'string') return false;
    let re = this.compiled.get(pattern);
    if (re === undefined) {
      re = isIRegexp(pattern) ? compileOrNull(toRe2(pattern)) : null;
      this.compiled.set(pattern, re);
    }
    if (re === null) return false;
    return this.whole ? re.matches(value) : re.test(value);
  }
}

function compileOrNull(pattern: string): RE2JS | null {
  try {
    return RE2JS.compile(pattern);
  } catch {
    return null;
  }
}

function environment(): JSONPathEnvironment {
  // The descendant segment recurses once per level: the document's nesting is bounded before parsing.
  const env = new JSONPathEnvironment({ maxRecursionDepth: OUTPUT_LIMITS.jsonDepth + 2 });
  env.functionRegister.set('match', new LinearRegexFunction(true));
  env.functionRegister.set('search', new LinearRegexFunction(false));
  return env;
}

/** The nodes of a compiled query (segments, selectors, filter expressions; not the lists that hold them), counted up to `limit`. */
function queryNodesExceed(query: JSONPathQuery, limit: number): boolean {
  const seen = new Set<object>();
  let nodes = 0;
  const pending: object[] = [query];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && node !== query && ++nodes > limit) return true;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'environment' || key === 'token' || child === null || typeof child !== 'object') continue;
      pending.push(child);
    }
  }
  return false;
}

function select(query: JSONPathQuery, document: JSONValue): QueryResult {
  const values: unknown[] = [];
  let bytes = 0;
  for (const node of query.lazyQuery(document)) {
    const size = Buffer.byteLength(JSON.stringify(node.value) ?? 'null', 'utf8');
    if (values.length === OUTPUT_LIMITS.values || bytes + size > OUTPUT_LIMITS.valuesBytes) {
      if (values.length === 0) {
        return queryFailed(`output selects a value of ${size} bytes as JSON: a test run shows at most ${OUTPUT_LIMITS.valuesBytes} bytes of values`);
      }
      return { values, valuesTruncated: true, error: null, hint: null };
    }
    values.push(node.value);
    bytes += size;
  }
  return { values, valuesTruncated: false, error: null, hint: values.length === 0 ? hintFor(query, document) : null };
}

/** Why a query selects nothing: the longest leading part of it that selects something, and what is there. */
function hintFor(query: JSONPathQuery, document: JSONValue): string {
  for (let kept = query.segments.length - 1; kept >= 0; kept--) {
    const prefix = new JSONPathQuery(query.environment, query.segments.slice(0, kept));
    const first = prefix.lazyQuery(document).next();
    if (first.done) continue;
    const where = prefix.toString();
    const next = query.segments[kept].toString();
    return `output selects nothing: ${where} selects ${describe(first.value.value)}, and ${next} selects nothing from it`;
  }
  return 'output selects nothing';
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const shown = keys.slice(0, OUTPUT_LIMITS.hintKeys).map((key) => JSON.stringify(key));
    return keys.length === 0
      ? 'an empty object'
      : `an object with the member${keys.length === 1 ? '' : 's'} ${shown.join(', ')}${keys.length > shown.length ? ', …' : ''}`;
  }
  return value === null ? 'null' : `the ${typeof value} ${JSON.stringify(value).slice(0, 80)}`;
}

/** The body as JSON, or why it is not read as JSON: not JSON, or nested deeper than OUTPUT_LIMITS.jsonDepth. */
export function parseAnswer(body: string): { value: JSONValue } | { notJson: string } {
  if (jsonDepthExceeds(body, OUTPUT_LIMITS.jsonDepth)) {
    return { notJson: `the answer nests arrays and objects deeper than ${OUTPUT_LIMITS.jsonDepth} levels: a test run does not read it as JSON` };
  }
  try {
    return { value: JSON.parse(body) as JSONValue };
  } catch {
    return { notJson: 'the answer is not JSON' };
  }
}

/** `expression` compiled and applied to the parsed answer, within the limits. */
export function queryAnswer(expression: string, document: JSONValue): QueryResult {
  let query: JSONPathQuery;
  try {
    query = environment().compile(expression);
  } catch (error) {
    return queryFailed(`output is not a valid JSONPath query (RFC 9535): ${(error as Error).message}`);
  }
  if (queryNodesExceed(query, OUTPUT_LIMITS.queryNodes)) {
    return queryFailed(`output is too large a query for a test run: at most ${OUTPUT_LIMITS.queryNodes} segments, selectors and filter terms`);
  }
  try {
    return select(query, document);
  } catch (error) {
    return queryFailed(`output could not be evaluated: ${(error as Error).message}`);
  }
}

/**
 * The JSONPath of each value of a parsed answer (`$..*`, in document order), as json-p3 writes a node's path in its
 * pretty form (`$.data.level`, `$.items[0]`, `$["odd key"]`): each one selects its value, so a caller picks an
 * `output` from them. At most OUTPUT_LIMITS.paths; `truncated` when there are more.
 */
export function jsonPaths(document: JSONValue): { paths: string[]; truncated: boolean } {
  const paths: string[] = [];
  for (const node of environment().lazyQuery('$..*', document)) {
    if (paths.length === OUTPUT_LIMITS.paths) return { paths, truncated: true };
    paths.push(node.getPath({ form: 'pretty' }));
  }
  return { paths, truncated: false };
}

/** The query of a text: why it could not be read as JSON, or what `expression` selects in it. */
export function queryText(expression: string, body: string): QueryResult {
  const parsed = parseAnswer(body);
  return 'notJson' in parsed ? queryFailed(parsed.notJson) : queryAnswer(expression, parsed.value);
}

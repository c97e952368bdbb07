import { CORE_SCHEMA, load } from 'js-yaml';
import { Document, LineCounter, isScalar, parseDocument, visit } from 'yaml';
import { ImportSourceError } from '../connector-draft';
import { JsonRecord, isRecord, lineAt, messageOf } from './values';
import { checkYamlNesting } from './yaml-nesting';

/** YAML aliases expand in place: this many is plenty for a hand-written document and stops an alias bomb. */
const MAX_YAML_ALIASES = 100;

/** Where an anchor may stand in YAML (`&name` after a line start, space, `[`, `{`, `,`, `:` or `-`): its aliases need the `yaml` package. */
const MAY_HOLD_ANCHOR = /(?:^|[\s[{,:-])&[^\s,[\]{}]/;

/**
 * The document as data: JSON when it starts with `{` (JSON.parse is fast and exact), YAML 1.2 otherwise. A YAML
 * document without anchors is read by js-yaml (CORE_SCHEMA: YAML 1.2's core schema, duplicate keys refused), an
 * eighth of the heap and a sixth of the time of the `yaml` package (6.3 MiB: 34 MB and 2.4 s against 200 MB and
 * 15.5 s, past the import worker's heap); one that may hold anchors, or that js-yaml refuses, is read by `yaml`,
 * which limits aliases and says the line of an error as the answer words it. A string is never handed to the
 * OpenAPI parser: it would take it for a file path or URL.
 */
export function parseSource(source: unknown): JsonRecord {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new ImportSourceError('document', 'is empty: paste the OpenAPI document (JSON or YAML)');
  }
  const value = source.trimStart().startsWith('{') ? parseJson(source) : parseYaml(source);
  if (!isRecord(value)) {
    throw new ImportSourceError('document', 'is not an OpenAPI document: expected an object with `openapi: 3.x` or `swagger: "2.0"`');
  }
  return value;
}

function parseJson(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new ImportSourceError(jsonErrorLine(source, error), `is not valid JSON: ${messageOf(error)}`);
  }
}

/** The line of a JSON.parse error, from where V8 says it stopped; `document` when it does not say. */
function jsonErrorLine(source: string, error: unknown): string {
  const position = jsonErrorPosition(source, error instanceof Error ? error.message : '');
  return position === undefined ? 'document' : `line ${lineAt(source, position)}`;
}

/**
 * V8 writes `… in JSON at position N`, or `Unexpected end of JSON input`, or (for an unexpected token) a quote of up
 * to 10 characters on each side of it: `"…x…"…` at the start of the source, `…"…x…"` at its end, `…"…x…"…` in the
 * middle, where only a quote that occurs once in the source says where.
 */
function jsonErrorPosition(source: string, message: string): number | undefined {
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  if (message.startsWith('Unexpected end of JSON input')) return source.length;
  const quoted = /^Unexpected token .*?, (\.\.\.)?"(.*)"(\.\.\.)? is not valid JSON$/s.exec(message);
  if (!quoted) return undefined;
  const [, before, context, after] = quoted;
  if (!before && after) return context.length - 10;
  if (before && !after) return source.length - context.length + 10;
  const start = source.indexOf(context);
  return before && start !== -1 && source.indexOf(context, start + 1) === -1 ? start + 10 : undefined;
}

function parseYaml(source: string): unknown {
  checkYamlNesting(source);
  if (!MAY_HOLD_ANCHOR.test(source)) {
    try {
      return load(source, { schema: CORE_SCHEMA, json: false });
    } catch {
      // Read again below, for the error as `yaml` says it (or, if `yaml` reads it, its data).
    }
  }
  return parseYamlDocument(source);
}

/** Through the `yaml` package: aliases limited, errors with their line. */
function parseYamlDocument(source: string): unknown {
  const lineCounter = new LineCounter();
  try {
    // `uniqueKeys: true` compares each key with every earlier one of its mapping: checkUniqueKeys is linear.
    const document = parseDocument(source, { lineCounter, uniqueKeys: false, prettyErrors: false });
    const [first] = document.errors;
    if (first) {
      const where = `line ${lineCounter.linePos(first.pos[0]).line}`;
      throw new ImportSourceError(where, `is not valid YAML or JSON: ${messageOf(first)}`);
    }
    checkUniqueKeys(document, lineCounter);
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ImportSourceError) throw error;
    // The `yaml` package recurses per nesting level and counts aliases: both end in a plain Error here.
    throw new ImportSourceError('document', `cannot be read: ${messageOf(error)}`);
  }
}

/** YAML 1.2 wants the keys of a mapping unique (as `uniqueKeys: true` checks: equal scalar values), seen in a set. */
function checkUniqueKeys(document: Document, lineCounter: LineCounter): void {
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (seen.has(key.value)) {
          const where = key.range ? `line ${lineCounter.linePos(key.range[0]).line}` : 'document';
          throw new ImportSourceError(where, `has the key ${JSON.stringify(String(key.value).slice(0, 100))} twice in one mapping: keep one`);
        }
        seen.add(key.value);
      }
    },
  });
}

import { LineCounter, parseDocument } from 'yaml';
import { ImportSourceError } from '../connector-draft';
import { JsonRecord, isRecord, messageOf } from './values';

/** YAML aliases expand in place: this many is plenty for a hand-written document and stops an alias bomb. */
const MAX_YAML_ALIASES = 100;

/**
 * The document as data: JSON when it starts with `{` (JSON.parse is fast and exact), YAML 1.2 otherwise, through the
 * `yaml` package rather than the parser's own reader, because `yaml` limits aliases and says the line of an error.
 * A string is never handed to the OpenAPI parser: it would take it for a file path or URL.
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

/** V8 names the offset of a JSON syntax error (`at position 42`); the line is what a person can find. */
function jsonErrorLine(source: string, error: unknown): string {
  const position = /position (\d+)/.exec(messageOf(error));
  if (!position) return 'document';
  const before = source.slice(0, Number(position[1]));
  return `line ${before.split('\n').length}`;
}

function parseYaml(source: string): unknown {
  const lineCounter = new LineCounter();
  try {
    const document = parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false });
    const [first] = document.errors;
    if (first) {
      const where = first.linePos ? `line ${first.linePos[0].line}` : 'document';
      throw new ImportSourceError(where, `is not valid YAML or JSON: ${messageOf(first)}`);
    }
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ImportSourceError) throw error;
    // The `yaml` package recurses per nesting level and counts aliases: both end in a plain Error here.
    throw new ImportSourceError('document', `cannot be read: ${messageOf(error)}`);
  }
}

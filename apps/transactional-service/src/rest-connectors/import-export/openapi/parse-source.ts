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
    throw new ImportSourceError(jsonErrorLine(source), `is not valid JSON: ${messageOf(error)}`);
  }
}

/** V8's messages do not always say where: the YAML reader (JSON is YAML 1.2's flow style) finds the line. */
function jsonErrorLine(source: string): string {
  try {
    parseYaml(source);
  } catch (error) {
    if (error instanceof ImportSourceError) return error.where;
  }
  return 'document';
}

function parseYaml(source: string): unknown {
  const lineCounter = new LineCounter();
  try {
    const document = parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false });
    const [first] = document.errors;
    if (first) {
      const where = `line ${lineCounter.linePos(first.pos[0]).line}`;
      throw new ImportSourceError(where, `is not valid YAML or JSON: ${messageOf(first)}`);
    }
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ImportSourceError) throw error;
    // The `yaml` package recurses per nesting level and counts aliases: both end in a plain Error here.
    throw new ImportSourceError('document', `cannot be read: ${messageOf(error)}`);
  }
}

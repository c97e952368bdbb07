import { framedLine, pathAtLine, whereOf } from './validation-location';
import { ParserOptions, ValidationResult, dereference, validate } from '@readme/openapi-parser';
import { ImportSourceError, ImportWarning } from '../connector-draft';
import { checkDocumentSize } from './document-size';
import { JsonRecord, isRecord, messageOf } from './values';
import { warning } from './warnings';

/**
 * No network and no file system: `resolve.external: false` makes json-schema-ref-parser's resolveExternal return
 * before it crawls for external `$ref`s, so neither the file nor the http resolver (nor the DNS look-up of its
 * "safe URL" check) ever runs; such `$ref`s stay in the document as they are and are reported. `file: false` and a
 * document handed over as an object (never a string, which the parser would read as a path or URL) close the two
 * other doors. `timeoutMs` bounds the dereferencing: three real descriptions merged (4.8 MiB, 2.2 million values
 * expanded) took over 5 s on a busy 2-core machine; the import's budget (IMPORT_BUDGET_MS) bounds all of it.
 */
const PARSER_OPTIONS = {
  resolve: { external: false, file: false },
  timeoutMs: 15_000,
} satisfies ParserOptions;

/** Checks the parser's validator would fail a whole document for, where one operation's import does not suffer. */
const TOLERATED_RULES = {
  'array-without-items': 'warning',
  'duplicate-non-request-body-parameters': 'warning',
  'duplicate-operation-id': 'warning',
  'non-optional-path-parameters': 'warning',
  'path-parameters-not-in-parameters': 'warning',
  'path-parameters-not-in-path': 'warning',
} as const;

const VALIDATION_OPTIONS = {
  ...PARSER_OPTIONS,
  // The validator dereferences again; recursive schemas stay `$ref`s there, which is all it needs.
  dereference: { circular: 'ignore' },
  validate: { rules: { openapi: TOLERATED_RULES, swagger: { ...TOLERATED_RULES, 'unknown-required-schema-property': 'warning' } } },
} satisfies ParserOptions;

const MAX_VALIDATOR_WARNINGS = 20;

export interface LoadedDocument {
  /** The document with every internal `$ref` replaced by what it points at (recursive schemas are cycles). */
  document: JsonRecord;
  warnings: ImportWarning[];
}

/** Validates the document (OpenAPI 3.0, 3.1 or Swagger 2.0) and dereferences it, with @readme/openapi-parser. */
export async function loadDocument(parsed: JsonRecord): Promise<LoadedDocument> {
  checkVersion(parsed);
  checkDocumentSize(parsed, 'the document');
  const forValidation = structuredClone(parsed);
  const document = await callParser(() => dereference(parsed as never, { ...PARSER_OPTIONS, dereference: { circular: true } }));
  if (!isRecord(document)) throw new ImportSourceError('document', 'is not an OpenAPI document');
  // Before validating: the validator walks the dereferenced document as a tree.
  checkDocumentSize(document, 'the document with its $refs replaced');
  const result = await callParser(() => validate(forValidation as never, VALIDATION_OPTIONS));
  if (!result.valid) throw new ImportSourceError('document', invalidReason(result, forValidation));
  return { document, warnings: validatorWarnings(result.warnings.map((found) => summarise(found.message))) };
}

/** The first findings the validator tolerates, each a warning; a document with hundreds gets a count of the rest. */
function validatorWarnings(findings: string[]): ImportWarning[] {
  const shown = findings.slice(0, MAX_VALIDATOR_WARNINGS).map((finding) => warning('DOCUMENT_WARNING', 'document', finding));
  const more = findings.length - shown.length;
  return more > 0 ? [...shown, warning('DOCUMENT_WARNING', 'document', `and ${more} more findings of the same kind`)] : shown;
}

function checkVersion(parsed: JsonRecord): void {
  const openapi = parsed.openapi;
  if (typeof openapi === 'string' && /^3\.[01]\.\d+/.test(openapi)) return;
  if (parsed.swagger === '2.0') return;
  const named = typeof openapi === 'string' ? `openapi: ${openapi.slice(0, 20)}` : 'no `openapi` or `swagger` version';
  throw new ImportSourceError('document', `has ${named}: OpenAPI 3.0, 3.1 (\`openapi: 3.1.0\`) and Swagger 2.0 (\`swagger: "2.0"\`) documents can be imported`);
}

/** The parser's own failures (a missing `$ref` target, a timeout, a stack overflow on a pathological document). */
async function callParser<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw parserError(messageOf(error));
  }
}

/** `Maximum dereference depth (500) exceeded at /srv/app/#/components/schemas/S500. …` */
const REF_DEPTH = /^Maximum dereference depth \((\d+)\) exceeded at [^\s#]*(#\S*?)\.(?:\s|$)/;

/**
 * Said to the caller: json-schema-ref-parser resolves `#/…` against the server's working directory (a document
 * handed over as an object has no path) and advises its own `dereference.maxDepth` option, neither of which the
 * caller can use.
 */
function parserError(message: string): ImportSourceError {
  const depth = REF_DEPTH.exec(message);
  if (depth) {
    return new ImportSourceError(
      depth[2].slice(0, 100),
      `is reached through more than ${depth[1]} $refs in a row (a $ref to a $ref to a $ref …): point each $ref at the schema itself`,
    );
  }
  return new ImportSourceError('document', `cannot be read: ${message.replace(/[^\s"'#]*(#\/)/g, '$1')}`);
}

/** At most three of the validator's findings, each its first line, what its code frame points at, and where. */
function invalidReason(result: Extract<ValidationResult, { valid: false }>, validated: unknown): string {
  const kind = result.specification === 'Swagger' ? 'Swagger 2.0' : 'OpenAPI';
  const shown = result.errors.slice(0, 3).map((error) => `${summarise(error.message)} at ${locate(error.message, validated)}`);
  const more = result.errors.length + result.additionalErrors - shown.length;
  return `is not a valid ${kind} document: ${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** Where a finding stands in the document (an operation, a path, a JSON pointer), from the line its code frame marks. */
function locate(message: string, validated: unknown): string {
  const line = framedLine(message);
  const path = line === null ? null : pathAtLine(validated, line);
  return path === null ? 'document' : whereOf(path);
}

/**
 * The validator's messages are a headline and a code frame of the document as it re-serialised it (so its line
 * numbers are not the source's): the headline and the frame's pointer (`url is missing here!`) say what and where.
 */
function summarise(message: string): string {
  const [headline] = message.split('\n');
  const pointer = /\^ (.+)$/m.exec(message);
  return (pointer ? `${headline} (${pointer[1].trim()})` : headline).slice(0, 300);
}

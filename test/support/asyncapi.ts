import { AsyncAPIDocumentInterface, Diagnostic, Parser } from '@asyncapi/parser';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { closeObjects } from '../openapi/document-validator';
import { ROOT } from './run-command';

/** The AsyncAPI 3.0 document of the connector events. */
export const CONNECTOR_EVENTS_ASYNCAPI = join(ROOT, 'docs/asyncapi/connector-events.yaml');

/** The document as its YAML says it, before any parser has read it. */
export function connectorEventsDocumentSource(): { text: string; raw: any } {
  const text = readFileSync(CONNECTOR_EVENTS_ASYNCAPI, 'utf8');
  return { text, raw: parseYaml(text) };
}

/** The AsyncAPI document each app links from its OpenAPI document and serves, as committed; none for the others. */
export function committedAsyncApiDocumentOf(app: string): string | undefined {
  return app === 'transactional-service' ? connectorEventsDocumentSource().text : undefined;
}

/**
 * What an app running at `origin` (a process of its own: the built app, the image's layout) serves at the AsyncAPI link
 * of its OpenAPI document at `/{label}/docs-json` (`externalDocs`); undefined when that document links none.
 */
export async function linkedAsyncApiDocument(origin: string, label: string): Promise<string | undefined> {
  const openapi = (await (await fetch(`${origin}/${label}/docs-json`)).json()) as { externalDocs?: { url: string } };
  if (!openapi.externalDocs) return undefined;
  const answer = await fetch(new URL(openapi.externalDocs.url, origin));
  if (answer.status !== 200) throw new Error(`${openapi.externalDocs.url} answered ${answer.status}: ${await answer.text()}`);
  return answer.text();
}

/** Every `$ref` of a document that does not point inside it (`#/…`). */
export function externalRefs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(externalRefs);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' && !value.startsWith('#') ? [value] : externalRefs(value),
  );
}

let parsed: Promise<{ document?: AsyncAPIDocumentInterface; diagnostics: Diagnostic[] }> | undefined;

/**
 * The document as @asyncapi/parser reads it, parsed once per test file. The parser fetches any `$ref` to a URL or a
 * file it meets (its resolvers for http, https and file cannot be turned off, only added to), so a document with a
 * `$ref` outside itself is refused here before the parser sees it: nothing is ever fetched.
 */
export function parseConnectorEventsDocument(): Promise<{ document?: AsyncAPIDocumentInterface; diagnostics: Diagnostic[] }> {
  return (parsed ??= (async () => {
    const { text, raw } = connectorEventsDocumentSource();
    const outside = externalRefs(raw);
    if (outside.length > 0) throw new Error(`${CONNECTOR_EVENTS_ASYNCAPI} refers outside itself (${outside.join(', ')}): the parser would fetch it`);
    return new Parser().parse(text);
  })());
}

/**
 * An ajv validator of a connector event's payload, built from the schema the parsed document gives the message
 * `message` (ConnectorEvent unless named). As the OpenAPI documents' validator does (test/openapi/document-validator.ts), objects are closed
 * (`additionalProperties: false` unless the schema says otherwise): a field the document does not describe, such as a
 * secret or the flows in a snapshot, fails as surely as a missing or mistyped one.
 */
export async function connectorEventValidator(message = 'ConnectorEvent'): Promise<ValidateFunction> {
  const { document, diagnostics } = await parseConnectorEventsDocument();
  const payload = document?.components().messages().get(message)?.payload()?.json();
  if (!payload) throw new Error(`The AsyncAPI document has no ${message} payload: ${JSON.stringify(diagnostics.map(({ message }) => message))}`);
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(closeObjects(withoutParserExtensions(payload)) as object);
}

/** The parser marks each schema it read (`x-parser-schema-id`); a JSON Schema validator in strict mode refuses them. */
function withoutParserExtensions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutParserExtensions);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !key.startsWith('x-parser-'))
      .map(([key, value]) => [key, withoutParserExtensions(value)]),
  );
}

import { ExportedConnector } from '../../connector-draft';
import { anExportedConnector } from '../../testing/exported-connector';

/** Data factories for the OpenAPI importer's and exporter's specs. */

/** An OpenAPI 3.1 document with one operation, `POST /pets/{petId}` (pass `paths` to replace it). */
export function aDocument(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/v1' }],
    paths: { '/pets/{petId}': { post: anOperation() } },
    ...overrides,
  };
}

export function anOperation(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    operationId: 'updatePet',
    parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
    responses: { '200': { description: 'ok' } },
    ...overrides,
  };
}

/** A document whose only operation is `operation` at `POST /pets/{petId}`, with extra root fields. */
export function aDocumentWith(operation: Record<string, unknown>, root: Record<string, unknown> = {}): Record<string, unknown> {
  return aDocument({ paths: { '/pets/{petId}': { post: anOperation(operation) } }, ...root });
}

export const aForecastConnector = (overrides: Partial<ExportedConnector> = {}): ExportedConnector =>
  anExportedConnector({
    name: 'Weather forecast',
    url: 'https://api.example.com/forecast/{{city}}?units=metric&day={{day}}',
    headers: [{ header: 'Accept', value: 'application/json' }],
    ...overrides,
  });

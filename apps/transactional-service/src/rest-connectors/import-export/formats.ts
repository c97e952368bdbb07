import { ImportFormat } from '@app/domain';
import { Exporter } from './connector-draft';
import { exportCurl } from './curl/export-curl';
import { exportOpenApi } from './openapi/export-openapi';
import { exportCollection } from './postman/export-postman';

/**
 * The exporter of each format, the media type it answers with and the file name's extension. The importers are in
 * importers.ts, which only the import worker loads: their parsers (OpenAPI, YAML, JSON schemas) stay out of the app's
 * own heap.
 */
export const EXPORTERS: Record<ImportFormat, { write: Exporter; mediaType: string; extension: string }> = {
  [ImportFormat.CURL]: { write: exportCurl, mediaType: 'text/plain; charset=utf-8', extension: 'sh' },
  [ImportFormat.OPENAPI]: { write: exportOpenApi, mediaType: 'application/json; charset=utf-8', extension: 'openapi.json' },
  [ImportFormat.POSTMAN]: { write: exportCollection, mediaType: 'application/json; charset=utf-8', extension: 'postman_collection.json' },
};

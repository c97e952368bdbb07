import { ImportFormat } from '@app/domain';
import { Importer } from './connector-draft';
import { importCurl } from './curl';
import { importOpenApi } from './openapi';
import { importPostman } from './postman';

/**
 * The importer of each format: with EXPORTERS (formats.ts), the places a new format is added. Loaded by the import
 * worker only (import.worker.ts), never by the app's main thread.
 */
export const IMPORTERS: Record<ImportFormat, Importer> = {
  [ImportFormat.CURL]: importCurl,
  [ImportFormat.OPENAPI]: importOpenApi,
  [ImportFormat.POSTMAN]: importPostman,
};

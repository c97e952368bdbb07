import { ImportFormat } from '@app/domain';
import { Exporter, Importer } from './connector-draft';
import { exportCurl, importCurl } from './curl';
import { exportOpenApi, importOpenApi } from './openapi';
import { exportPostman, importPostman } from './postman';

/** The importer of each format: the one place a new format is added. */
export const IMPORTERS: Record<ImportFormat, Importer> = {
  [ImportFormat.CURL]: importCurl,
  [ImportFormat.OPENAPI]: importOpenApi,
  [ImportFormat.POSTMAN]: importPostman,
};

/** The exporter of each format, the media type it answers with and the file name's extension. */
export const EXPORTERS: Record<ImportFormat, { write: Exporter; mediaType: string; extension: string }> = {
  [ImportFormat.CURL]: { write: exportCurl, mediaType: 'text/plain; charset=utf-8', extension: 'sh' },
  [ImportFormat.OPENAPI]: { write: exportOpenApi, mediaType: 'application/json; charset=utf-8', extension: 'openapi.json' },
  [ImportFormat.POSTMAN]: { write: exportPostman, mediaType: 'application/json; charset=utf-8', extension: 'postman_collection.json' },
};

import { Exporter, Importer } from '../connector-draft';
import { exportCollection } from './export-postman';
import { importCollection } from './import-postman';

/** Postman Collection v2.1 in (v2.0 read alike) and out: docs/decisions.md, "Import and export: Postman". */
export const importPostman: Importer = async (source, options) => importCollection(source, options);
export const exportPostman: Exporter = (connector) => exportCollection(connector);

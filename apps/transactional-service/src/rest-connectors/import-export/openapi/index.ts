export { importOpenApi } from './import-openapi';
export { exportOpenApi } from './export-openapi';

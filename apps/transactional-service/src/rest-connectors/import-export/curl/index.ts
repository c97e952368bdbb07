/** The cURL format of issue 31: a command (or several, one a line) to connector drafts, and a connector to a command. */
export { importCurl } from './import-curl';
export { exportCurl } from './export-curl';

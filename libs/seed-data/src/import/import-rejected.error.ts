/** A file the import refused as a whole; `reasons` each start with the JSON path they are about. */
export class ImportRejectedError extends Error {
  override readonly name = 'ImportRejectedError';

  constructor(readonly reasons: string[]) {
    super(`Import rejected, nothing was written: ${reasons.length} ${reasons.length === 1 ? 'reason' : 'reasons'}`);
  }
}

/**
 * The script of the import's worker threads (import-reader.ts): a source is read here, never on the app's event loop.
 * Parsing 1 MiB of YAML, validating an OpenAPI document or tokenizing a long command can take the CPU for seconds;
 * here it takes one worker, within a time and memory budget, and every other request goes on.
 */
import { ImportFormat, InvalidInputError } from '@app/domain';
import { ImportDraft } from './connector-draft';
import { draftSizeProblem } from './draft-size';
import { IMPORTERS } from './importers';

export interface ImportTask {
  format: ImportFormat;
  source: string;
  select?: string[];
  /** Where this worker writes when it starts on the task (Date.now()): the budget runs from then, not from the queue. */
  started: SharedArrayBuffer;
}

/** A draft, or the problems of a source that cannot be imported (an error's class does not cross to the app's thread). */
export type ImportTaskResult = { draft: ImportDraft } | { problems: string[] };

export default async function readSource({ format, source, select, started }: ImportTask): Promise<ImportTaskResult> {
  new Float64Array(started)[0] = Date.now();
  try {
    const draft = await IMPORTERS[format](source, { select });
    // Checked here, so that a draft of many copies of one large part never reaches the app's heap.
    const problem = draftSizeProblem(draft.connectors);
    return problem === undefined ? { draft } : { problems: [problem] };
  } catch (error) {
    if (error instanceof InvalidInputError) return { problems: error.problems };
    throw error;
  }
}

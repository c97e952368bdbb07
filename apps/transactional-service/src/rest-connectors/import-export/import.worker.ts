/**
 * The script of the import's worker threads (import-reader.ts): a source is read here, never on the app's event loop.
 * Parsing 1 MiB of YAML, validating an OpenAPI document or tokenizing a long command can take the CPU for seconds;
 * here it takes one worker, within a time and memory budget, and every other request goes on.
 */
import { ImportFormat, InvalidInputError } from '@app/domain';
import { workerTask } from '../../workers/worker-task';
import { ImportDraft } from './connector-draft';
import { draftSizeProblem } from './draft-size';
import { IMPORTERS } from './importers';

export interface ImportTask {
  format: ImportFormat;
  source: string;
  select?: string[];
}

/** A draft, or the problems of a source that cannot be imported (an error's class does not cross to the app's thread). */
export type ImportTaskResult = { draft: ImportDraft } | { problems: string[] };

export async function readSource({ format, source, select }: ImportTask): Promise<ImportTaskResult> {
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

/** The task of the reader's pool (workers/worker-pool.ts). */
export default workerTask(readSource);

import { AppConfig } from '@app/platform';
import { ImportRejectedError, Importer } from '@app/seed-data';
import { readFileSync } from 'node:fs';
import { openDataSource } from '../open-data-source';

/**
 * `npm run import -- <file.json>`: all-or-nothing upsert by uuid. A bad file prints every reason
 * with its JSON path and exits non-zero; nothing is written.
 */
export async function importFile(config: AppConfig, path: string | undefined): Promise<number> {
  if (!path) {
    console.error('Usage: npm run import -- <file.json>');
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`Import rejected, nothing was written:\n  $: cannot read ${path} as JSON: ${(error as Error).message}`);
    return 1;
  }
  const dataSource = await openDataSource(config.database);
  try {
    const summary = await new Importer(dataSource).import(input);
    console.log(`Imported ${JSON.stringify(summary)}`);
    return 0;
  } catch (error) {
    if (!(error instanceof ImportRejectedError)) throw error;
    console.error(`Import rejected, nothing was written:\n${error.reasons.map((r) => `  ${r}`).join('\n')}`);
    return 1;
  } finally {
    await dataSource.destroy();
  }
}

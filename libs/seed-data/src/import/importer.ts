import { Database, openDatabase, RestConnectorRepository } from '@app/domain';
import { DataSource } from 'typeorm';
import { ImportRejectedError } from './import-rejected.error';
import { validateImport } from './import-validator';
import { writeImport } from './import-writer';
import { checkReferences } from './reference-checker';

/** How many items of each section were upserted. */
export interface ImportSummary {
  organizations: number;
  environments: number;
  bots: number;
  flows: number;
  connectorContent: number;
}

/**
 * Loads organizations, environments, bots, flows and connector content owned by other parts of the
 * platform. A file with any problem is rejected whole, with every reason, and nothing is written.
 * A plain class, so that the CLI and the tests can use it on any initialized DataSource.
 */
export class Importer {
  private readonly db: Database;

  constructor(dataSource: DataSource) {
    this.db = openDatabase(dataSource);
  }

  async import(input: unknown): Promise<ImportSummary> {
    const validated = validateImport(input);
    // References are checked inside the transaction that writes, so they still hold when it commits.
    return this.db.transaction(async (tx) => {
      const reasons = [...validated.reasons, ...(await checkReferences(tx, validated))];
      if (reasons.length > 0 || validated.file === undefined) throw new ImportRejectedError(reasons);
      await writeImport(tx, validated.file, new RestConnectorRepository(this.db));
      const { organizations = [], environments = [], bots = [], flows = [], connectorContent = {} } = validated.file;
      return {
        organizations: organizations.length,
        environments: environments.length,
        bots: bots.length,
        flows: flows.length,
        connectorContent: Object.keys(connectorContent).length,
      };
    });
  }
}

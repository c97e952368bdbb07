import { BOT_ROWS, ENVIRONMENT_ROWS, ORGANIZATION_ROWS, Transaction } from '@app/domain';
import { chunks } from './chunks';
import { Reference, ReferenceTarget, ValidatedImport } from './import-validator';

const TABLE_OF: Record<ReferenceTarget, string> = {
  organization: ORGANIZATION_ROWS.table,
  environment: ENVIRONMENT_ROWS.table,
  bot: BOT_ROWS.table,
};

/** One reason per reference that names neither an item of the file nor a row of the database. */
export async function checkReferences(tx: Transaction, { declared, references }: Pick<ValidatedImport, 'declared' | 'references'>): Promise<string[]> {
  const outside = references.filter((reference) => !declared[reference.target].has(reference.uuid));
  const stored = new Set<string>();
  for (const target of Object.keys(TABLE_OF) as ReferenceTarget[]) {
    const uuids = [...new Set(outside.filter((r) => r.target === target).map((r) => r.uuid))];
    for (const found of await findStored(tx, target, uuids)) stored.add(`${target}:${found}`);
  }
  return outside.filter((reference) => !stored.has(`${reference.target}:${reference.uuid}`)).map(describe);
}

async function findStored(tx: Transaction, target: ReferenceTarget, uuids: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const batch of chunks(uuids)) {
    const rows = await tx.rows<{ uuid: string }>(`SELECT uuid FROM ${TABLE_OF[target]} WHERE uuid IN (${batch.map(() => '?').join(', ')})`, batch);
    found.push(...rows.map((row) => row.uuid.toLowerCase()));
  }
  return found;
}

function describe({ path, target, uuid }: Reference): string {
  return `${path}: ${target} ${uuid} is neither in this file nor in the database`;
}

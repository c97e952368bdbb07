import { EntityManager, In } from 'typeorm';
import { Bot } from '@app/domain';
import { Environment } from '@app/domain';
import { Organization } from '@app/domain';
import { chunks } from './chunks';
import { Reference, ReferenceTarget, ValidatedImport } from './import-validator';

const TABLE_OF: Record<ReferenceTarget, typeof Organization | typeof Environment | typeof Bot> = {
  organization: Organization,
  environment: Environment,
  bot: Bot,
};

/** One reason per reference that names neither an item of the file nor a row of the database. */
export async function checkReferences(
  manager: EntityManager,
  { declared, references }: Pick<ValidatedImport, 'declared' | 'references'>,
): Promise<string[]> {
  const outside = references.filter((reference) => !declared[reference.target].has(reference.uuid));
  const stored = new Set<string>();
  for (const target of Object.keys(TABLE_OF) as ReferenceTarget[]) {
    const uuids = [...new Set(outside.filter((r) => r.target === target).map((r) => r.uuid))];
    for (const found of await findStored(manager, target, uuids)) stored.add(`${target}:${found}`);
  }
  return outside
    .filter((reference) => !stored.has(`${reference.target}:${reference.uuid}`))
    .map(describe);
}

async function findStored(manager: EntityManager, target: ReferenceTarget, uuids: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const batch of chunks(uuids)) {
    const rows: Array<{ uuid: string }> = await manager.find(TABLE_OF[target], {
      select: { uuid: true },
      where: { uuid: In(batch) },
    });
    found.push(...rows.map((row) => row.uuid.toLowerCase()));
  }
  return found;
}

function describe({ path, target, uuid }: Reference): string {
  return `${path}: ${target} ${uuid} is neither in this file nor in the database`;
}

import { SetMetadata } from '@nestjs/common';

export const GENERATE_SQL = 'platform:generate-sql';

/** One call of a repository method whose statements `npm run sql` writes to docs/sql: its arguments, and a name when there are several. */
export interface GenerateSqlCall {
  name?: string;
  params: unknown[];
}

/**
 * Marks a repository method whose statements are committed for review (immich's `@GenerateSql`): `npm run sql`
 * (tools/sql) calls it with these arguments on a database that records what it is sent, and writes the statements
 * to docs/sql/<repository>.sql; a test fails when the committed text and the code differ. Metadata only: nothing
 * runs per call.
 */
export const GenerateSql = (...calls: GenerateSqlCall[]) => SetMetadata(GENERATE_SQL, calls);

const UUID = '00000000-0000-4000-a000-000000000000';
const DATE = new Date('2026-01-01T00:00:00.000Z');

/** Arguments for GenerateSql: the statements do not depend on them, only on their shape. */
export const DummyValue = {
  UUID,
  DATE,
  /** Stands for the unit of work's transaction: the generator hands its recording database. */
  TX: Symbol('the unit of work'),
  ORGANIZATION_PATH: { orgUUID: UUID },
  ENVIRONMENT_PATH: { orgUUID: UUID, envUUID: UUID },
  BOT_PATH: { orgUUID: UUID, envUUID: UUID, botUUID: UUID },
  CONNECTOR_PATH: { orgUUID: UUID, envUUID: UUID, botUUID: UUID, serviceUUID: UUID },
  VERSION_STEP: { from: 1, to: 2 },
  AUTHOR: { updatedAt: DATE, updatedBy: 'ada', updatedByImage: null, updatedBySub: 'ada', requestId: 'request-1', reason: null, promotionId: null },
  TAGS: [{ name: 'Shop', nameKey: 'shop', position: 0 }],
  TRASH_STATE: { deletedAt: DATE, deletedBy: 'ada', activeNameKey: null },
  KEY_ID: { callerSub: 'ada', idempotencyKey: 'key-1' },
};

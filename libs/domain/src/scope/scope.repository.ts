import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, ReadFrom } from '../database/database';
import { statement } from '../database/statement';
import { ScopeIds } from './lookup';

export interface ScopeLookup {
  organization: boolean;
  environment: boolean;
  bot: boolean;
}

// LEFT JOINs along the path: one round trip tells which link is missing.
const LOOKUP = statement(
  'SELECT o.uuid AS org, e.uuid AS env, b.uuid AS bot FROM organizations o ',
  'LEFT JOIN environments e ON e.uuid = :envUUID AND e.organization_uuid = o.uuid ',
  'LEFT JOIN bots b ON b.uuid = :botUUID AND b.environment_uuid = e.uuid WHERE o.uuid = :orgUUID',
).returning<{ org: string; env: string | null; bot: string | null }>();

/** Which links of an org/env/bot path exist, answered by one query on primary keys. */
@Injectable()
export class ScopeRepository {
  constructor(private readonly db: Database) {}

  @GenerateSql({ params: [DummyValue.BOT_PATH] })
  async lookup(path: ScopeIds, from: ReadFrom = 'replica'): Promise<ScopeLookup> {
    const [row] = await this.db.rows(LOOKUP, { orgUUID: path.orgUUID, envUUID: path.envUUID ?? '', botUUID: path.botUUID ?? '' }, from);
    return { organization: row !== undefined, environment: row?.env != null, bot: row?.bot != null };
  }
}

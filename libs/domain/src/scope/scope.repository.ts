import { Injectable } from '@nestjs/common';
import { Database, ReadFrom } from '../database/database';
import { ScopeIds } from './lookup';

export interface ScopeLookup {
  organization: boolean;
  environment: boolean;
  bot: boolean;
}

/** Which links of an org/env/bot path exist, answered by one query on primary keys. */
@Injectable()
export class ScopeRepository {
  constructor(private readonly db: Database) {}

  async lookup(path: ScopeIds, from: ReadFrom = 'replica'): Promise<ScopeLookup> {
    // LEFT JOINs along the path: one round trip tells which link is missing.
    const [row] = await this.db.rows<{ env: string | null; bot: string | null }>(
      'SELECT o.uuid AS org, e.uuid AS env, b.uuid AS bot FROM organizations o ' +
        'LEFT JOIN environments e ON e.uuid = ? AND e.organization_uuid = o.uuid ' +
        'LEFT JOIN bots b ON b.uuid = ? AND b.environment_uuid = e.uuid WHERE o.uuid = ?',
      [path.envUUID ?? '', path.botUUID ?? '', path.orgUUID],
      from,
    );
    return { organization: row !== undefined, environment: row?.env != null, bot: row?.bot != null };
  }
}

import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, ReadFrom } from '../database/database';
import { statement } from '../database/statement';
import { ENVIRONMENT_IN_SCOPE } from '../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { EnvironmentPath, OrganizationPath } from '../scope/scope-params.dto';
import { Environment, ENVIRONMENT_ROWS } from './environment.entity';

export type EnvironmentRow = Omit<Environment, 'organization'>;

const LIST_BY_ORGANIZATION = statement(
  `SELECT ${ENVIRONMENT_ROWS.select('e')} FROM environments e WHERE e.organization_uuid = :orgUUID ORDER BY LOWER(e.name) ASC, e.uuid ASC`,
);
const FIND_IN_SCOPE = statement(`SELECT ${ENVIRONMENT_ROWS.select('e')} FROM environments e WHERE ${ENVIRONMENT_IN_SCOPE}`);

@Injectable()
export class EnvironmentRepository {
  constructor(private readonly db: Database) {}

  /**
   * The environments of the organization, removed ones included, ordered by name case-insensitively on
   * every engine (SQLite compares binary), uuid breaking ties. Nothing at the path when there is none:
   * an organization without environments and no organization look alike here. (Joining the organization in
   * would make MariaDB sort through an on-disk temporary table, because of the JSON text columns.)
   */
  @GenerateSql({ params: [DummyValue.ORGANIZATION_PATH] })
  async listByOrganization(path: OrganizationPath, from: ReadFrom = 'replica'): Promise<Lookup<EnvironmentRow[]>> {
    const rows = await this.db.rows(LIST_BY_ORGANIZATION, path, from);
    if (rows.length === 0) return NOTHING_AT_PATH;
    return found(rows.map((row) => ENVIRONMENT_ROWS.from(row)));
  }

  /** The environment of the path, in its organization. */
  @GenerateSql({ params: [DummyValue.ENVIRONMENT_PATH] })
  async findInScope(path: EnvironmentPath, from: ReadFrom = 'replica'): Promise<Lookup<EnvironmentRow>> {
    const [row] = await this.db.rows(FIND_IN_SCOPE, path, from);
    return row ? found(ENVIRONMENT_ROWS.from(row)) : NOTHING_AT_PATH;
  }
}

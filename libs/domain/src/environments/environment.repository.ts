import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { EntityColumns, queryRows } from '../database/raw-rows';
import { Environment } from './environment.entity';

@Injectable()
export class EnvironmentRepository {
  private readonly columns: EntityColumns<Environment>;

  constructor(@InjectRepository(Environment) private readonly environments: Repository<Environment>) {
    this.columns = new EntityColumns(environments.manager.connection, Environment);
  }

  /**
   * The environments of the organization, removed ones included, ordered by name case-insensitively on
   * every engine (SQLite compares binary), uuid breaking ties; undefined when there is no such
   * organization (checked in the same query).
   */
  async listInOrganization(organizationUuid: string): Promise<Environment[] | undefined> {
    // The organization joined first and its environments left-joined: one without any is one row of NULLs.
    const rows = await queryRows(
      this.environments.manager.connection,
      'replica',
      `SELECT ${this.columns.select('e')} FROM organizations o LEFT JOIN environments e ON e.organization_uuid = o.uuid ` +
        'WHERE o.uuid = ? ORDER BY LOWER(e.name) ASC, e.uuid ASC',
      [organizationUuid],
    );
    if (rows.length === 0) return undefined;
    return rows.filter((row) => row.uuid !== null).map((row) => this.columns.from(row));
  }

  findInOrganization(organizationUuid: string, uuid: string): Promise<Environment | null> {
    return this.environments.findOne({ where: { organizationUuid, uuid } });
  }
}

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
   * every engine (SQLite compares binary), uuid breaking ties. Empty also when there is no such
   * organization: the caller checks that only then. (Joining the organization in would make MariaDB
   * sort through an on-disk temporary table, because of the JSON text columns.)
   */
  async listByOrganization(organizationUuid: string): Promise<Environment[]> {
    const rows = await queryRows(
      this.environments.manager.connection,
      'replica',
      `SELECT ${this.columns.select('e')} FROM environments e WHERE e.organization_uuid = ? ORDER BY LOWER(e.name) ASC, e.uuid ASC`,
      [organizationUuid],
    );
    return rows.map((row) => this.columns.from(row));
  }

  findInOrganization(organizationUuid: string, uuid: string): Promise<Environment | null> {
    return this.environments.findOne({ where: { organizationUuid, uuid } });
  }
}

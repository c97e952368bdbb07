import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Environment } from './environment.entity';

@Injectable()
export class EnvironmentRepository {
  constructor(@InjectRepository(Environment) private readonly environments: Repository<Environment>) {}

  /** Ordered by name case-insensitively on every engine, uuid breaking ties; removed ones included. */
  listByOrganization(organizationUuid: string): Promise<Environment[]> {
    // Query builder: find options cannot order by an expression (LOWER), and SQLite compares binary.
    return this.environments
      .createQueryBuilder('e')
      .where('e.organization_uuid = :organizationUuid', { organizationUuid })
      .orderBy('LOWER(e.name)', 'ASC')
      .addOrderBy('e.uuid', 'ASC')
      .getMany();
  }

  findInOrganization(organizationUuid: string, uuid: string): Promise<Environment | null> {
    return this.environments.findOne({ where: { organizationUuid, uuid } });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReadFrom, readFrom } from '../database/read-from';
import { Organization } from '../organizations/organization.entity';

export interface ScopeLookup {
  organization: boolean;
  environment: boolean;
  bot: boolean;
}

/** Which links of an org/env/bot path exist, answered by one query on primary keys. */
@Injectable()
export class ScopeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async lookup(orgUuid: string, envUuid?: string, botUuid?: string, from: ReadFrom = 'replica'): Promise<ScopeLookup> {
    // Query builder: LEFT JOINs on the path let one round trip tell which link is missing.
    const row = await readFrom(this.dataSource, from, (manager) =>
      manager
        .createQueryBuilder()
        .select('o.uuid', 'org')
        .addSelect('e.uuid', 'env')
        .addSelect('b.uuid', 'bot')
        .from(Organization, 'o')
        .leftJoin('environments', 'e', 'e.uuid = :envUuid AND e.organization_uuid = o.uuid', { envUuid: envUuid ?? '' })
        .leftJoin('bots', 'b', 'b.uuid = :botUuid AND b.environment_uuid = e.uuid', { botUuid: botUuid ?? '' })
        .where('o.uuid = :orgUuid', { orgUuid })
        .getRawOne<{ org: string; env: string | null; bot: string | null }>(),
    );
    return { organization: row !== undefined, environment: row?.env != null, bot: row?.bot != null };
  }
}

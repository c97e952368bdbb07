import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { Direction, OrderByField } from './dto/pagination-query.dto';
import { RestConnector } from './rest-connector.entity';

export interface PageCriteria {
  searchTerms: string[];
  orderBy: OrderByField;
  direction: Direction;
  offset: number;
  limit: number;
}

export type PageRow = Pick<RestConnector, 'uuid' | 'name' | 'updatedAt' | 'updatedBy' | 'updatedByImage'>;

const ORDER_COLUMNS: Record<OrderByField, string> = {
  name: 'c.nameKey',
  updatedAt: 'c.updatedAt',
  updatedBy: 'c.updatedBy',
};

/** `!` escapes LIKE's wildcards: the same ESCAPE character works on MySQL and SQLite. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[!%_]/g, '!$&')}%`;
}

/**
 * The searches over a bot's active connectors. Every query is scoped by `bot_uuid` and
 * `deleted_at IS NULL`, the leading columns of the connector indexes, and filters and counts in SQL.
 */
@Injectable()
export class RestConnectorSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every active connector of the bot, ordered by name case-insensitively. */
  listActive(botUuid: string): Promise<Array<Pick<RestConnector, 'uuid' | 'name'>>> {
    return this.active(botUuid).select(['c.uuid', 'c.name']).orderBy('c.nameKey', 'ASC').addOrderBy('c.uuid', 'ASC').getMany();
  }

  async page(botUuid: string, criteria: PageCriteria): Promise<{ total: number; rows: PageRow[] }> {
    const query = this.active(botUuid);
    criteria.searchTerms.forEach((term, i) => {
      // Query builder: each term is an OR over the name and an EXISTS on the tags, ANDed with the others.
      query.andWhere(
        `(c.name_key LIKE :term${i} ESCAPE '!' OR EXISTS (SELECT 1 FROM rest_connector_tags t ` +
          `WHERE t.connector_uuid = c.uuid AND t.name_key LIKE :term${i} ESCAPE '!'))`,
        { [`term${i}`]: containsPattern(term) },
      );
    });
    const total = await query.clone().getCount();
    const rows = await query
      .select(['c.uuid', 'c.name', 'c.updatedAt', 'c.updatedBy', 'c.updatedByImage'])
      // uuid breaks ties, so walking the pages visits every connector exactly once.
      .orderBy(ORDER_COLUMNS[criteria.orderBy], criteria.direction)
      .addOrderBy('c.uuid', criteria.direction)
      .offset(criteria.offset)
      .limit(criteria.limit)
      .getMany();
    return { total, rows };
  }

  /** Names containing the term: those starting with it first, then the rest, each alphabetical. */
  async suggestNames(botUuid: string, term: string, limit: number): Promise<string[]> {
    // Active names are unique per bot (case-insensitively), so the names need no DISTINCT.
    const rows = await this.active(botUuid)
      .select('c.name', 'name')
      .addSelect(`CASE WHEN c.name_key LIKE :prefix ESCAPE '!' THEN 0 ELSE 1 END`, 'starts')
      .andWhere(`c.name_key LIKE :contains ESCAPE '!'`)
      .setParameters({ prefix: containsPattern(term).slice(1), contains: containsPattern(term) })
      .orderBy('starts', 'ASC')
      .addOrderBy('c.name_key', 'ASC')
      .limit(limit)
      .getRawMany<{ name: string }>();
    return rows.map((row) => row.name);
  }

  private active(botUuid: string): SelectQueryBuilder<RestConnector> {
    return this.dataSource
      .getRepository(RestConnector)
      .createQueryBuilder('c')
      .where('c.bot_uuid = :botUuid', { botUuid })
      .andWhere('c.deleted_at IS NULL');
  }
}

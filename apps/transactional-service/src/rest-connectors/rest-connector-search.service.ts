import {
  BotPath,
  ConsistencyScope,
  PageCriteria,
  PaginationQueryDto,
  QuicksearchQueryDto,
  RestConnectorListDto,
  RestConnectorPageDto,
  RestConnectorSearchRepository,
  ScopeService,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { toPage, toPageItem } from './connector-views';

/** The list, the pages and the suggestions over a bot's active connectors. */
@Injectable()
export class RestConnectorSearchService {
  constructor(
    private readonly scope: ScopeService,
    private readonly search: RestConnectorSearchRepository,
  ) {}

  async list(path: BotPath, consistency?: ConsistencyScope): Promise<RestConnectorListDto> {
    return { data: (await this.scope.inPath(path, await this.search.listActive(path, consistency), consistency)) ?? [] };
  }

  async page(path: BotPath, query: PaginationQueryDto, consistency?: ConsistencyScope): Promise<RestConnectorPageDto> {
    const criteria: PageCriteria = {
      searchTerms: query.searchTerms,
      orderBy: query.orderBy,
      direction: query.direction,
      offset: (query.page - 1) * query.linesPerPage,
      limit: query.linesPerPage,
    };
    const found = (await this.scope.inPath(path, await this.search.page(path, criteria, consistency), consistency)) ?? { total: 0, rows: [] };
    const items = found.rows.map((row) => toPageItem(row, row.tags, row.flows));
    return toPage(items, found.total, query.page, query.linesPerPage);
  }

  async suggest(path: BotPath, query: QuicksearchQueryDto, consistency?: ConsistencyScope): Promise<string[]> {
    return (await this.scope.inPath(path, await this.search.suggestNames(path, query.searchTerm, query.limit, consistency), consistency)) ?? [];
  }
}

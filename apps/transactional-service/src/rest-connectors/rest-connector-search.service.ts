import { BotPath, ConnectorRelationsRepository, PaginationQueryDto, QuicksearchQueryDto, RestConnectorListDto, RestConnectorPageDto, RestConnectorSearchRepository, ScopeService } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { toPage, toPageItem } from './connector-views';

/** The list, the pages and the suggestions over a bot's active connectors. */
@Injectable()
export class RestConnectorSearchService {
  constructor(
    private readonly scope: ScopeService,
    private readonly search: RestConnectorSearchRepository,
    private readonly relations: ConnectorRelationsRepository,
  ) {}

  async list(path: BotPath): Promise<RestConnectorListDto> {
    const [connectors, tags] = await Promise.all([this.search.listActive(path), this.relations.tagsOfBot(path.botUUID)]);
    if (connectors.length === 0) return this.outOfScope(path, { data: [] });
    return { data: connectors.map(({ uuid, name, content }) => ({ uuid, name, tags: tags.get(uuid) ?? [], content })) };
  }

  async page(path: BotPath, query: PaginationQueryDto): Promise<RestConnectorPageDto> {
    const found = await this.search.page(path, {
      searchTerms: query.searchTerms,
      orderBy: query.orderBy,
      direction: query.direction,
      offset: (query.page - 1) * query.linesPerPage,
      limit: query.linesPerPage,
    });
    if (!found) return this.outOfScope(path, toPage([], 0, query.page, query.linesPerPage));
    const { tags, flows } = await this.relations.of(path.botUUID, found.rows.map((row) => row.uuid));
    const items = found.rows.map((row) => toPageItem(row, tags.get(row.uuid) ?? [], flows.get(row.uuid) ?? []));
    return toPage(items, found.total, query.page, query.linesPerPage);
  }

  async suggest(path: BotPath, query: QuicksearchQueryDto): Promise<string[]> {
    return (await this.search.suggestNames(path, query.searchTerm, query.limit)) ?? this.outOfScope(path, []);
  }

  /**
   * The query found nothing in the path's scope: either the bot has nothing to show (the empty answer)
   * or a link of the path is missing (the 404 names it). The scope check tells which.
   */
  private async outOfScope<T>(path: BotPath, empty: T): Promise<T> {
    await this.scope.requireBot(path.orgUUID, path.envUUID, path.botUUID);
    return empty;
  }
}

import {
  BotPath,
  ConnectorRelationsRepository,
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
    private readonly relations: ConnectorRelationsRepository,
  ) {}

  async list(path: BotPath): Promise<RestConnectorListDto> {
    await this.scope.requireBot(path.orgUUID, path.envUUID, path.botUUID);
    const [connectors, tags, content] = await Promise.all([
      this.search.listActive(path.botUUID),
      this.relations.tagsOfBot(path.botUUID),
      this.relations.contentOfBot(path.botUUID),
    ]);
    return {
      data: connectors.map(({ uuid, name }) => ({ uuid, name, tags: tags.get(uuid) ?? [], content: content.get(uuid) ?? [] })),
    };
  }

  async page(path: BotPath, query: PaginationQueryDto): Promise<RestConnectorPageDto> {
    await this.scope.requireBot(path.orgUUID, path.envUUID, path.botUUID);
    const { total, rows } = await this.search.page(path.botUUID, {
      searchTerms: query.searchTerms,
      orderBy: query.orderBy,
      direction: query.direction,
      offset: (query.page - 1) * query.linesPerPage,
      limit: query.linesPerPage,
    });
    const uuids = rows.map((row) => row.uuid);
    const [tags, flows] = await Promise.all([this.relations.tagsOf(uuids), this.relations.flowsOf(path.botUUID, uuids)]);
    const items = rows.map((row) => toPageItem(row, tags.get(row.uuid) ?? [], flows.get(row.uuid) ?? []));
    return toPage(items, total, query.page, query.linesPerPage);
  }

  async suggest(path: BotPath, query: QuicksearchQueryDto): Promise<string[]> {
    await this.scope.requireBot(path.orgUUID, path.envUUID, path.botUUID);
    return this.search.suggestNames(path.botUUID, query.searchTerm, query.limit);
  }
}

import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, ReadFrom } from '../database/database';
import { listed, statement, statementsBy } from '../database/statement';
import { BOT_IN_SCOPE } from '../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { BotPath } from '../scope/scope-params.dto';
import { ConnectorContentEntry } from './connector-content.entity';
import { Direction, OrderByField } from './dto/pagination-query.dto';
import { CONNECTOR_CONTENT_ROWS } from './connector-content.entity';
import { FlowRef, REST_CONNECTOR_ROWS, RestConnector, TagRef } from './rest-connector.entity';

export interface PageCriteria {
  searchTerms: string[];
  orderBy: OrderByField;
  direction: Direction;
  offset: number;
  limit: number;
}

/** A page's connector, with its tags and its flows (its read copy of them). */
export type PageRow = Pick<RestConnector, 'uuid' | 'name' | 'updatedAt' | 'updatedBy' | 'updatedByImage'> & { tags: TagRef[]; flows: FlowRef[] };
export type ListRow = Pick<RestConnector, 'uuid' | 'name'> & { tags: TagRef[]; content: ConnectorContentEntry[] };

type ListStatementRow = { uuid: string; name: string; name_key: string; tags_json: string; content: string | null };

const PAGE_ROWS = REST_CONNECTOR_ROWS.pick('uuid', 'name', 'updatedAt', 'updatedBy', 'updatedByImage', 'tagsJson', 'flowsJson');
const TAG_COPY = REST_CONNECTOR_ROWS.pick('tagsJson');
const CONTENT_ROWS = CONNECTOR_CONTENT_ROWS.pick('content');

const ORDER_COLUMNS: Record<OrderByField, string> = {
  name: 'c.name_key',
  updatedAt: 'c.updated_at',
  updatedBy: 'c.updated_by',
};

/** `!` escapes LIKE's wildcards: the same ESCAPE character works on MySQL and SQLite. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[!%_]/g, '!$&')}%`;
}

/**
 * Each term (`:term0`, `:term1`, …: its containsPattern) matches the name or a tag's name key; the terms are ANDed. The
 * keys are the row's `tag_keys` (connector-read-copy.ts), joined by a line break, which a term never holds: a match lies
 * within one key, as with an EXISTS on rest_connector_tags.
 */
const searchFilter = (count: number): string =>
  Array.from({ length: count }, (_, i) => ` AND (c.name_key LIKE :term${i} ESCAPE '!' OR c.tag_keys LIKE :term${i} ESCAPE '!')`).join('');

/** listActive's statement: the connectors, their content and their tags (the row's copy of them), in no order. */
const LIST = statement(
  'SELECT c.uuid AS uuid, c.name AS name, c.name_key AS name_key, c.tags_json AS tags_json, cc.content AS content ',
  'FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid ',
  `LEFT JOIN connector_content cc ON cc.connector_uuid = c.uuid WHERE c.bot_uuid = :botUUID AND c.deleted_at IS NULL AND ${BOT_IN_SCOPE}`,
).returning<ListStatementRow>();

/** The page's count, by the number of search terms; it also says whether the bot is in scope. */
const PAGE_COUNT = statementsBy((terms: number) =>
  statement(
    `SELECT (SELECT COUNT(*) FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}) AS in_scope, `,
    `(SELECT COUNT(*) FROM rest_connectors c WHERE c.bot_uuid = :botUUID AND c.deleted_at IS NULL${searchFilter(terms)}) AS total`,
  ).returning<{ in_scope: number | string; total: number | string }>(),
);

/** The page's rows, by order, direction and number of search terms (`name ASC 2`). */
const PAGE_ROWS_BY = statementsBy((key: `${OrderByField} ${Direction} ${number}`) => {
  const [orderBy, direction, terms] = key.split(' ') as [OrderByField, Direction, string];
  return statement(
    `SELECT ${PAGE_ROWS.select('c')} FROM rest_connectors c WHERE c.bot_uuid = :botUUID AND c.deleted_at IS NULL${searchFilter(Number(terms))} `,
    // uuid breaks ties, so walking the pages visits every connector exactly once.
    `ORDER BY ${ORDER_COLUMNS[orderBy]} ${direction}, c.uuid ${direction} LIMIT :limit OFFSET :offset`,
  );
});

/**
 * Names containing the term: the bot joined first and the connectors left-joined, so a bot without matches is one
 * row of NULLs. With MySQL's index hint or without (SQLite).
 */
const suggestNamesWith = (nameIndexHint: string) =>
  statement(
    `SELECT c.name AS name FROM bots b JOIN environments e ON e.uuid = b.environment_uuid LEFT JOIN rest_connectors c${nameIndexHint} `,
    "ON c.bot_uuid = b.uuid AND c.deleted_at IS NULL AND c.name_key LIKE :contains ESCAPE '!' ",
    `WHERE ${BOT_IN_SCOPE} ORDER BY CASE WHEN c.name_key LIKE :startsWith ESCAPE '!' THEN 0 ELSE 1 END ASC, c.name_key ASC LIMIT :limit`,
  ).returning<{ name: string | null }>();
/**
 * MySQL picks the updated_at index for suggestions, reading every row of the bot and sorting; the name index
 * filters in the index and is already in name order.
 */
const SUGGEST_NAMES = { mysql: suggestNamesWith(' FORCE INDEX (idx_rest_connectors_bot_name)'), sqlite: suggestNamesWith('') };

/**
 * The searches over a bot's active connectors, in hand-written SQL (docs/performance.md: the query
 * builder cost more CPU than the queries). Every query is scoped by `bot_uuid` and `deleted_at IS NULL`,
 * the leading columns of the connector indexes, and filters and counts in SQL. The bot must be in the
 * path's environment and organization (BOT_IN_SCOPE): each search answers a Lookup, and the caller asks
 * ScopeService.inPath what nothing at the path means.
 */
@Injectable()
export class RestConnectorSearchRepository {
  private readonly suggestNamesStatement: (typeof SUGGEST_NAMES)['mysql'];

  constructor(private readonly db: Database) {
    this.suggestNamesStatement = db.isSqlite ? SUGGEST_NAMES.sqlite : SUGGEST_NAMES.mysql;
  }

  /**
   * Every active connector of the bot with its tags and its content, ordered by name case-insensitively, then uuid
   * (the page's order by name). Nothing at the path when there is none: a bot without connectors and a bot outside the
   * path's scope (joined in) look alike here.
   *
   * One statement of one row per connector, its tags its row's copy of them, with no ORDER BY: put in order in code by
   * `name_key` as the engine's ORDER BY would (Database.compareKeys). Sorting in SQL sent the content through a
   * temporary table (docs/performance-log.md, "What each change bought", step 5).
   */
  @GenerateSql({ params: [DummyValue.BOT_PATH] })
  async listActive(path: BotPath, from: ReadFrom = 'replica'): Promise<Lookup<ListRow[]>> {
    const rows = await this.db.rows(LIST, path, from);
    if (rows.length === 0) return NOTHING_AT_PATH;
    const connectors = rows.map((row) => ({
      uuid: row.uuid,
      name: row.name,
      nameKey: String(row.name_key),
      tags: TAG_COPY.from(row).tagsJson,
      content: row.content === null ? [] : CONTENT_ROWS.from(row).content,
    }));
    connectors.sort((a, b) => this.db.compareKeys(a.nameKey, b.nameKey) || this.db.compareKeys(a.uuid, b.uuid));
    return found(connectors.map(({ uuid, name, tags, content }) => ({ uuid, name, tags, content })));
  }

  /** Nothing at the path only when the bot is not in the path's scope (the count tells); an empty page otherwise. */
  @GenerateSql(
    { name: 'defaults', params: [DummyValue.BOT_PATH, { searchTerms: [], orderBy: 'updatedAt', direction: 'DESC', offset: 0, limit: 5 }] },
    {
      name: 'by name, two search terms',
      params: [DummyValue.BOT_PATH, { searchTerms: ['shop', 'stock'], orderBy: 'name', direction: 'ASC', offset: 5, limit: 5 }],
    },
  )
  async page(path: BotPath, criteria: PageCriteria, from: ReadFrom = 'replica'): Promise<Lookup<{ total: number; rows: PageRow[] }>> {
    const terms = criteria.searchTerms.length;
    const direction = criteria.direction === 'ASC' ? 'ASC' : 'DESC';
    const filter = listed('term', criteria.searchTerms.map(containsPattern));
    // The count and the rows in parallel; the count also says whether the bot is in scope.
    const [[counted], rows] = await Promise.all([
      this.db.rows(PAGE_COUNT(terms), { ...path, ...filter }, from),
      this.db.rows(PAGE_ROWS_BY(`${criteria.orderBy} ${direction} ${terms}`), { ...path, ...filter, limit: criteria.limit, offset: criteria.offset }, from),
    ]);
    if (Number(counted.in_scope) === 0) return NOTHING_AT_PATH;
    return found({
      total: Number(counted.total),
      rows: rows.map((row) => {
        const { tagsJson, flowsJson, ...page } = PAGE_ROWS.from(row);
        return { ...page, tags: tagsJson, flows: flowsJson };
      }),
    });
  }

  /** Names containing the term: those starting with it first, then the rest, each alphabetical. Nothing at the path only when the bot is not in the path's scope. */
  @GenerateSql({ params: [DummyValue.BOT_PATH, 'sto', 6] })
  async suggestNames(path: BotPath, term: string, limit: number, from: ReadFrom = 'replica'): Promise<Lookup<string[]>> {
    // Active names are unique per bot (case-insensitively), so the names need no DISTINCT.
    const contains = containsPattern(term);
    const rows = await this.db.rows(this.suggestNamesStatement, { ...path, contains, startsWith: contains.slice(1), limit }, from);
    if (rows.length === 0) return NOTHING_AT_PATH;
    return found(rows.filter((row) => row.name !== null).map((row) => String(row.name)));
  }
}

import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, ReadFrom } from '../database/database';
import { compareKeys } from '../database/key-order';
import { listed, placeholderList, statement, statementsBy } from '../database/statement';
import type { FlowRef, TagRef } from './rest-connector.entity';
export interface ConnectorRelations {
  tags: Map<string, TagRef[]>;
  flows: Map<string, FlowRef[]>;
}

/** Adds `value` to the group of `key`. */
export function push<V>(groups: Map<string, V[]>, key: string, value: V): void {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
}

/** A tag and its place in the writer's order, as read; `tagsInOrder` drops the place. */
export interface PlacedTag {
  position: number;
  name: string;
}

/** Tags in the writer's order. Sorted here, not in SQL: a read's relations then need no sort in the database. */
export function tagsInOrder(tags: PlacedTag[]): TagRef[] {
  return tags.sort((a, b) => a.position - b.position).map(({ name }) => ({ name }));
}

/**
 * Flows by name case-insensitively (lowercased, then by code point), then by id: the same order on every
 * engine, whatever its collation, and no sort in the database.
 */
export function flowsInOrder(flows: FlowRef[]): FlowRef[] {
  const keyed = flows.map((flow) => ({ flow, key: flow.name.toLowerCase() }));
  keyed.sort((a, b) => compareKeys(a.key, b.key, false) || compareKeys(a.flow.uuid, b.flow.uuid, false));
  return keyed.map(({ flow }) => flow);
}

type RelationRow = { kind: number | string; connector_uuid: string; position: number | string; name: string; uuid: string | null };

/** RELATIONS for `count` connectors (`:connectorUuid0`, …). */
const RELATIONS = statementsBy((count: number) =>
  statement(
    `SELECT 0 AS kind, t.connector_uuid AS connector_uuid, t.position AS position, t.name AS name, NULL AS uuid FROM rest_connector_tags t WHERE t.connector_uuid IN (${placeholderList('connectorUuid', count)}) `,
    'UNION ALL ',
    'SELECT 1 AS kind, fc.connector_uuid AS connector_uuid, 0 AS position, f.name AS name, f.uuid AS uuid ',
    `FROM flow_connectors fc JOIN flows f ON f.uuid = fc.flow_uuid WHERE f.bot_uuid = :botUuid AND fc.connector_uuid IN (${placeholderList('connectorUuid', count)})`,
  ).returning<RelationRow>(),
);

/**
 * What belongs to connectors besides their own row: their tags and the flows that use them. Each method
 * is one query for any number of connectors, so a page costs the same whatever its size.
 */
@Injectable()
export class ConnectorRelationsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Tags in the writer's order, and the flows of the same bot that use each connector, by name (flowsInOrder):
   * one UNION, its rows told apart by `kind` (0 a tag, 1 a flow), put in order here.
   */
  @GenerateSql({ name: 'two connectors', params: [DummyValue.UUID, [DummyValue.UUID, DummyValue.UUID]] })
  async of(botUuid: string, connectorUuids: string[], from: ReadFrom = 'replica'): Promise<ConnectorRelations> {
    const relations: ConnectorRelations = { tags: new Map(), flows: new Map() };
    if (connectorUuids.length === 0) return relations;
    const rows = await this.db.rows(RELATIONS(connectorUuids.length), { botUuid, ...listed('connectorUuid', connectorUuids) }, from);
    const tags = new Map<string, PlacedTag[]>();
    for (const row of rows) {
      if (Number(row.kind) === 0) push(tags, row.connector_uuid, { position: Number(row.position), name: row.name });
      else push(relations.flows, row.connector_uuid, { uuid: String(row.uuid), name: row.name });
    }
    for (const [uuid, placed] of tags) relations.tags.set(uuid, tagsInOrder(placed));
    for (const [uuid, flows] of relations.flows) relations.flows.set(uuid, flowsInOrder(flows));
    return relations;
  }
}

import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface TagRef {
  name: string;
}
export interface FlowRef {
  uuid: string;
  name: string;
}
export interface ConnectorRelations {
  tags: Map<string, TagRef[]>;
  flows: Map<string, FlowRef[]>;
}

function push<V>(groups: Map<string, V[]>, key: string, value: V): void {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
}

/**
 * What belongs to connectors besides their own row: their tags and the flows that use them. Each method
 * is one query for any number of connectors, so a page costs the same whatever its size.
 */
@Injectable()
export class ConnectorRelationsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Tags in the writer's order, and the flows of the same bot that use each connector, by name: one
   * UNION, its rows told apart by `kind` (0 a tag, 1 a flow).
   */
  async of(botUuid: string, connectorUuids: string[]): Promise<ConnectorRelations> {
    const relations: ConnectorRelations = { tags: new Map(), flows: new Map() };
    if (connectorUuids.length === 0) return relations;
    const list = connectorUuids.map(() => '?').join(', ');
    const rows = await this.db.rows<{ kind: number | string; connector_uuid: string; name: string; uuid: string | null }>(
      `SELECT 0 AS kind, t.connector_uuid AS connector_uuid, t.position AS position, '' AS sort_name, t.name AS name, NULL AS uuid ` +
        `FROM rest_connector_tags t WHERE t.connector_uuid IN (${list}) ` +
        'UNION ALL ' +
        'SELECT 1 AS kind, fc.connector_uuid AS connector_uuid, 0 AS position, LOWER(f.name) AS sort_name, f.name AS name, f.uuid AS uuid ' +
        `FROM flow_connectors fc JOIN flows f ON f.uuid = fc.flow_uuid WHERE f.bot_uuid = ? AND fc.connector_uuid IN (${list}) ` +
        'ORDER BY kind, position, sort_name, uuid',
      [...connectorUuids, botUuid, ...connectorUuids],
    );
    for (const row of rows) {
      if (Number(row.kind) === 0) push(relations.tags, row.connector_uuid, { name: row.name });
      else push(relations.flows, row.connector_uuid, { uuid: String(row.uuid), name: row.name });
    }
    return relations;
  }

  /** Tags of every active connector of a bot (the list operation). */
  async tagsOfBot(botUuid: string): Promise<Map<string, TagRef[]>> {
    // A join on the connector keeps it one query, scoped by the bot index.
    const rows = await this.db.rows<{ connector_uuid: string; name: string }>(
      'SELECT t.connector_uuid AS connector_uuid, t.name AS name FROM rest_connector_tags t JOIN rest_connectors c ON c.uuid = t.connector_uuid ' +
        'WHERE c.bot_uuid = ? AND c.deleted_at IS NULL ORDER BY t.connector_uuid, t.position',
      [botUuid],
    );
    const tags = new Map<string, TagRef[]>();
    for (const row of rows) push(tags, row.connector_uuid, { name: row.name });
    return tags;
  }
}

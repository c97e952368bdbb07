import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FlowConnector } from '../flows/flow-connector.entity';
import { ConnectorContent, ConnectorContentEntry } from './connector-content.entity';
import { RestConnectorTag } from './rest-connector-tag.entity';
import { RestConnector } from './rest-connector.entity';

export interface TagRef {
  name: string;
}
export interface FlowRef {
  uuid: string;
  name: string;
}

function groupBy<R extends { connectorUuid: string }, V>(rows: R[], pick: (row: R) => V): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const row of rows) {
    const group = groups.get(row.connectorUuid) ?? [];
    group.push(pick(row));
    groups.set(row.connectorUuid, group);
  }
  return groups;
}

/**
 * What belongs to connectors besides their own row: tags, the flows that use them, imported content.
 * Each method is one query for any number of connectors, so a page costs the same whatever its size.
 */
@Injectable()
export class ConnectorRelationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async tagsOf(connectorUuids: string[]): Promise<Map<string, TagRef[]>> {
    if (connectorUuids.length === 0) return new Map();
    const rows = await this.dataSource
      .getRepository(RestConnectorTag)
      .createQueryBuilder('t')
      .select(['t.connectorUuid', 't.name', 't.position'])
      .where('t.connector_uuid IN (:...connectorUuids)', { connectorUuids })
      .orderBy('t.position', 'ASC')
      .getMany();
    return groupBy(rows, (row) => ({ name: row.name }));
  }

  /** Tags of every active connector of a bot (the list operation). */
  async tagsOfBot(botUuid: string): Promise<Map<string, TagRef[]>> {
    // Query builder: a join on the connector keeps it one query, scoped by the bot index.
    const rows = await this.dataSource
      .getRepository(RestConnectorTag)
      .createQueryBuilder('t')
      .innerJoin(RestConnector, 'c', 'c.uuid = t.connector_uuid')
      .select(['t.connectorUuid', 't.name', 't.position'])
      .where('c.bot_uuid = :botUuid AND c.deleted_at IS NULL', { botUuid })
      .orderBy('t.position', 'ASC')
      .getMany();
    return groupBy(rows, (row) => ({ name: row.name }));
  }

  /** Flows of the same bot that use each connector, ordered by name. */
  async flowsOf(botUuid: string, connectorUuids: string[]): Promise<Map<string, FlowRef[]>> {
    if (connectorUuids.length === 0) return new Map();
    // Query builder: the flow's name comes from a join, and only flows of the connector's own bot count.
    const rows = await this.dataSource
      .getRepository(FlowConnector)
      .createQueryBuilder('fc')
      .innerJoin('fc.flow', 'f')
      .select('fc.connector_uuid', 'connectorUuid')
      .addSelect('f.uuid', 'uuid')
      .addSelect('f.name', 'name')
      .where('f.bot_uuid = :botUuid', { botUuid })
      .andWhere('fc.connector_uuid IN (:...connectorUuids)', { connectorUuids })
      .orderBy('LOWER(f.name)', 'ASC')
      .addOrderBy('f.uuid', 'ASC')
      .getRawMany<FlowRef & { connectorUuid: string }>();
    return groupBy(rows, (row) => ({ uuid: row.uuid, name: row.name }));
  }

  /** Imported content of every active connector of a bot (the list operation). */
  async contentOfBot(botUuid: string): Promise<Map<string, ConnectorContentEntry[]>> {
    const rows = await this.dataSource
      .getRepository(ConnectorContent)
      .createQueryBuilder('cc')
      .innerJoin(RestConnector, 'c', 'c.uuid = cc.connector_uuid')
      .where('c.bot_uuid = :botUuid AND c.deleted_at IS NULL', { botUuid })
      .getMany();
    return new Map(rows.map((row) => [row.connectorUuid, row.content]));
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { EntityColumns, queryRows } from '../database/raw-rows';
import { ReadFrom } from '../database/read-from';
import { retryTransient } from '../database/transient-retry';
import { BOT_IN_SCOPE, botInScope } from '../scope/bot-scope.sql';
import { BotPath } from '../scope/scope-params.dto';
import { RestConnectorTag } from './rest-connector-tag.entity';
import { RestConnector } from './rest-connector.entity';

export type TagRow = Pick<RestConnectorTag, 'name' | 'nameKey' | 'position'>;
/** The columns a full write sets. */
export type ConnectorWrite = Omit<RestConnector, 'uuid' | 'botUuid' | 'bot' | 'createdAt' | 'createdBy' | 'deletedAt' | 'deletedBy' | 'version'>;

/** Reads by id and the writes of rest connectors. Soft-deleted rows are invisible to every read here. */
@Injectable()
export class RestConnectorRepository {
  private readonly columns: EntityColumns<RestConnector>;
  private readonly tagColumns: EntityColumns<RestConnectorTag>;

  /** The row, selected from the bot in the path's scope: nothing when the bot is not in it. */
  private readonly insertInScope: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, RestConnector);
    this.tagColumns = new EntityColumns(dataSource, RestConnectorTag);
    this.insertInScope =
      `INSERT INTO rest_connectors (${this.columns.names}) SELECT ${this.columns.placeholders} ` +
      `FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}`;
  }

  /**
   * The active connector, if its bot is in the path's environment and organization: one query, the
   * scope check joined in (BOT_IN_SCOPE). Null when either is missing: ScopeService tells which.
   */
  async findActive(path: BotPath, uuid: string, from: ReadFrom = 'replica'): Promise<RestConnector | null> {
    const [row] = await queryRows(
      this.dataSource,
      from,
      `SELECT ${this.columns.select('c')} FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid ` +
        `WHERE c.uuid = ? AND c.bot_uuid = ? AND c.deleted_at IS NULL AND ${BOT_IN_SCOPE}`,
      [uuid, path.botUUID, ...botInScope(path)],
    );
    return row ? this.columns.from(row) : null;
  }

  /**
   * Inserts the connector and its tags in one transaction, the scope check folded into the INSERT
   * (`INSERT ... SELECT ... FROM bots b JOIN environments e WHERE BOT_IN_SCOPE`): false, and nothing
   * written, when the bot is not in the path's environment and organization. Throws the driver's
   * duplicate-key error when the name is taken (see the unique index). `alsoInTransaction` commits with
   * the insert or not at all (the Idempotency-Key's answer).
   */
  async insert(
    path: BotPath,
    connector: RestConnector,
    tags: TagRow[],
    alsoInTransaction?: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    const values = this.columns.values(connector);
    return retryTransient(() =>
      this.dataSource.transaction(async (manager) => {
        const inserted = await manager.queryRunner!.query(this.insertInScope, [...values, ...botInScope(path)], true);
        if (!inserted.affected) return false;
        await this.insertTags(manager, connector.uuid, tags);
        await alsoInTransaction?.(manager);
        return true;
      }),
    );
  }

  /**
   * A full write, applied only if the row is still active at `expectedVersion` (optimistic locking:
   * the version in the WHERE makes the check and the write one atomic statement). False otherwise.
   */
  async update(botUuid: string, uuid: string, expectedVersion: number, values: ConnectorWrite, tags: TagRow[]): Promise<boolean> {
    return retryTransient(() => this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(RestConnector)
        .set({ ...values, version: expectedVersion + 1 })
        .where({ uuid, botUuid, deletedAt: IsNull(), version: expectedVersion })
        .execute();
      if (!result.affected) return false;
      await manager.delete(RestConnectorTag, { connectorUuid: uuid });
      await this.insertTags(manager, uuid, tags);
      return true;
    }));
  }

  /** Keeps the row, records who and when, and frees the name. False if there was no active row. */
  async softDelete(botUuid: string, uuid: string, deletedBy: string, deletedAt: Date): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(RestConnector)
      .set({ deletedAt, deletedBy, activeNameKey: null, version: () => 'version + 1' })
      .where({ uuid, botUuid, deletedAt: IsNull() })
      .execute();
    return Boolean(result.affected);
  }

  /** One multi-row INSERT, written by hand like the connector's (the query builder cost more than the statement). */
  private async insertTags(manager: EntityManager, connectorUuid: string, tags: TagRow[]): Promise<void> {
    if (tags.length === 0) return;
    await manager.queryRunner!.query(
      `INSERT INTO rest_connector_tags (${this.tagColumns.names}) VALUES ${tags.map(() => `(${this.tagColumns.placeholders})`).join(', ')}`,
      tags.flatMap((tag) => this.tagColumns.values({ ...tag, connectorUuid })),
    );
  }
}

import { Injectable } from '@nestjs/common';
import { Database, ReadFrom, Transaction } from '../database/database';
import { BOT_IN_SCOPE, botInScope } from '../scope/bot-scope.sql';
import { NOT_IN_SCOPE, Scoped } from '../scope/not-in-scope';
import { BotPath, RestConnectorPath } from '../scope/scope-params.dto';
import { RestConnectorTag } from './rest-connector-tag.entity';
import { RestConnector } from './rest-connector.entity';
import { REST_CONNECTOR_ROWS, REST_CONNECTOR_TAG_ROWS } from './rest-connector.rows';

export type TagRow = Pick<RestConnectorTag, 'name' | 'nameKey' | 'position'>;
/** The columns a full write sets. */
export type ConnectorWrite = Omit<RestConnector, 'uuid' | 'botUuid' | 'bot' | 'createdAt' | 'createdBy' | 'deletedAt' | 'deletedBy' | 'version'>;
/** What a soft delete records (the rules: connector-lifecycle.ts of the transactional service). */
export type ConnectorDeletion = Pick<RestConnector, 'deletedAt' | 'deletedBy' | 'activeNameKey'>;

const WRITE_ROWS = REST_CONNECTOR_ROWS.pick(
  'name', 'nameKey', 'activeNameKey', 'description', 'requestType', 'url', 'headers', 'contentType', 'authType', 'grantType',
  'basicToken', 'bearerToken', 'clientId', 'clientSecret', 'oauthUrl', 'authUsername', 'authPassword', 'body', 'output',
  'updatedAt', 'updatedBy', 'updatedByImage',
);
const DELETION_ROWS = REST_CONNECTOR_ROWS.pick('deletedAt', 'deletedBy', 'activeNameKey');

/** The bot of the path, in its environment and organization: the scope a write is folded into. */
const BOT_OF_PATH = `SELECT 1 FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}`;

/**
 * Reads by id and the writes of rest connectors. Soft-deleted rows (`deleted_at` set) are invisible to every
 * read here and never written again. Writes of more than one statement take the unit of work's transaction.
 */
@Injectable()
export class RestConnectorRepository {
  private readonly findActiveSql =
    `SELECT ${REST_CONNECTOR_ROWS.select('c')} FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid ` +
    `WHERE c.uuid = ? AND c.bot_uuid = ? AND c.deleted_at IS NULL AND ${BOT_IN_SCOPE}`;
  /** The row, selected from the bot in the path's scope: nothing when the bot is not in it. */
  private readonly insertSql =
    `INSERT INTO rest_connectors (${REST_CONNECTOR_ROWS.names}) SELECT ${REST_CONNECTOR_ROWS.placeholders} ` +
    `FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}`;
  /** The version in the WHERE makes the check and the write one atomic statement (optimistic locking). */
  private readonly updateSql =
    `UPDATE rest_connectors SET ${WRITE_ROWS.assignments}, version = ? WHERE uuid = ? AND bot_uuid = ? AND deleted_at IS NULL AND version = ?`;
  private readonly softDeleteSql =
    `UPDATE rest_connectors SET ${DELETION_ROWS.assignments}, version = version + 1 ` +
    `WHERE uuid = ? AND bot_uuid = ? AND deleted_at IS NULL AND EXISTS (${BOT_OF_PATH})`;

  constructor(private readonly db: Database) {}

  /** The active connector, if its bot is in the path's environment and organization: one query, the scope joined in. */
  async findActive(path: RestConnectorPath, from: ReadFrom = 'replica'): Promise<Scoped<RestConnector>> {
    const [row] = await this.db.rows(this.findActiveSql, [path.serviceUUID, path.botUUID, ...botInScope(path)], from);
    return row ? REST_CONNECTOR_ROWS.from(row) : NOT_IN_SCOPE;
  }

  /**
   * Inserts the connector and its tags, the scope check folded into the INSERT: NOT_IN_SCOPE, and nothing
   * written, when the bot is not in the path's environment and organization. Throws the driver's
   * duplicate-key error when the name is taken (see the unique index).
   */
  async insert(tx: Transaction, path: BotPath, connector: RestConnector, tags: TagRow[]): Promise<Scoped<string>> {
    const inserted = await tx.run(this.insertSql, [...REST_CONNECTOR_ROWS.values(connector), ...botInScope(path)]);
    if (inserted === 0) return NOT_IN_SCOPE;
    await this.insertTags(tx, connector.uuid, tags);
    return connector.uuid;
  }

  /** A full write, applied only if the row is still active at `expectedVersion`; false otherwise. */
  async update(tx: Transaction, botUuid: string, uuid: string, expectedVersion: number, values: ConnectorWrite, tags: TagRow[]): Promise<boolean> {
    const written = await tx.run(this.updateSql, [...WRITE_ROWS.values(values), expectedVersion + 1, uuid, botUuid, expectedVersion]);
    if (written === 0) return false;
    await tx.run(`DELETE FROM rest_connector_tags WHERE connector_uuid = ?`, [uuid]);
    await this.insertTags(tx, uuid, tags);
    return true;
  }

  /**
   * Records the deletion on the active row, if its bot is in the path's scope, and bumps the version:
   * the connector's uuid, or NOT_IN_SCOPE when there was no such active row.
   */
  async softDelete(path: RestConnectorPath, deletion: ConnectorDeletion): Promise<Scoped<string>> {
    const deleted = await this.db.run(this.softDeleteSql, [...DELETION_ROWS.values(deletion), path.serviceUUID, path.botUUID, ...botInScope(path)]);
    return deleted === 0 ? NOT_IN_SCOPE : path.serviceUUID;
  }

  /** One multi-row INSERT. */
  private insertTags(tx: Transaction, connectorUuid: string, tags: TagRow[]): Promise<void> {
    return tx.insert(REST_CONNECTOR_TAG_ROWS, tags.map((tag) => ({ ...tag, connectorUuid })));
  }
}

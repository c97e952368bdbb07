import { entityRows } from '../database/table-rows';
import { Column, Entity, Index, JoinColumn, ManyToOne, VersionColumn } from 'typeorm';
import { Bot } from '../bots/bot.entity';
import { BinaryKeyColumn, LargeBinaryTextColumn, LargeJsonColumn, LargeTextColumn, TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { ApiKeyIn, AuthType, ContentType, GrantType, RequestType } from './rest-connector.enums';

/** A tag as a read shows it (the read copy `tagsJson` holds these). */
export interface TagRef {
  name: string;
}
/** A flow as a read shows it (the read copy `flowsJson` holds these). */
export interface FlowRef {
  uuid: string;
  name: string;
}

/**
 * A header of the connector's call. A secret one (`secret: true`, left out otherwise) holds its value sealed
 * (SecretCipher, secretHeaderContext): reads show SECRET_HEADER_PLACEHOLDER in its place.
 */
export interface ConnectorHeader {
  header: string;
  value: string;
  secret?: boolean;
}

/**
 * A configured outbound REST call used by the flows of one bot. The bot fixes the environment and the
 * organization, so only `botUuid` is stored. Soft delete keeps the row (`deletedAt`, `deletedBy`).
 */
@Entity('rest_connectors')
// Active names are unique per bot, case-insensitively: `activeNameKey` is the lower-cased name while
// the connector is active and NULL once deleted, and NULLs never collide in a unique index (MySQL, SQLite).
@Index('uq_rest_connectors_bot_active_name', ['botUuid', 'activeNameKey'], { unique: true })
@Index('idx_rest_connectors_bot_updated_at', ['botUuid', 'deletedAt', 'updatedAt', 'uuid'])
@Index('idx_rest_connectors_bot_name', ['botUuid', 'deletedAt', 'nameKey', 'uuid'])
@Index('idx_rest_connectors_bot_updated_by', ['botUuid', 'deletedAt', 'updatedBy', 'uuid'])
// The trash: a bot's deleted connectors, newest deletion first, uuid breaking ties, read in index order.
@Index('idx_rest_connectors_bot_deleted_at', ['botUuid', 'deletedAt', 'uuid'])
export class RestConnector {
  @UuidPrimaryColumn()
  uuid: string;

  @UuidColumn()
  botUuid: string;

  @ManyToOne(() => Bot, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'bot_uuid', foreignKeyConstraintName: 'fk_rest_connectors_bot' })
  bot?: Bot;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /**
   * Lower-cased name: case-insensitive ordering and search. Twice the name's length, because lower-casing
   * can grow a string (`İ` becomes `i̇`).
   */
  @BinaryKeyColumn(200)
  nameKey: string;

  /** `nameKey` while active, NULL once soft-deleted (see the unique index above). */
  @BinaryKeyColumn(200, { nullable: true })
  activeNameKey: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 16 })
  requestType: RequestType;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @LargeJsonColumn()
  headers: ConnectorHeader[];

  @Column({ type: 'varchar', length: 40 })
  contentType: ContentType;

  @Column({ type: 'varchar', length: 20 })
  authType: AuthType;

  @Column({ type: 'varchar', length: 20, nullable: true })
  grantType: GrantType | null;

  @Column({ type: 'text', nullable: true })
  basicToken: string | null;

  @Column({ type: 'text', nullable: true })
  bearerToken: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  clientId: string | null;

  @Column({ type: 'text', nullable: true })
  clientSecret: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  oauthUrl: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  authUsername: string | null;

  @Column({ type: 'text', nullable: true })
  authPassword: string | null;

  /** AUTH_API_KEY: the header or query parameter that carries the key (null with any other auth type). */
  @Column({ type: 'varchar', length: 256, nullable: true })
  apiKeyName: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  apiKeyIn: ApiKeyIn | null;

  @Column({ type: 'text', nullable: true })
  apiKey: string | null;

  @LargeTextColumn()
  body: string;

  @LargeTextColumn()
  output: string;

  @TimestampColumn()
  createdAt: Date;

  @Column({ type: 'varchar', length: 255 })
  createdBy: string;

  @TimestampColumn()
  updatedAt: Date;

  @Column({ type: 'varchar', length: 255 })
  updatedBy: string;

  /** `picture` claim of the last writer: the `user.image` of page items. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  updatedByImage: string | null;

  @TimestampColumn({ nullable: true })
  deletedAt: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  deletedBy: string | null;

  /** Bumped by every write; the source of the ETag used for conditional updates. */
  @VersionColumn({ type: 'int' })
  version: number;

  /*
   * The read copy of the connector's tags and flows (docs/decisions.md, "Connector tags and flows: the tables and a
   * read copy on the row"): rest_connector_tags and flow_connectors + flows stay the source of truth, and every write
   * of them sets these in its transaction (connector-read-copy.ts says which). A get, a page, a search and the list
   * read them instead of joining the tables.
   */

  /** The tags as a read shows them, in the writer's order (tagsInOrder). */
  @LargeJsonColumn({ default: '[]' })
  tagsJson: TagRef[];

  /**
   * The tags' name keys joined by a line break: what a search term (trimmed, never holding a line break) is matched
   * against with `LIKE '%term%'`, which then matches within one key. Byte for byte, as the keys' own column.
   */
  @LargeBinaryTextColumn({ default: '' })
  tagKeys: string;

  /** The flows of the connector's bot that use it (flow_connectors), by name (flowsInOrder). */
  @LargeJsonColumn({ default: '[]' })
  flowsJson: FlowRef[];
}

/** The rows of rest_connectors, read from the decorators above (see TableRows). */
export const REST_CONNECTOR_ROWS = entityRows(RestConnector);

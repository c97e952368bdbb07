import { entityRows } from '../database/table-rows';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { LargeJsonColumn, TimestampColumn } from '../database/columns';
import type { RestConnectorSnapshotDto } from './dto/rest-connector-history.dto';
import { RestConnector } from './rest-connector.entity';
import { VersionOperation } from './rest-connector.enums';

/** The longest Change-Reason a version keeps, in characters. */
export const CHANGE_REASON_MAX_LENGTH = 500;

/**
 * One recorded write of a connector (create, update, delete, restore), written in the same transaction as
 * the write. `version` is the connector's version after that write, the number in its ETag. Secrets appear
 * in `snapshot` only as placeholders and in `changedFields` only by name. Who (`updatedBy`, `updatedBySub`), through
 * which request (`requestId`) and why (`reason`) are what support reads to explain a change.
 */
@Entity('rest_connector_versions')
export class RestConnectorVersion {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  connectorUuid: string;

  @PrimaryColumn({ type: 'int' })
  version: number;

  @ManyToOne(() => RestConnector, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'connector_uuid', foreignKeyConstraintName: 'fk_rest_connector_versions_connector' })
  connector?: RestConnector;

  @Column({ type: 'varchar', length: 16 })
  operation: VersionOperation;

  @TimestampColumn()
  updatedAt: Date;

  @Column({ type: 'varchar', length: 255 })
  updatedBy: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  updatedByImage: string | null;

  /** The `sub` of the token that made the write; null for versions recorded before it was kept. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  updatedBySub: string | null;

  /** The id of the request that made the write (X-Request-Id, the access log line's `requestId`); null before it was kept. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  /** Why, as the writer said it (the Change-Reason header), or null. */
  @Column({ type: 'varchar', length: CHANGE_REASON_MAX_LENGTH, nullable: true })
  reason: string | null;

  /** The earlier version whose record this write put back (a revert), or null. */
  @Column({ type: 'int', nullable: true })
  revertedTo: number | null;

  /** The record fields the write changed, secrets by name. */
  @LargeJsonColumn()
  changedFields: string[];

  /** The record as a get showed it right after the write, without flows. */
  @LargeJsonColumn()
  snapshot: RestConnectorSnapshotDto;

  /** The promotion (connector_promotions) this write was part of, or null: its apply or its revert. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  promotionId: string | null;
}

/** The rows of rest_connector_versions, read from the decorators above (see TableRows). */
export const REST_CONNECTOR_VERSION_ROWS = entityRows(RestConnectorVersion);

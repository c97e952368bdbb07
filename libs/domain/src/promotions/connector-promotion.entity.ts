import { Column, Entity, Index } from 'typeorm';
import { LargeJsonColumn, TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { entityRows } from '../database/table-rows';
import { CHANGE_REASON_MAX_LENGTH } from '../rest-connectors/rest-connector-version.entity';

/** What a promotion does to one connector of the target bot. */
export enum PromotionAction {
  CREATE = 'CREATE',
  UPDATE = 'UPDATE',
  DELETE = 'DELETE',
  UNCHANGED = 'UNCHANGED',
}

/** One connector an applied promotion wrote: its version before (null for a created one) and the version the promotion left. */
export interface PromotionItem {
  connectorUuid: string;
  name: string;
  action: Exclude<PromotionAction, PromotionAction.UNCHANGED>;
  versionBefore: number | null;
  versionAfter: number;
}

/**
 * One applied promotion of a bot's connectors from another bot (docs/api-contract.md, "Promotions"): which bot of
 * which environment it came from, who applied it through which request, what it did to each connector (`items`),
 * and, once reverted, when and by whom. The versions it wrote (and their change events) name its `uuid`
 * (rest_connector_versions.promotion_id). A uuid v7: listing by uuid is listing by time.
 */
@Entity('connector_promotions')
@Index('idx_connector_promotions_bot', ['botUuid', 'uuid'])
export class ConnectorPromotion {
  @UuidPrimaryColumn()
  uuid: string;

  @UuidColumn()
  organizationUuid: string;

  /** The target: the environment and bot whose connectors the promotion wrote. */
  @UuidColumn()
  environmentUuid: string;

  @UuidColumn()
  botUuid: string;

  @UuidColumn()
  sourceEnvironmentUuid: string;

  @UuidColumn()
  sourceBotUuid: string;

  /** Whether the target's connectors the source lacks were deleted. */
  @Column({ type: 'boolean', width: 1, default: false })
  prune: boolean;

  @TimestampColumn()
  createdAt: Date;

  @Column({ type: 'varchar', length: 255 })
  createdBy: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  createdBySub: string | null;

  @Column({ type: 'varchar', length: 128 })
  requestId: string;

  @Column({ type: 'varchar', length: CHANGE_REASON_MAX_LENGTH, nullable: true })
  reason: string | null;

  @Column({ type: 'int' })
  created: number;

  @Column({ type: 'int' })
  updated: number;

  @Column({ type: 'int' })
  deleted: number;

  @Column({ type: 'int' })
  unchanged: number;

  /** What the promotion wrote, connector by connector (UNCHANGED ones are only counted). */
  @LargeJsonColumn()
  items: PromotionItem[];

  @TimestampColumn({ nullable: true })
  revertedAt: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  revertedBy: string | null;
}

/** The rows of connector_promotions, read from the decorators above (see TableRows). */
export const CONNECTOR_PROMOTION_ROWS = entityRows(ConnectorPromotion);

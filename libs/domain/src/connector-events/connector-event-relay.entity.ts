import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../database/columns';
import { entityRows } from '../database/table-rows';

/**
 * The relay's one row (id 1): who holds the lease (one relay at a time across all pods, taken over when it
 * expires on the database's clock), and how far the outbox has been numbered, published to JetStream and purged.
 */
@Entity('connector_event_relay')
export class ConnectorEventRelayState {
  @PrimaryColumn({ type: 'int' })
  id: number;

  /** The holder's id (pod name and a random part), null when none holds it. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  holder: string | null;

  /** When the lease ends unless its holder renews it, on the database's clock. */
  @TimestampColumn({ nullable: true })
  leaseUntil: Date | null;

  /** How many times the lease was taken: one more at each take (never at a renewal). */
  @Column({ type: 'bigint', default: 0 })
  leaseEpoch: number;

  /** When the holder took the lease, on the database's clock. */
  @TimestampColumn({ nullable: true })
  leaseTakenAt: Date | null;

  /** The highest position numbered: the next batch is numbered above it. */
  @Column({ type: 'bigint' })
  sequencedThrough: number;

  /** Every event up to this position was acknowledged by JetStream. */
  @Column({ type: 'bigint' })
  publishedThrough: number;

  /** Every event up to this position may have been deleted: a feed cursor below it answers 410. */
  @Column({ type: 'bigint' })
  purgedThrough: number;
}

/** The row of connector_event_relay, read from the decorators above (see TableRows). */
export const CONNECTOR_EVENT_RELAY_ROWS = entityRows(ConnectorEventRelayState);

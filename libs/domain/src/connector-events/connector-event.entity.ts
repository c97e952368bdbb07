import { Column, Entity, Index } from 'typeorm';
import { SequenceColumn, TimestampColumn, UuidColumn } from '../database/columns';
import { entityRows } from '../database/table-rows';

/** What an outbox row announces (ConnectorEvent.kind). */
export enum EventKind {
  CONNECTOR = 'connector',
  VARIABLES = 'variables',
}

/** The bot an event of an environment's connector variables names: none (the nil UUID, RFC 9562, which no bot has). */
export const NO_BOT = '00000000-0000-0000-0000-000000000000';

/**
 * The outbox: one row per recorded version of a connector (rest_connector_versions) or of an environment's connector
 * variables (connector_variable_set_versions, `kind`), written in the transaction of the write, so an event exists if
 * and only if its change committed. The event's content is read from that version (operation, author, changed
 * fields, snapshot), which is never changed once written.
 *
 * `seq` is the insert's AUTO_INCREMENT: on MySQL a later seq can commit before an earlier one, so it is no cursor.
 * `position` is the cursor: the relay (one at a time, docs/operations.md "Change events") numbers the rows it can
 * see, in seq order, each batch above everything numbered before, so a reader that has passed a position never
 * misses a row that commits later (docs/decisions.md, "Change events").
 */
@Entity('connector_events')
@Index('idx_connector_events_position', ['position', 'seq'])
@Index('idx_connector_events_environment', ['environmentUuid', 'position'])
@Index('idx_connector_events_bot', ['environmentUuid', 'botUuid', 'position'])
@Index('idx_connector_events_held', ['heldAt'])
export class ConnectorEvent {
  @SequenceColumn()
  seq: number;

  /** The CloudEvent's `id`: stable for ever, the consumers' dedup key (and JetStream's Nats-Msg-Id). */
  @UuidColumn()
  eventUuid: string;

  /** Null until the relay numbers the row; then unique and increasing in the order readers may see rows. */
  @Column({ type: 'bigint', nullable: true })
  position: number | null;

  @UuidColumn()
  organizationUuid: string;

  @UuidColumn()
  environmentUuid: string;

  @UuidColumn()
  botUuid: string;

  @UuidColumn()
  connectorUuid: string;

  /**
   * What the event announces: a version of a connector (`connector`: rest_connector_versions' key is connectorUuid and
   * version), or a version of the environment's connector variables (`variables`: connector_variable_set_versions' key
   * is environmentUuid and version; botUuid is NO_BOT and connectorUuid the environment's uuid, so the relay's
   * per-subject order and parking hold per set as they do per connector).
   */
  @Column({ type: 'varchar', length: 16, default: EventKind.CONNECTOR })
  kind: EventKind;

  /** The connector's version this event announces (rest_connector_versions' key with connectorUuid), or the set's. */
  @Column({ type: 'int' })
  version: number;

  @TimestampColumn()
  createdAt: Date;

  /** How many times JetStream refused this event (a broker down or silent never counts): parked at EVENTS_PUBLISH_MAX_ATTEMPTS. */
  @Column({ type: 'int', default: 0 })
  publishAttempts: number;

  /** JetStream's last refusal of this event, as it said it. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  publishError: string | null;

  /**
   * Set while the event waits unpublished at or below the relay's published_through: parked itself, or held behind its
   * connector's parked event. Cleared when JetStream acknowledges it.
   */
  @TimestampColumn({ nullable: true })
  heldAt: Date | null;

  /** When JetStream's refusals parked it; cleared by a replay (`npm run events:replay`), after which it is published again. */
  @TimestampColumn({ nullable: true })
  parkedAt: Date | null;
}

/** The rows of connector_events, read from the decorators above (see TableRows). */
export const CONNECTOR_EVENT_ROWS = entityRows(ConnectorEvent);

import { Column, Entity, Index } from 'typeorm';
import { TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../../database/columns';
import { entityRows } from '../../database/table-rows';
import { TestRunOutcome } from '../rest-connector.enums';

/** A recorded run's outcome: the answer's, or CANCELLED when its caller left before it ended (as the log line says). */
export const RecordedTestRunOutcome = { ...TestRunOutcome, CANCELLED: 'CANCELLED' } as const;
export type RecordedTestRunOutcome = (typeof RecordedTestRunOutcome)[keyof typeof RecordedTestRunOutcome];

/** The longest `destinationHost` kept: a longer host name (longer than any DNS name, 253) is cut to it, marked with …, its port kept. */
export const DESTINATION_HOST_LENGTH = 255;

/**
 * One attempted test run of a connector (docs/api-contract.md, "Connector test runs"): who ran it, when, where, what
 * came of it. Written after the run, never during it. It holds no secret, header, URL path or query, nor any body:
 * of what was called, the host and port only. `connectorUuid` is null for an unsaved connector's run. The newest
 * runs are kept per connector, and per bot for unsaved connectors (ConnectorTestRunRepository.record); the one
 * index serves both lists and that pruning.
 */
@Entity('connector_test_runs')
@Index('idx_connector_test_runs_bot_connector', ['botUuid', 'connectorUuid', 'startedAt', 'uuid'])
export class ConnectorTestRun {
  /** A version-7 UUID: it breaks ties between runs started in the same millisecond. */
  @UuidPrimaryColumn()
  uuid: string;

  @UuidColumn()
  organizationUuid: string;

  @UuidColumn()
  environmentUuid: string;

  @UuidColumn()
  botUuid: string;

  @UuidColumn({ nullable: true })
  connectorUuid: string | null;

  /** The token's `sub`. */
  @Column({ type: 'varchar', length: 255 })
  callerSub: string;

  /** As `updatedBy` records it: `username`, else `preferred_username`, else `sub`. */
  @Column({ type: 'varchar', length: 255 })
  callerUsername: string;

  /** The request's id, as its access log line and its `X-Request-Id` answer have it. */
  @Column({ type: 'varchar', length: 128 })
  requestId: string;

  /** `host[:port]` of the connector's URL as called: never its user info, path or query. */
  @Column({ type: 'varchar', length: DESTINATION_HOST_LENGTH })
  destinationHost: string;

  @Column({ type: 'varchar', length: 32 })
  outcome: RecordedTestRunOutcome;

  /** The status of the answer the run got (the token endpoint's when it failed there); null when none came. */
  @Column({ type: 'int', nullable: true })
  httpStatus: number | null;

  @Column({ type: 'int' })
  durationMs: number;

  @TimestampColumn()
  startedAt: Date;
}

/** The rows of connector_test_runs, read from the decorators above (see TableRows). */
export const CONNECTOR_TEST_RUN_ROWS = entityRows(ConnectorTestRun);

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BinaryKeyColumn, LargeJsonColumn, LargeTextColumn, TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { entityRows } from '../database/table-rows';
import { CHANGE_REASON_MAX_LENGTH } from '../rest-connectors/rest-connector-version.entity';

/**
 * One named connector variable of an environment (docs/api-contract.md, "Connector variables"): what a connector's
 * `{{env.NAME}}` stands for when it runs in that environment. A plain variable keeps its `value`; a secret one keeps
 * only `sealedValue` (SecretCipher), never answered, and is bound to `destinations`: the `scheme://host:port` it may
 * be sent to. A secret variable whose value was cleared (its destination moved) has neither value.
 */
@Entity('connector_variables')
@Index('uq_connector_variables_environment_name', ['environmentUuid', 'name'], { unique: true })
export class ConnectorVariable {
  @UuidPrimaryColumn()
  uuid: string;

  @UuidColumn()
  organizationUuid: string;

  @UuidColumn()
  environmentUuid: string;

  /** As written, compared byte for byte (a placeholder's name is case-sensitive): ENV_VARIABLE_NAME. */
  @BinaryKeyColumn(64)
  name: string;

  @Column({ type: 'boolean', width: 1, default: false })
  secret: boolean;

  /** A plain variable's value; null for a secret one. */
  @LargeTextColumn({ nullable: true })
  value: string | null;

  /** A secret variable's value, sealed; null for a plain one, and for a secret one that asks for its value again. */
  @LargeTextColumn({ nullable: true })
  sealedValue: string | null;

  /** Where a secret variable may be sent (`scheme://host:port`, as destinationOf writes them); empty for a plain one. */
  @LargeJsonColumn()
  destinations: string[];

  @TimestampColumn()
  updatedAt: Date;

  @Column({ type: 'varchar', length: 255 })
  updatedBy: string;
}

/** The rows of connector_variables, read from the decorators above (see TableRows). */
export const CONNECTOR_VARIABLE_ROWS = entityRows(ConnectorVariable);

/**
 * The version of an environment's set of connector variables: one row per environment that has ever had one, its
 * `version` what the ETag of `GET …/connector-variables` names, raised by every write of the set.
 */
@Entity('connector_variable_sets')
export class ConnectorVariableSet {
  @UuidPrimaryColumn()
  environmentUuid: string;

  @UuidColumn()
  organizationUuid: string;

  @Column({ type: 'int' })
  version: number;

  @TimestampColumn()
  updatedAt: Date;

  @Column({ type: 'varchar', length: 255 })
  updatedBy: string;
}

export const CONNECTOR_VARIABLE_SET_ROWS = entityRows(ConnectorVariableSet);

/** What a version of a set did to one variable (secrets by name only). */
export enum VariableChange {
  ADDED = 'ADDED',
  CHANGED = 'CHANGED',
  REMOVED = 'REMOVED',
}

/** One variable a version of the set changed: its name, whether it is (or was) secret, and how it changed. */
export interface RecordedVariableChange {
  name: string;
  secret: boolean;
  change: VariableChange;
}

/** One variable as a version of the set recorded it: a secret's value only as `<SECRET>` (stored) or null (asks for it again). */
export interface RecordedVariable {
  name: string;
  secret: boolean;
  value: string | null;
  destinations: string[];
}

/**
 * One version of an environment's set of connector variables (docs/api-contract.md, "Connector variables"), written
 * in the transaction of the write: who (`updatedBy`, `updatedBySub`), through which request and why, which variables
 * changed (secrets by name only), the set it left (secrets as `<SECRET>`), and the promotion that made it, if one did.
 * Its change event (ConnectorEventOutbox.appendVariables) reads it.
 */
@Entity('connector_variable_set_versions')
export class ConnectorVariableSetVersion {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  environmentUuid: string;

  @PrimaryColumn({ type: 'int' })
  version: number;

  @UuidColumn()
  organizationUuid: string;

  @TimestampColumn()
  updatedAt: Date;

  @Column({ type: 'varchar', length: 255 })
  updatedBy: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  updatedBySub: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ type: 'varchar', length: CHANGE_REASON_MAX_LENGTH, nullable: true })
  reason: string | null;

  /** The promotion that made this version, or null. */
  @UuidColumn({ nullable: true })
  promotionId: string | null;

  @LargeJsonColumn()
  changes: RecordedVariableChange[];

  @LargeJsonColumn()
  snapshot: RecordedVariable[];
}

export const CONNECTOR_VARIABLE_SET_VERSION_ROWS = entityRows(ConnectorVariableSetVersion);

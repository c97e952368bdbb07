import { Column, Entity, Index } from 'typeorm';
import { BinaryKeyColumn, LargeJsonColumn, LargeTextColumn, TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { entityRows } from '../database/table-rows';

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

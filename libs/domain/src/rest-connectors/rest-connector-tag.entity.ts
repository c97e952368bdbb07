import { entityRows } from '../database/table-rows';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BinaryKeyPrimaryColumn } from '../database/columns';
import { RestConnector } from './rest-connector.entity';

/** A label of a connector. A table, not a JSON column, so searches can match tags in SQL. */
@Entity('rest_connector_tags')
@Index('idx_rest_connector_tags_name', ['nameKey'])
export class RestConnectorTag {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  connectorUuid: string;

  /** Lower-cased name (twice the length: lower-casing can grow it): de-duplication and search ignore case. */
  @BinaryKeyPrimaryColumn(100)
  nameKey: string;

  @Column({ type: 'varchar', length: 50 })
  name: string;

  /** Order in which the writer listed the tags. */
  @Column({ type: 'int' })
  position: number;

  @ManyToOne(() => RestConnector, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'connector_uuid', foreignKeyConstraintName: 'fk_rest_connector_tags_connector' })
  connector?: RestConnector;
}

/** The rows of rest_connector_tags, read from the decorators above (see TableRows). */
export const REST_CONNECTOR_TAG_ROWS = entityRows(RestConnectorTag);

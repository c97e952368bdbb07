import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RestConnector } from './rest-connector.entity';

/** A label of a connector. A table, not a JSON column, so searches can match tags in SQL. */
@Entity('rest_connector_tags')
@Index('idx_rest_connector_tags_name', ['nameKey'])
export class RestConnectorTag {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  connectorUuid: string;

  /** Lower-cased name: tags are de-duplicated and searched case-insensitively. */
  @PrimaryColumn({ type: 'varchar', length: 50 })
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

import { entityRows } from '../database/table-rows';
import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Flow } from './flow.entity';

/**
 * Which rest connectors a flow uses. `connectorUuid` carries no foreign key: flows are imported
 * from another system, which may name a connector before or after it exists here.
 */
@Entity('flow_connectors')
@Index('idx_flow_connectors_connector', ['connectorUuid'])
export class FlowConnector {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  flowUuid: string;

  @PrimaryColumn({ type: 'varchar', length: 36 })
  connectorUuid: string;

  @ManyToOne(() => Flow, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'flow_uuid', foreignKeyConstraintName: 'fk_flow_connectors_flow' })
  flow?: Flow;
}

/** The rows of flow_connectors, read from the decorators above (see TableRows). */
export const FLOW_CONNECTOR_ROWS = entityRows(FlowConnector);

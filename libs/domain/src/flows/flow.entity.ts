import { entityRows } from '../database/table-rows';
import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { Bot } from '../bots/bot.entity';
import { UuidColumn, UuidPrimaryColumn } from '../database/columns';

/** A conversation flow of a bot. Owned elsewhere; loaded by the import with the connectors it uses. */
@Entity('flows')
@Index('idx_flows_bot', ['botUuid'])
export class Flow {
  @UuidPrimaryColumn()
  uuid: string;

  @UuidColumn()
  botUuid: string;

  @ManyToOne(() => Bot, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'bot_uuid', foreignKeyConstraintName: 'fk_flows_bot' })
  bot?: Bot;

  @Column({ type: 'varchar', length: 255 })
  name: string;
}

/** The rows of flows, read from the decorators above (see TableRows). */
export const FLOW_ROWS = entityRows(Flow);

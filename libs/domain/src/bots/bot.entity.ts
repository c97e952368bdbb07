import { entityRows } from '../database/table-rows';
import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { Environment } from '../environments/environment.entity';

/** A virtual agent. Owned by another part of the bot platform; loaded here by the import. */
@Entity('bots')
@Index('idx_bots_env_name', ['environmentUuid', 'name'])
export class Bot {
  @UuidPrimaryColumn()
  uuid: string;

  @UuidColumn()
  environmentUuid: string;

  @ManyToOne(() => Environment, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'environment_uuid', foreignKeyConstraintName: 'fk_bots_environment' })
  environment?: Environment;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  image: string | null;
}

/** The rows of bots, read from the decorators above (see TableRows). */
export const BOT_ROWS = entityRows(Bot);

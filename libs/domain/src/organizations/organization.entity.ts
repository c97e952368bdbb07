import { entityRows } from '../database/table-rows';
import { Column, Entity } from 'typeorm';
import { UuidPrimaryColumn } from '../database/columns';

/** Owned by another part of the bot platform; loaded here by the import. */
@Entity('organizations')
export class Organization {
  @UuidPrimaryColumn()
  uuid: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;
}

/** The rows of organizations, read from the decorators above (see TableRows). */
export const ORGANIZATION_ROWS = entityRows(Organization);

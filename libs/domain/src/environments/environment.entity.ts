import { entityRows } from '../database/table-rows';
import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { LargeJsonColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { Organization } from '../organizations/organization.entity';

export interface EnvironmentApplication {
  name: string;
  version: string;
  properties: Record<string, string>;
}

/** Owned by another part of the bot platform; loaded here by the import, read-only in the API. */
@Entity('environments')
@Index('idx_environments_org_name', ['organizationUuid', 'name'])
export class Environment {
  @UuidPrimaryColumn()
  uuid: string;

  @UuidColumn()
  organizationUuid: string;

  @ManyToOne(() => Organization, { onDelete: 'RESTRICT', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'organization_uuid', foreignKeyConstraintName: 'fk_environments_organization' })
  organization?: Organization;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'boolean', width: 1, default: false })
  removed: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  instanceUuid: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  instanceName: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  channelInstanceUuid: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  channelInstanceName: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  connectorInstanceUuid: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  connectorInstanceName: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  dns: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  apiURL: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  channelApiUrl: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  connectorApiUrl: string | null;

  /** Never filtered on, always read whole with the environment: a JSON column, not a table. */
  @LargeJsonColumn()
  applications: EnvironmentApplication[];

  @LargeJsonColumn()
  permissions: string[];
}

/** The rows of environments, read from the decorators above (see TableRows). */
export const ENVIRONMENT_ROWS = entityRows(Environment);

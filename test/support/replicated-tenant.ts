import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { seedTenant, Tenant } from './fixtures';
import { ReplicationPair, startReplicationPair } from './mariadb-replication';

/** A replication pair of its own with the platform's database, and a tenant on it. */
export interface ReplicatedTenant {
  pair: ReplicationPair;
  /** The platform's database, migrated, on the primary and on the replica. */
  primaryUrl: string;
  replicaUrl: string;
  /** An organization, environment and bot of its own, imported on the primary; the replica has applied them. */
  tenant: Tenant;
  /** A DataSource on the replica's copy of the database: what it holds, or a write to it alone. */
  replica: PlatformDataSource;
}

/**
 * The setup of the suites that fault a real replication pair under the apps: the pair (startReplicationPair; `name`
 * labels its directory), the platform's database migrated on it, and a tenant seeded through the primary. Closes the
 * pair when a step fails.
 */
export async function startReplicatedTenant(name: string): Promise<ReplicatedTenant> {
  const pair = await startReplicationPair({ name });
  try {
    const { primaryUrl, replicaUrl } = await pair.createMigratedDatabase('platform');
    const open = (url: string) => new PlatformDataSource(buildDataSourceOptions(parseServerUrl(url), { migrationsRun: false })).initialize();
    const primary = await open(primaryUrl);
    const tenant = await seedTenant(primary).finally(() => primary.destroy());
    await pair.caughtUp();
    return { pair, primaryUrl, replicaUrl, tenant, replica: await open(replicaUrl) };
  } catch (error) {
    await pair.close();
    throw error;
  }
}

import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

/** A plain connector variable as stored (a secret one keeps a sealed value and destinations instead). */
export interface PlainVariableRow {
  name: string;
  value: string;
}

/**
 * Writes an environment's set of plain connector variables straight into connector_variables and raises its
 * connector_variable_sets version, with SQL and no API: for suites that need variables in place (a promotion's
 * target) without going through the variables' own operations. Answers the set's new version.
 */
export async function seedConnectorVariableRows(
  dataSource: DataSource,
  scope: { organizationUuid: string; environmentUuid: string },
  variables: readonly PlainVariableRow[],
): Promise<number> {
  // As both engines take a DATETIME(3) in UTC (better-sqlite3 binds no Date).
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  const [set] = await dataSource.query('SELECT version FROM connector_variable_sets WHERE environment_uuid = ?', [scope.environmentUuid]);
  const version = Number(set?.version ?? 0) + 1;
  await dataSource.transaction(async (tx) => {
    await tx.query('DELETE FROM connector_variables WHERE environment_uuid = ?', [scope.environmentUuid]);
    for (const { name, value } of variables) {
      await tx.query(
        'INSERT INTO connector_variables (uuid, organization_uuid, environment_uuid, name, secret, value, sealed_value, destinations, updated_at, updated_by) ' +
          "VALUES (?, ?, ?, ?, 0, ?, NULL, '[]', ?, 'seed')",
        [randomUUID(), scope.organizationUuid, scope.environmentUuid, name, value, now],
      );
    }
    if (set) await tx.query('UPDATE connector_variable_sets SET version = ?, updated_at = ? WHERE environment_uuid = ?', [version, now, scope.environmentUuid]);
    else {
      await tx.query("INSERT INTO connector_variable_sets (environment_uuid, organization_uuid, version, updated_at, updated_by) VALUES (?, ?, ?, ?, 'seed')", [
        scope.environmentUuid,
        scope.organizationUuid,
        version,
        now,
      ]);
    }
  });
  return version;
}

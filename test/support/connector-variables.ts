import { ConnectorVariable, variableSecretContext, ConnectorVariableSet, newUuid, SecretCipher } from '@app/domain';
import { DataSource } from 'typeorm';
import { Tenant } from './fixtures';

/** A connector variable as a test seeds it: a plain value, or a secret one (sealed as the app seals it) bound to `destinations`. */
export interface SeededVariable {
  name: string;
  /** A secret variable's value in clear (sealed here), or null for one that asks for its value again. */
  value: string | null;
  secret?: boolean;
  destinations?: string[];
}

/**
 * Puts `variables` as the whole set of the tenant's environment, written straight into connector_variables and
 * connector_variable_sets (the set's version raised): what the connector-variables API stores, without going through
 * it. A secret value is sealed with `cipher` (the app's SECRETS_KEY) for the environment and the variable's name.
 */
export async function seedConnectorVariables(dataSource: DataSource, cipher: SecretCipher, tenant: Tenant, variables: SeededVariable[]): Promise<void> {
  const environmentUuid = tenant.environment.uuid;
  const organizationUuid = tenant.organization.uuid;
  const updatedAt = new Date();
  const updatedBy = 'seeded-by-test';
  await dataSource.transaction(async (manager) => {
    await manager.getRepository(ConnectorVariable).delete({ environmentUuid });
    for (const { name, value, secret = false, destinations = [] } of variables) {
      await manager.getRepository(ConnectorVariable).insert({
        uuid: newUuid(),
        organizationUuid,
        environmentUuid,
        name,
        secret,
        value: secret ? null : value,
        sealedValue: secret && value !== null ? cipher.encrypt(value, variableSecretContext(environmentUuid, name)) : null,
        destinations: secret ? destinations : [],
        updatedAt,
        updatedBy,
      });
    }
    const sets = manager.getRepository(ConnectorVariableSet);
    const set = await sets.findOneBy({ environmentUuid });
    if (set) await sets.update({ environmentUuid }, { version: set.version + 1, updatedAt, updatedBy });
    else await sets.insert({ environmentUuid, organizationUuid, version: 1, updatedAt, updatedBy });
  });
}

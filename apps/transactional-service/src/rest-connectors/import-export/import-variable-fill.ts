import {
  CONNECTOR_VARIABLE_ROWS,
  CONNECTOR_VARIABLE_SET_ROWS,
  ConnectorVariableRepository,
  EnvironmentPath,
  newUuid,
  SecretCipher,
  statement,
  Transaction,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author } from '../author';
import { VariableToFill } from './import-environment';

/** What a secret connector variable is sealed for: its environment and its name (a ciphertext copied elsewhere does not open). */
export const connectorVariableSecretContext = (environmentUuid: string, name: string) => `connector-variable:${environmentUuid}:${name}`;

/**
 * The one way an import writes connector variables (the values its `postmanEnvironment` or an OpenAPI server
 * default fills, importEnvironment): in the import's transaction, each variable the environment of the path still
 * lacks, never one it has (a value another write defined meanwhile is kept); the names written answered. A seam: the
 * production implementation below inserts the rows itself, until the connector variables' write path (its history
 * and change events) takes the import's writes.
 */
export abstract class ImportVariableFill {
  abstract fill(tx: Transaction, path: EnvironmentPath, variables: readonly VariableToFill[], author: Author): Promise<string[]>;
}

/** Raises the set's version, and takes its row's lock: a concurrent write of the set waits for this transaction. */
const RAISE_VERSION = statement(
  'UPDATE connector_variable_sets SET version = version + 1, updated_at = :updatedAt, updated_by = :updatedBy WHERE environment_uuid = :envUUID',
);

/**
 * ImportVariableFill that inserts the missing rows into connector_variables (a secret sealed with SecretCipher for
 * its environment and name, connectorVariableSecretContext; bound to its destinations) and raises
 * connector_variable_sets.version (its first row, version 1, when the environment has none yet).
 */
@Injectable()
export class InsertMissingVariables extends ImportVariableFill {
  constructor(
    private readonly variables: ConnectorVariableRepository,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async fill(tx: Transaction, path: EnvironmentPath, variables: readonly VariableToFill[], { caller }: Author): Promise<string[]> {
    if (variables.length === 0) return [];
    const now = new Date();
    const raised = await tx.run(RAISE_VERSION, { envUUID: path.envUUID, updatedAt: now, updatedBy: caller.username });
    const set = await this.variables.findSet(path, 'primary', tx);
    if (!set.found) return [];
    const defined = new Set(set.value.variables.map(({ name }) => name));
    const missing = variables.filter(({ name }) => !defined.has(name));
    if (raised === 0) {
      tx.defer.insert(CONNECTOR_VARIABLE_SET_ROWS, [
        { environmentUuid: path.envUUID, organizationUuid: path.orgUUID, version: 1, updatedAt: now, updatedBy: caller.username },
      ]);
    }
    tx.defer.insert(
      CONNECTOR_VARIABLE_ROWS,
      missing.map(({ name, value, secret, destinations }) => ({
        uuid: newUuid(),
        organizationUuid: path.orgUUID,
        environmentUuid: path.envUUID,
        name,
        secret,
        value: secret ? null : value,
        sealedValue: secret ? this.cipher.encrypt(value, connectorVariableSecretContext(path.envUUID, name)) : null,
        destinations: secret ? destinations : [],
        updatedAt: now,
        updatedBy: caller.username,
      })),
    );
    return missing.map(({ name }) => name);
  }
}

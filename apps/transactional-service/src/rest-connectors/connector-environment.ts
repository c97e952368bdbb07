import { ConnectorVariableRepository, ConnectorVariableRow, EnvironmentPath, ReadFrom, ScopeService, Transaction } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { ConnectorEnvironment, EnvironmentReferences, environmentOf, refersToEnvironment } from './env-destinations';
import { EnvironmentChangedException } from './rest-connector.exceptions';

/**
 * The environment of a connector's path, as its writes and test runs read it (ConnectorVariableRepository.findSet):
 * the 404 naming the path's first missing link when the environment is not in the organization. A write that depends
 * on it (refersToEnvironment) reads it before its unit of work and holds it there (`hold`).
 */
/** The environment as a write that refers to none of it sees it: no variables. */
const NO_ENVIRONMENT: ConnectorEnvironment = environmentOf([], 0);

@Injectable()
export class ConnectorEnvironments {
  constructor(
    private readonly scope: ScopeService,
    private readonly variables: ConnectorVariableRepository,
  ) {}

  /** The variables of the path's environment, as stored (a secret one's value sealed). */
  async variablesOf(path: EnvironmentPath, from: ReadFrom): Promise<ConnectorVariableRow[]> {
    return (await this.setOf(path, from)).variables;
  }

  /** The path's environment as the write rules read it (environmentOf), with the version of its set. A write reads it on the primary. */
  async of(path: EnvironmentPath, from: ReadFrom = 'primary'): Promise<ConnectorEnvironment> {
    const set = await this.setOf(path, from);
    return environmentOf(set.variables, set.version);
  }

  /**
   * `of` for a write of `connectors` (its body, and the record it replaces): read only when one of them refers to the
   * environment (refersToEnvironment); otherwise the write cannot depend on it, and an empty environment answers
   * without a statement (two fewer on the primary for every write that names no `{{env.NAME}}`).
   */
  async forWrite(path: EnvironmentPath, ...connectors: ReadonlyArray<EnvironmentReferences | null | undefined>): Promise<ConnectorEnvironment> {
    return refersToEnvironment(...connectors) ? this.of(path) : NO_ENVIRONMENT;
  }

  /**
   * In a connector write's unit of work, as its first statement: the environment's set still at `version` (the one
   * the write was validated against; null: the write does not depend on it, and nothing is read), held so (a shared lock) until the unit of work ends, so a write of the set waits
   * for it and then sees it. Otherwise EnvironmentChangedException, which rolls the unit of work back: a write that
   * can read again retries with the new environment, the others answer it (409).
   */
  async hold(tx: Transaction, path: EnvironmentPath, version: number | null): Promise<void> {
    if (version === null) return;
    const now = await this.variables.sharedVersion(tx, path);
    if (now !== null && now !== version) throw new EnvironmentChangedException(path.envUUID, version, now);
  }

  private async setOf(path: EnvironmentPath, from: ReadFrom): Promise<{ version: number; variables: ConnectorVariableRow[] }> {
    const set = await this.scope.inPath({ orgUUID: path.orgUUID, envUUID: path.envUUID }, await this.variables.findSet(path, from), from);
    return set ?? { version: 0, variables: [] };
  }
}

import { ConnectorVariableRepository, ConnectorVariableRow, EnvironmentPath, ReadFrom, ScopeService } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { ConnectorEnvironment, environmentOf } from './env-destinations';

/**
 * The environment of a connector's path, as its writes and test runs read it (ConnectorVariableRepository.findSet):
 * the 404 naming the path's first missing link when the environment is not in the organization.
 */
@Injectable()
export class ConnectorEnvironments {
  constructor(
    private readonly scope: ScopeService,
    private readonly variables: ConnectorVariableRepository,
  ) {}

  /** The variables of the path's environment, as stored (a secret one's value sealed). */
  async variablesOf(path: EnvironmentPath, from: ReadFrom): Promise<ConnectorVariableRow[]> {
    const set = await this.scope.inPath({ orgUUID: path.orgUUID, envUUID: path.envUUID }, await this.variables.findSet(path, from), from);
    return set?.variables ?? [];
  }

  /** The path's environment as the write rules read it (environmentOf). A write reads it on the primary. */
  async of(path: EnvironmentPath, from: ReadFrom = 'primary'): Promise<ConnectorEnvironment> {
    return environmentOf(await this.variablesOf(path, from));
  }
}

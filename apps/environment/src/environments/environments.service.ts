import {
  ConsistencyScope,
  EnvironmentDto,
  EnvironmentNotFoundException,
  EnvironmentPath,
  EnvironmentRepository,
  OrganizationPath,
  ScopeService,
} from '@app/domain';
import { Injectable } from '@nestjs/common';

@Injectable()
export class EnvironmentsService {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly scope: ScopeService,
  ) {}

  /** An unknown organization is a 404; one without environments is `[]`. */
  async list(path: OrganizationPath, consistency?: ConsistencyScope): Promise<EnvironmentDto[]> {
    const environments = (await this.scope.inPath(path, await this.environments.listByOrganization(path, consistency), consistency)) ?? [];
    return environments.map(EnvironmentDto.from);
  }

  async get(path: EnvironmentPath, consistency?: ConsistencyScope): Promise<EnvironmentDto> {
    const environment = await this.scope.inPath(path, await this.environments.findInScope(path, consistency), consistency);
    if (!environment) throw new EnvironmentNotFoundException(path.orgUUID, path.envUUID);
    return EnvironmentDto.from(environment);
  }
}

import { EnvironmentDto, EnvironmentNotFoundException, EnvironmentRepository, ScopeService } from '@app/domain';
import { Injectable } from '@nestjs/common';

@Injectable()
export class EnvironmentsService {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly scope: ScopeService,
  ) {}

  /** An unknown organization is a 404; one without environments is `[]`. */
  async list(orgUuid: string): Promise<EnvironmentDto[]> {
    const environments = await this.environments.listByOrganization(orgUuid);
    if (environments.length === 0) await this.scope.requireOrganization(orgUuid);
    return environments.map(EnvironmentDto.from);
  }

  async get(orgUuid: string, envUuid: string): Promise<EnvironmentDto> {
    const environment = await this.environments.findInOrganization(orgUuid, envUuid);
    if (environment) return EnvironmentDto.from(environment);
    await this.scope.requireOrganization(orgUuid);
    throw new EnvironmentNotFoundException(orgUuid, envUuid);
  }
}

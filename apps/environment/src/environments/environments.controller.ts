import { ApiErrorResponses, RequestConsistency } from '@app/platform';
import { ConsistencyScope, EnvironmentDto, EnvironmentPath, OrganizationPath } from '@app/domain';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { EnvironmentsService } from './environments.service';

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/environments')
export class EnvironmentsController {
  constructor(private readonly environments: EnvironmentsService) {}

  @Get()
  @ApiOperation({
    summary: 'Environments of an organization',
    description: 'Every environment of the organization, ordered by name; removed ones are included with `removed: true`.',
  })
  @ApiOkResponse({ type: [EnvironmentDto], description: "The organization's environments, ordered by name" })
  listEnvironments(@Param() path: OrganizationPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<EnvironmentDto[]> {
    return this.environments.list(path, consistency);
  }

  @Get(':envUUID')
  @ApiOperation({ summary: 'One environment', description: 'The environment with its applications and permissions; 404 unless the organization has it.' })
  @ApiOkResponse({ type: EnvironmentDto, description: 'The environment' })
  getEnvironment(@Param() path: EnvironmentPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<EnvironmentDto> {
    return this.environments.get(path, consistency);
  }
}

import { ApiErrorResponses, BotDto, BotListDto, BotPath, EnvironmentPath, PLATFORM_APPS } from '@app/domain';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BotsService } from './bots.service';

@ApiTags(PLATFORM_APPS.botAdmin.label)
@ApiErrorResponses(400, 401, 403, 404, 503)
@Controller('org/:orgUUID/env/:envUUID/bots-admin')
export class BotsController {
  constructor(private readonly bots: BotsService) {}

  @Get()
  @ApiOperation({ summary: 'Bots of an environment', description: 'Ordered by name.' })
  @ApiOkResponse({ type: BotListDto })
  listBots(@Param() path: EnvironmentPath): Promise<BotListDto> {
    return this.bots.list(path.orgUUID, path.envUUID);
  }

  @Get(':botUUID')
  @ApiOperation({ summary: 'One bot' })
  @ApiOkResponse({ type: BotDto })
  getBot(@Param() path: BotPath): Promise<BotDto> {
    return this.bots.get(path.orgUUID, path.envUUID, path.botUUID);
  }
}

import { ApiErrorResponses, RequestConsistency } from '@app/platform';
import { BotDto, ConsistencyScope, BotListDto, BotPath, EnvironmentPath } from '@app/domain';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { BotsService } from './bots.service';

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/bots-admin')
export class BotsController {
  constructor(private readonly bots: BotsService) {}

  @Get()
  @ApiOperation({ summary: 'Bots of an environment', description: 'Ordered by name.' })
  @ApiOkResponse({ type: BotListDto, description: "The environment's bots, ordered by name" })
  listBots(@Param() path: EnvironmentPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<BotListDto> {
    return this.bots.list(path, consistency);
  }

  @Get(':botUUID')
  @ApiOperation({ summary: 'One bot', description: 'The bot; 404 unless it belongs to the environment.' })
  @ApiOkResponse({ type: BotDto, description: 'The bot' })
  getBot(@Param() path: BotPath, @RequestConsistency() consistency?: ConsistencyScope): Promise<BotDto> {
    return this.bots.get(path, consistency);
  }
}

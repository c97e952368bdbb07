import { BotDto, BotListDto, ConsistencyScope, BotNotFoundException, BotPath, BotRepository, EnvironmentPath, ScopeService } from '@app/domain';
import { Injectable } from '@nestjs/common';

@Injectable()
export class BotsService {
  constructor(
    private readonly bots: BotRepository,
    private readonly scope: ScopeService,
  ) {}

  async list(path: EnvironmentPath, consistency?: ConsistencyScope): Promise<BotListDto> {
    const bots = (await this.scope.inPath(path, await this.bots.listInScope(path, consistency), consistency)) ?? [];
    return { bots: bots.map(BotDto.from) };
  }

  async get(path: BotPath, consistency?: ConsistencyScope): Promise<BotDto> {
    const bot = await this.scope.inPath(path, await this.bots.findInScope(path, consistency), consistency);
    if (!bot) throw new BotNotFoundException(path.envUUID, path.botUUID);
    return BotDto.from(bot);
  }
}

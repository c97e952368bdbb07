import { BotDto, BotListDto, BotNotFoundException, BotPath, BotRepository, EnvironmentPath, ScopeService } from '@app/domain';
import { Injectable } from '@nestjs/common';

@Injectable()
export class BotsService {
  constructor(
    private readonly bots: BotRepository,
    private readonly scope: ScopeService,
  ) {}

  async list(path: EnvironmentPath): Promise<BotListDto> {
    // The query answers NOT_IN_SCOPE only when the environment is not in the organization: never `[]` then.
    const bots = await this.scope.resolve(path, await this.bots.listInScope(path), () => []);
    return { bots: bots.map(BotDto.from) };
  }

  async get(path: BotPath): Promise<BotDto> {
    const bot = await this.scope.resolve(path, await this.bots.findInScope(path), () => {
      throw new BotNotFoundException(path.envUUID, path.botUUID);
    });
    return BotDto.from(bot);
  }
}

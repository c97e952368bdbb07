import { BotDto, BotListDto, BotNotFoundException, BotRepository, ScopeService } from '@app/domain';
import { Injectable } from '@nestjs/common';

@Injectable()
export class BotsService {
  constructor(
    private readonly bots: BotRepository,
    private readonly scope: ScopeService,
  ) {}

  async list(orgUuid: string, envUuid: string): Promise<BotListDto> {
    const bots = await this.bots.listInScope({ orgUUID: orgUuid, envUUID: envUuid });
    // Not in scope: the 404 names the missing link.
    if (!bots) await this.scope.requireEnvironment(orgUuid, envUuid);
    return { bots: (bots ?? []).map(BotDto.from) };
  }

  async get(orgUuid: string, envUuid: string, botUuid: string): Promise<BotDto> {
    await this.scope.requireEnvironment(orgUuid, envUuid);
    const bot = await this.bots.findInEnvironment(envUuid, botUuid);
    if (!bot) throw new BotNotFoundException(envUuid, botUuid);
    return BotDto.from(bot);
  }
}

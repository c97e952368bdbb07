import { ApiProperty } from '@nestjs/swagger';
import { Bot } from '../bot.entity';

/** A bot (virtual agent), field for field as the seed gives it. */
export class BotDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty({ format: 'uuid' })
  environmentUuid: string;

  @ApiProperty({ example: 'Support assistant' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/bots/support.png' })
  image: string | null;

  static from(bot: Bot): BotDto {
    return { uuid: bot.uuid, environmentUuid: bot.environmentUuid, name: bot.name, image: bot.image };
  }
}

export class BotListDto {
  @ApiProperty({ type: [BotDto] })
  bots: BotDto[];
}

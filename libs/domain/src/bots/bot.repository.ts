import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Bot } from './bot.entity';

@Injectable()
export class BotRepository {
  constructor(@InjectRepository(Bot) private readonly bots: Repository<Bot>) {}

  /** Ordered by name case-insensitively on every engine, uuid breaking ties. */
  listByEnvironment(environmentUuid: string): Promise<Bot[]> {
    // Query builder: find options cannot order by an expression (LOWER), and SQLite compares binary.
    return this.bots
      .createQueryBuilder('b')
      .where('b.environment_uuid = :environmentUuid', { environmentUuid })
      .orderBy('LOWER(b.name)', 'ASC')
      .addOrderBy('b.uuid', 'ASC')
      .getMany();
  }

  findInEnvironment(environmentUuid: string, uuid: string): Promise<Bot | null> {
    return this.bots.findOne({ where: { environmentUuid, uuid } });
  }
}

import { tableRows } from '../database/table-rows';
import { Bot } from './bot.entity';

/** The rows of bots (see TableRows). */
export const BOT_ROWS = tableRows<Bot>()('bots', {
  uuid: ['uuid', 'text'],
  environmentUuid: ['environment_uuid', 'text'],
  name: ['name', 'text'],
  image: ['image', 'text'],
});

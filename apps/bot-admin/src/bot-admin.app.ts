import { PLATFORM_APPS, PlatformAppDefinition } from '@app/platform';
import { DEMO_PATH_IDS } from '@app/seed-data';
import { BotsModule } from './bots/bots.module';

export const BOT_ADMIN_APP: PlatformAppDefinition = {
  ...PLATFORM_APPS.botAdmin,
  module: BotsModule,
  title: 'Bot Platform Management API: bots',
  description: 'Read-only lookup of bots (virtual agents) across environments.',
  groups: [{ name: 'Bots', description: 'The bots (virtual agents) of an environment.', operations: ['listBots', 'getBot'] }],
  pathExamples: DEMO_PATH_IDS,
};

import { PLATFORM_APPS, PlatformAppDefinition } from '@app/platform';
import { DEMO_PATH_IDS } from '@app/seed-data';
import { EnvironmentsModule } from './environments/environments.module';

export const ENVIRONMENT_APP: PlatformAppDefinition = {
  ...PLATFORM_APPS.environment,
  module: EnvironmentsModule,
  title: 'Bot Platform Management API: environments',
  description:
    'Read-only lookup of the environments of an organization.\n\n' +
    "**Internal.** By default this group's network policy blocks external access. Customers of the " +
    'hosted offering must request these tasks through a support ticket.',
  groups: [
    {
      name: 'Environments',
      description: "The environments of an organization, with their applications' properties.",
      operations: ['listEnvironments', 'getEnvironment'],
    },
  ],
  pathExamples: DEMO_PATH_IDS,
};

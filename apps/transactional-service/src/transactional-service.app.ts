import { PLATFORM_APPS, PlatformAppDefinition } from '@app/platform';
import { RestConnectorsModule } from './rest-connectors/rest-connectors.module';

export const TRANSACTIONAL_SERVICE_APP: PlatformAppDefinition = {
  ...PLATFORM_APPS.transactionalService,
  module: RestConnectorsModule,
  title: 'Bot Platform Management API: rest connectors',
  description:
    'Rest connectors of a bot. A rest connector is a configured outbound REST call that flows of the bot use. ' +
    'Create, read, update, softly delete, list, page through and autocomplete connectors.',
};

import { runPlatformApp } from '@app/platform';
import { TRANSACTIONAL_SERVICE_APP } from './transactional-service.app';

runPlatformApp(TRANSACTIONAL_SERVICE_APP).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

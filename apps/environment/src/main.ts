import { runPlatformApp } from '@app/platform';
import { ENVIRONMENT_APP } from './environment.app';

runPlatformApp(ENVIRONMENT_APP).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

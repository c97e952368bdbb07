import { runPlatformApp } from '@app/platform';
import { BOT_ADMIN_APP } from './bot-admin.app';

runPlatformApp(BOT_ADMIN_APP).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

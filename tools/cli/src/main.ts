import { loadConfigOrExit } from '@app/platform';
import { importFile } from './commands/import.command';
import { migrate, revertMigration } from './commands/migrate.command';
import { startPlatform } from './commands/platform.command';
import { replayParkedEvents } from './commands/replay-events.command';
import { rotateStoredSecrets } from './commands/rotate-secrets.command';
import { printToken } from './commands/token.command';

const USAGE =
  'Usage: cli <platform | migrate | migrate:revert | import <file.json> | secrets:rotate | events:replay <--event <uuid> | --all> | token [--help]>';

/** The platform's command line: `npm start`, `npm run migration:run`, `npm run import`, `npm run secrets:rotate`, `npm run events:replay`, `npm run token`. */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const config = loadConfigOrExit();
  switch (command) {
    case 'platform':
      return startPlatform(config);
    case 'migrate':
      await migrate(config);
      return 0;
    case 'migrate:revert':
      await revertMigration(config);
      return 0;
    case 'import':
      return importFile(config, args[0]);
    case 'secrets:rotate':
      return rotateStoredSecrets(config);
    case 'events:replay':
      return replayParkedEvents(config, args);
    case 'token':
      return printToken(config, args);
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

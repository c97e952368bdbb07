import { AppConfig } from '@app/platform';
import { openDatabase, ParkedEventRepository, ReplayTarget, UUID_PATTERN } from '@app/domain';
import { openDataSource } from '../open-data-source';

export const REPLAY_USAGE = `Usage: npm run events:replay -- --event <eventUuid> | --all

Releases parked change events (docs/operations.md, "Parked events"): their refusals are counted from zero again, and
the relay publishes them, then the events held behind them, in each connector's order, within a few seconds. Remove
what made JetStream refuse them first (the error line and connector_events.publish_error say what), or they park again.

  --event <uuid>  the parked event (its id, the CloudEvent's id, as the relay's error line names it)
  --all           every parked event`;

/** `--event <uuid>` or `--all`; undefined for anything else. */
export function replayTargetOf(args: readonly string[]): ReplayTarget | undefined {
  if (args.length === 1 && args[0] === '--all') return { all: true };
  if (args.length === 2 && args[0] === '--event' && UUID_PATTERN.test(args[1])) return { eventUuid: args[1].toLowerCase() };
  return undefined;
}

/** `npm run events:replay`: clears the parking of one parked event or of all; the relay publishes them again. */
export async function replayParkedEvents(config: AppConfig, args: readonly string[]): Promise<number> {
  const target = replayTargetOf(args);
  if (!target) {
    console.error(REPLAY_USAGE);
    return 2;
  }
  const dataSource = await openDataSource(config.database);
  try {
    const released = await new ParkedEventRepository(openDatabase(dataSource)).replay(target);
    if ('eventUuid' in target && released === 0) {
      console.error(`Event ${target.eventUuid} is not parked: nothing to replay`);
      return 1;
    }
    console.log(`Released ${released} parked event(s): the relay publishes them, and the events held behind them, within a few seconds`);
    return 0;
  } finally {
    await dataSource.destroy();
  }
}

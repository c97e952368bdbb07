import { ConnectorEventRepository, NumberedScope } from '@app/domain';
import { PlatformMetrics, ShutdownState } from '@app/platform';
import { strictFake } from '../../../../../test/support/strict-fake';
import { EventFeedWatcher, MAX_WAKE_SPAN } from './event-feed-watcher';

const ORG = '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01';
const [ENV_A, ENV_B] = ['1b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01', '2b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01'];
const [BOT_A1, BOT_A2, BOT_B] = ['3b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01', '4b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01', '5b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01'];
const inA = { orgUUID: ORG, envUUID: ENV_A };
const inB = { orgUUID: ORG, envUUID: ENV_B };
const numbered = (environmentUuid: string, botUuid: string, lastPosition: number): NumberedScope => ({
  organizationUuid: ORG,
  environmentUuid,
  botUuid,
  lastPosition,
});

/** A wait's promise, and whether it has resolved. */
function watched(wait: Promise<void>) {
  const state = { woken: false };
  void wait.then(() => (state.woken = true));
  return state;
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('EventFeedWatcher', () => {
  let events: jest.Mocked<ConnectorEventRepository>;
  let shutdown: ShutdownState;
  let watcher: EventFeedWatcher;

  beforeEach(() => {
    events = strictFake(ConnectorEventRepository);
    // The shared poll finds nothing new unless a spec says otherwise.
    events.progress.mockResolvedValue({ sequencedThrough: 10, publishedThrough: 0, purgedThrough: 0 });
    shutdown = new ShutdownState();
    watcher = new EventFeedWatcher(events, shutdown, new PlatformMetrics('test'));
  });
  afterEach(() => watcher.onModuleDestroy());

  it('wakes the waiters of the environment and the bot that got events, with one statement for all of them', async () => {
    const environmentWide = watched(watcher.waitPast(inA, 10, 60_000));
    const ofA1 = watched(watcher.waitPast({ ...inA, botUUID: BOT_A1 }, 10, 60_000));
    const ofA2 = watched(watcher.waitPast({ ...inA, botUUID: BOT_A2 }, 10, 60_000));
    const ofB = watched(watcher.waitPast(inB, 10, 60_000));
    events.numberedScopes.mockResolvedValue([numbered(ENV_A, BOT_A1, 12)]);

    watcher.advanced(12);
    await settle();

    expect(events.numberedScopes.mock.calls).toEqual([[10, 12]]);
    expect([environmentWide.woken, ofA1.woken, ofA2.woken, ofB.woken]).toEqual([true, true, false, false]);

    // The next batch is read from where the waiters left off.
    events.numberedScopes.mockResolvedValue([numbered(ENV_B, BOT_B, 15)]);
    watcher.advanced(15);
    await settle();
    expect(events.numberedScopes.mock.calls).toEqual([
      [10, 12],
      [12, 15],
    ]);
    expect([ofA2.woken, ofB.woken]).toEqual([false, true]);
  });

  it('does not wake a waiter for an event at or before the head it read (its feed query saw it)', async () => {
    const readThrough14 = watched(watcher.waitPast(inA, 14, 60_000));
    const readThrough12 = watched(watcher.waitPast(inA, 12, 60_000));
    events.numberedScopes.mockResolvedValue([numbered(ENV_A, BOT_A1, 13)]);

    watcher.advanced(16);
    await settle();

    expect(events.numberedScopes.mock.calls).toEqual([[12, 16]]);
    expect([readThrough14.woken, readThrough12.woken]).toEqual([false, true]);
  });

  it('checks at once a waiter whose read came before a head already announced', async () => {
    events.numberedScopes.mockResolvedValue([]);
    watcher.advanced(20);
    expect(events.numberedScopes).not.toHaveBeenCalled(); // nobody waits: nothing to read

    events.numberedScopes.mockResolvedValue([numbered(ENV_A, BOT_A1, 19)]);
    const late = watched(watcher.waitPast(inA, 18, 60_000));
    await settle();

    expect(events.numberedScopes.mock.calls).toEqual([[18, 20]]);
    expect(late.woken).toBe(true);
  });

  it('wakes every waiter behind the head, without the statement, when the head moved too far at once or the statement fails', async () => {
    const first = [watched(watcher.waitPast(inA, 10, 60_000)), watched(watcher.waitPast(inB, 10, 60_000))];
    watcher.advanced(10 + MAX_WAKE_SPAN + 1);
    await settle();
    expect(events.numberedScopes).not.toHaveBeenCalled();
    expect(first.map((wait) => wait.woken)).toEqual([true, true]);

    const head = 10 + MAX_WAKE_SPAN + 1;
    const second = watched(watcher.waitPast(inB, head, 60_000));
    events.numberedScopes.mockRejectedValue(new Error('connect ECONNREFUSED'));
    watcher.advanced(head + 1);
    await settle();
    expect(second.woken).toBe(true);
  });

  it('learns of events numbered elsewhere from the shared read of the relay row, while someone waits', async () => {
    events.numberedScopes.mockResolvedValue([numbered(ENV_B, BOT_B, 11)]);
    const ofB = watched(watcher.waitPast(inB, 10, 60_000));
    events.progress.mockResolvedValue({ sequencedThrough: 11, publishedThrough: 0, purgedThrough: 0 });

    for (const deadline = Date.now() + 5_000; !ofB.woken && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20));

    expect(ofB.woken).toBe(true);
    expect(events.numberedScopes.mock.calls).toEqual([[10, 11]]);
  });

  it('wakes every waiter when the drain starts, and does not wait while it lasts', async () => {
    const waits = [watched(watcher.waitPast(inA, 10, 60_000)), watched(watcher.waitPast(inB, 10, 60_000))];

    shutdown.draining = true;
    await settle();

    expect(waits.map((wait) => wait.woken)).toEqual([true, true]);
    expect(watcher.draining).toBe(true);
    const during = watched(watcher.waitPast(inA, 10, 60_000));
    await settle();
    expect(during.woken).toBe(true);
    expect(events.numberedScopes).not.toHaveBeenCalled();
  });
});

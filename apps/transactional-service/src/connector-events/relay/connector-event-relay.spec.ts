import { ConnectorEventRepository, EVENT_READ_BYTES, RecordedEvent, VersionOperation } from '@app/domain';
import { AppConfig } from '@app/platform';
import { PinoLogger } from 'nestjs-pino';
import { strictFake } from '../../../../../test/support/strict-fake';
import { EventReads } from '../event-reads';
import { aRecordedEvent } from '../testing/recorded-events';
import { nothingHeld } from '../../../../../test/support/parked-events';
import { EventFeedWatcher } from '../feed/event-feed-watcher';
import { ConnectorEventPublisher } from '../jetstream/connector-event-publisher';
import { ConnectorEventMetrics } from './connector-event-metrics';
import { ConnectorEventRelay, RELAY_TIMING } from './connector-event-relay';

const ORG = '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01';
const CONNECTOR = '9e1f0c7a-3b2d-4c5e-8f6a-7b8c9d0e1f2a';
/** How long the broker takes to acknowledge each publish. */
const PUBLISH_MS = 300;

/** Ten versions of one connector, numbered 1 to 10: one chain, published one at a time. */
const EVENTS: RecordedEvent[] = Array.from({ length: 10 }, (_, i) =>
  aRecordedEvent(
    i + 1,
    {
      eventUuid: `0192f0a0-0000-7000-8000-00000000000${i}`,
      organizationUuid: ORG,
      environmentUuid: ORG,
      botUuid: ORG,
      connectorUuid: CONNECTOR,
      version: i + 1,
    },
    VersionOperation.UPDATED,
  ),
);

/**
 * The relay on strict fakes, on fake timers (performance.now() included): the lease's rules without a database or a
 * broker. `connecting` is the publisher's (connected from the start unless it says otherwise).
 */
function newTestRelay(connecting: () => boolean = () => false) {
  const events = strictFake(ConnectorEventRepository);
  let publishedThrough = 0;
  events.acquire.mockResolvedValue({ taken: true });
  events.hasUnnumbered.mockResolvedValue(false);
  events.sequence.mockImplementation(async () => ({ numbered: 0, progress: { sequencedThrough: EVENTS.length, publishedThrough, purgedThrough: 0 } }));
  const inRange = ({ after, through }: { after: number; through: number }) => EVENTS.filter(({ position }) => position > after && position <= through);
  events.numberedSizes.mockImplementation(async (range) => inRange(range).map(({ position }) => ({ position, bytes: 100 })));
  events.numberedAfter.mockImplementation(async (range) => inRange(range));
  events.markPublished.mockImplementation(async (_holder, _leaseMs, through) => ((publishedThrough = through), true));
  events.progress.mockImplementation(async () => ({ sequencedThrough: EVENTS.length, publishedThrough, purgedThrough: 0 }));
  events.purge.mockResolvedValue(0);
  events.release.mockResolvedValue();
  const parking = nothingHeld();
  const watcher = strictFake(EventFeedWatcher);
  watcher.advanced.mockReturnValue();
  const counter = () => ({ inc: jest.fn() });
  const metrics = {
    numbered: counter(),
    published: counter(),
    publishFailures: counter(),
    purged: counter(),
    relayState: jest.fn(),
  } as unknown as ConnectorEventMetrics;
  const logger = { info: jest.fn(), warn: jest.fn() } as unknown as jest.Mocked<PinoLogger>;
  /** When each publish started (performance.now()). */
  const publishedAt: number[] = [];
  const publisher: ConnectorEventPublisher = {
    publish: async () => {
      publishedAt.push(performance.now());
      await new Promise((acknowledged) => setTimeout(acknowledged, PUBLISH_MS));
      return { duplicate: false, seq: publishedAt.length };
    },
    status: () => 'up',
    connecting,
    close: async () => undefined,
  };
  const config = { changeEvents: { retentionDays: 7, stream: 'CONNECTOR_EVENTS' } } as AppConfig;
  const sut = new ConnectorEventRelay(events, parking, watcher, new EventReads(), metrics, config, logger, publisher, RELAY_TIMING);
  return { sut, events, metrics, logger, publishedAt };
}

/** Shutdown waits for the relay's loops: timers run meanwhile. */
async function shutDown(sut: ConnectorEventRelay): Promise<void> {
  const closed = sut.beforeApplicationShutdown();
  await jest.advanceTimersByTimeAsync(RELAY_TIMING.leaseMs);
  await closed;
}

describe(ConnectorEventRelay.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('renews the lease every renewMs beside a long publish, on the database clock (a duration, never a pod time)', async () => {
    const { sut, events, publishedAt } = newTestRelay();
    events.renew.mockResolvedValue(true);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(EVENTS.length * PUBLISH_MS + 100);

    // Ten publishes of 300 ms in a row, 3 s: far past one lease (2 s), kept by the renewals.
    expect(publishedAt).toHaveLength(EVENTS.length);
    expect(events.renew.mock.calls.length).toBeGreaterThanOrEqual(5);
    expect(events.renew.mock.calls.every(([, leaseMs]) => leaseMs === RELAY_TIMING.leaseMs)).toBe(true);
    expect(events.acquire).toHaveBeenCalledTimes(1);
    await shutDown(sut);
  });

  it('stops publishing three quarters of the lease after its last renewal that succeeded, before the lease can end; publishes again once it took the lease again', async () => {
    const { sut, events, logger, publishedAt } = newTestRelay();
    // The database stops answering the renewals (a lock wait, a slow primary).
    events.renew.mockRejectedValue(new Error('Lock wait timeout exceeded'));
    events.acquire.mockResolvedValueOnce({ taken: true }).mockResolvedValue({ taken: false, endsInMs: 400 });
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(4_000);

    const deadline = RELAY_TIMING.leaseMs * 0.75;
    expect(publishedAt.length).toBeGreaterThan(0);
    expect(publishedAt.every((at) => at < deadline)).toBe(true);
    expect(publishedAt).toHaveLength(Math.ceil(deadline / PUBLISH_MS));
    expect(logger.warn).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/^The change events relay lease lapsed/));
    // What was acknowledged was marked, by the holder, before anything else happened.
    expect(events.markPublished).toHaveBeenCalledWith(sut.holder, RELAY_TIMING.leaseMs, publishedAt.length);

    // The lease is its again (the database answers): it goes on from what was marked.
    const before = publishedAt.length;
    events.acquire.mockResolvedValue({ taken: true });
    events.renew.mockResolvedValue(true);
    await jest.advanceTimersByTimeAsync(EVENTS.length * PUBLISH_MS);
    expect(publishedAt).toHaveLength(EVENTS.length);
    expect(publishedAt.slice(before).every((at) => at >= 4_000)).toBe(true);
    await shutDown(sut);
  });

  it("publishes nothing while the publisher's first connection is under way (no failure counted, no warning), then what waited", async () => {
    let connecting = true;
    const { sut, events, metrics, logger, publishedAt } = newTestRelay(() => connecting);
    events.renew.mockResolvedValue(true);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1_000);

    // Rounds went on (the feed is numbered), but no publish was tried.
    expect(events.sequence.mock.calls.length).toBeGreaterThan(1);
    expect(publishedAt).toEqual([]);
    expect(metrics.publishFailures.inc).not.toHaveBeenCalled();
    expect(logger.warn).not.toHaveBeenCalled();

    connecting = false;
    await jest.advanceTimersByTimeAsync(RELAY_TIMING.idleMs + EVENTS.length * PUBLISH_MS);
    expect(publishedAt).toHaveLength(EVENTS.length);
    expect(events.markPublished).toHaveBeenLastCalledWith(sut.holder, RELAY_TIMING.leaseMs, EVENTS.length);
    await shutDown(sut);
  });

  it('stops at once when a renewal finds another holder', async () => {
    const { sut, events, logger, publishedAt } = newTestRelay();
    events.renew.mockResolvedValue(false);
    events.acquire.mockResolvedValueOnce({ taken: true }).mockResolvedValue({ taken: false, endsInMs: 2_000 });
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(4_000);

    // The first renewal (at 500 ms) finds the lease taken: the publish then in flight is the last.
    expect(publishedAt.every((at) => at < RELAY_TIMING.renewMs)).toBe(true);
    expect(logger.warn).toHaveBeenCalledWith(expect.anything(), 'Lost the change events relay lease to another relay');
    await shutDown(sut);
  });
});

const HOUR = 3_600_000;

/** An event of its own connector at `position`, as the outbox reads it. */
const anEvent = (position: number) => aRecordedEvent(position);

describe(`${ConnectorEventRelay.name} and the byte bound`, () => {
  it('publishes a backlog whose batches the byte bound cuts one after another, without waiting its idle pause between them', async () => {
    // Three numbered events, each weighing most of a read: every batch holds one.
    const backlog = [10, 20, 30].map(anEvent);
    const events = strictFake(ConnectorEventRepository);
    events.acquire.mockResolvedValue({ taken: true });
    events.renew.mockResolvedValue(true);
    events.numberedSizes.mockImplementation(async ({ after, through }) =>
      backlog.filter(({ position }) => position > after && position <= through).map(({ position }) => ({ position, bytes: EVENT_READ_BYTES - 1 })),
    );
    events.numberedAfter.mockImplementation(async ({ after, through }) => backlog.filter(({ position }) => position > after && position <= through));
    const marked: number[] = [];
    events.markPublished.mockImplementation(async (_holder, _until, through) => {
      marked.push(through);
      return true;
    });
    events.progress.mockResolvedValue({ sequencedThrough: 30, publishedThrough: 0, purgedThrough: 0 });
    events.purge.mockResolvedValue(0);
    events.release.mockResolvedValue();
    // What the relay marked is what the next round's progress says.
    events.sequence.mockImplementation(async () => ({
      numbered: 0,
      progress: { sequencedThrough: 30, publishedThrough: marked.at(-1) ?? 0, purgedThrough: 0 },
    }));
    events.hasUnnumbered.mockResolvedValue(false);
    const publisher: ConnectorEventPublisher = {
      publish: jest.fn().mockResolvedValue({ duplicate: false, seq: 1 }),
      status: () => 'up',
      connecting: () => false,
      close: jest.fn().mockResolvedValue(undefined),
    };
    const counter = () => ({ inc: jest.fn() });
    const metrics = { numbered: counter(), published: counter(), publishFailures: counter(), purged: counter(), relayState: jest.fn() };
    const logger = { info: jest.fn(), warn: jest.fn() };
    const config = { changeEvents: { retentionDays: 7 } } as AppConfig;
    // Idle and follower pauses of an hour: only "more to do at once" can take the relay past the first batch.
    const sut = new ConnectorEventRelay(
      events,
      nothingHeld(),
      strictFake(EventFeedWatcher),
      new EventReads(),
      metrics as unknown as ConnectorEventMetrics,
      config,
      logger as unknown as PinoLogger,
      publisher,
      { ...RELAY_TIMING, idleMs: HOUR, followerMs: HOUR, leaseMs: 3 * HOUR, renewMs: HOUR, resyncMs: HOUR, purgeEveryMs: HOUR },
    );

    sut.onApplicationBootstrap();
    try {
      for (let wait = 0; marked.at(-1) !== 30 && wait < 500; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(marked).toEqual([10, 20, 30]);
      expect((publisher.publish as jest.Mock).mock.calls.map(([, , id]) => id)).toEqual(backlog.map(({ event }) => event.eventUuid));
      expect(events.numberedAfter.mock.calls.map(([range]) => range)).toEqual([
        { after: 0, through: 10, limit: 1 },
        { after: 10, through: 20, limit: 1 },
        { after: 20, through: 30, limit: 1 },
      ]);
    } finally {
      await sut.beforeApplicationShutdown();
    }
  });
});

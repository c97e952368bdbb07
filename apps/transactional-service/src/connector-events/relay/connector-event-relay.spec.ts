import { AppConfig } from '@app/platform';
import { ConnectorEventRepository, EVENT_READ_BYTES, RecordedEvent, VersionOperation } from '@app/domain';
import { randomUUID } from 'node:crypto';
import { PinoLogger } from 'nestjs-pino';
import { strictFake } from '../../../../../test/support/strict-fake';
import { EventReads } from '../event-reads';
import { EventFeedWatcher } from '../feed/event-feed-watcher';
import { ConnectorEventPublisher } from '../jetstream/connector-event-publisher';
import { ConnectorEventMetrics } from './connector-event-metrics';
import { ConnectorEventRelay, RELAY_TIMING } from './connector-event-relay';

const HOUR = 3_600_000;

/** An event of its own connector at `position`, as the outbox reads it. */
function anEvent(position: number): RecordedEvent {
  return {
    position,
    event: {
      eventUuid: randomUUID(),
      organizationUuid: randomUUID(),
      environmentUuid: randomUUID(),
      botUuid: randomUUID(),
      connectorUuid: randomUUID(),
      version: 1,
    },
    recorded: {
      operation: VersionOperation.CREATED,
      updatedAt: new Date(),
      updatedBy: 'ada',
      changedFields: [],
      snapshot: {} as RecordedEvent['recorded']['snapshot'],
    },
  };
}

describe(ConnectorEventRelay.name, () => {
  it('publishes a backlog whose batches the byte bound cuts one after another, without waiting its idle pause between them', async () => {
    // Three numbered events, each weighing most of a read: every batch holds one.
    const backlog = [10, 20, 30].map(anEvent);
    const events = strictFake(ConnectorEventRepository);
    events.acquire.mockResolvedValue(true);
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
      close: jest.fn().mockResolvedValue(undefined),
    };
    const counter = () => ({ inc: jest.fn() });
    const metrics = { numbered: counter(), published: counter(), publishFailures: counter(), purged: counter(), relayState: jest.fn() };
    const logger = { info: jest.fn(), warn: jest.fn() };
    const config = { changeEvents: { retentionDays: 7 } } as AppConfig;
    // Idle and follower pauses of an hour: only "more to do at once" can take the relay past the first batch.
    const sut = new ConnectorEventRelay(
      events,
      strictFake(EventFeedWatcher),
      new EventReads(),
      metrics as unknown as ConnectorEventMetrics,
      config,
      logger as unknown as PinoLogger,
      publisher,
      { ...RELAY_TIMING, idleMs: HOUR, followerMs: HOUR, leaseMs: 3 * HOUR, purgeEveryMs: HOUR },
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

import { ConnectorEventFeedQueryDto, ConnectorEventRepository, ScopeService, SecretCipher } from '@app/domain';
import { AnswerHandle } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { strictFake } from '../../../../../test/support/strict-fake';
import { EventBatch, EventReads } from '../event-reads';
import { ConnectorEventFeedService, FEED_SEND_MS } from './connector-event-feed.service';
import { EventCursors } from './event-cursors';
import { EventFeedWatcher } from './event-feed-watcher';
import { aRecordedEvent } from '../testing/recorded-events';

const PATH = { orgUUID: randomUUID(), envUUID: randomUUID() };

const anEvent = (position: number) => aRecordedEvent(position, { organizationUuid: PATH.orgUUID, environmentUuid: PATH.envUUID });

describe(ConnectorEventFeedService.name, () => {
  const events = strictFake(ConnectorEventRepository);
  const scope = strictFake(ScopeService);
  const reads = new EventReads();
  const cursors = new EventCursors(new SecretCipher(Buffer.alloc(32, 3)));
  const sut = new ConnectorEventFeedService(events, scope, strictFake(EventFeedWatcher), reads, cursors);
  const query = Object.assign(new ConnectorEventFeedQueryDto(), { limit: 100, wait: 0 });

  beforeEach(() => {
    jest.clearAllMocks();
    scope.require.mockResolvedValue();
    events.progress.mockResolvedValue({ sequencedThrough: 10, publishedThrough: 10, purgedThrough: 0 });
    events.feedSizes.mockResolvedValue([{ position: 5, bytes: 1_000 }]);
    events.feed.mockResolvedValue([anEvent(5)]);
  });

  it("holds the page's bytes until its answer has left, and cuts an answer still unsent after FEED_SEND_MS", async () => {
    jest.useFakeTimers();
    try {
      let released = 0;
      const read = reads.read.bind(reads);
      jest.spyOn(reads, 'read').mockImplementation(async (...args) => {
        const batch: EventBatch = await read(...args);
        return { ...batch, release: () => ((released += 1), batch.release()) };
      });
      let close!: () => void;
      const answer: AnswerHandle = { closed: new Promise((resolve) => (close = resolve)), cut: jest.fn() };

      const page = await sut.feed(PATH, query, undefined, answer);

      expect(page.events).toHaveLength(1);
      expect(cursors.read(page.cursor, PATH)).toBe(10);
      expect(released).toBe(0);
      jest.advanceTimersByTime(FEED_SEND_MS - 1);
      expect(answer.cut).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(answer.cut).toHaveBeenCalledTimes(1);
      close();
      await Promise.resolve();
      await Promise.resolve();
      expect(released).toBe(1);
    } finally {
      jest.useRealTimers();
      jest.restoreAllMocks();
    }
  });

  it('checks the path before it reads the cursor: a 404 for a path out of scope whatever the cursor', async () => {
    const notFound = new Error('Environment not found');
    scope.require.mockRejectedValue(notFound);
    await expect(sut.feed(PATH, Object.assign(new ConnectorEventFeedQueryDto(), { ...query, after: 'not-a-cursor' }))).rejects.toBe(notFound);
    await expect(sut.feed(PATH, Object.assign(new ConnectorEventFeedQueryDto(), { ...query, after: '1042' }))).rejects.toBe(notFound);
    expect(events.progress).not.toHaveBeenCalled();
  });
});

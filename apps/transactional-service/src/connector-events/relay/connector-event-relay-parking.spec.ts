import { ConnectorEventRepository, RecordedEvent } from '@app/domain';
import { AppConfig } from '@app/platform';
import { PinoLogger } from 'nestjs-pino';
import { strictFake } from '../../../../../test/support/strict-fake';
import { EventReads } from '../event-reads';
import { EventFeedWatcher } from '../feed/event-feed-watcher';
import { ConnectorEventPublisher, ConnectorEventRefusedError } from '../jetstream/connector-event-publisher';
import { aRecordedEvent } from '../testing/recorded-events';
import { nothingHeld } from '../../../../../test/support/parked-events';
import { ConnectorEventMetrics } from './connector-event-metrics';
import { ConnectorEventRelay, RELAY_TIMING } from './connector-event-relay';

const A = '0192f0a0-0000-7000-8000-00000000000a';
const B = '0192f0a0-0000-7000-8000-00000000000b';
const MAX_ATTEMPTS = 3;
/** Long enough for the relay's backoffs after MAX_ATTEMPTS failures (250 + 500 + 1000 ms) and a few rounds more. */
const SETTLE_MS = 5_000;

/** Connector A's events at 1 and 3, B's at 2 and 4: A's first is the one JetStream refuses. */
const BATCH: RecordedEvent[] = [
  aRecordedEvent(1, { connectorUuid: A }),
  aRecordedEvent(2, { connectorUuid: B }),
  aRecordedEvent(3, { connectorUuid: A, version: 2 }),
  aRecordedEvent(4, { connectorUuid: B, version: 2 }),
];
const idOf = (position: number) => BATCH[position - 1].event.eventUuid;

/**
 * The relay on strict fakes and fake timers, over BATCH, with a publisher that fails `failing` as `failure()` says:
 * the parking rules without a database or a broker. `marked`: the relay's published_through at start.
 */
function newTestRelay(failing: string, failure: () => Error, marked = 0) {
  const events = strictFake(ConnectorEventRepository);
  let publishedThrough = marked;
  const progress = () => ({ sequencedThrough: BATCH.length, publishedThrough, purgedThrough: 0 });
  events.acquire.mockResolvedValue({ taken: true });
  events.renew.mockResolvedValue(true);
  events.hasUnnumbered.mockResolvedValue(false);
  events.sequence.mockImplementation(async () => ({ numbered: 0, progress: progress() }));
  events.progress.mockImplementation(async () => progress());
  const after = ({ after: from }: { after: number }) => BATCH.filter(({ position }) => position > from);
  events.numberedSizes.mockImplementation(async (range) => after(range).map(({ position }) => ({ position, bytes: 100 })));
  events.numberedAfter.mockImplementation(async (range) => after(range));
  events.markPublished.mockImplementation(async (_holder, _leaseMs, through) => ((publishedThrough = through), true));
  events.purge.mockResolvedValue(0);
  events.release.mockResolvedValue();

  const parking = nothingHeld();
  let attempts = 0;
  parking.refused.mockImplementation(async (_holder, _leaseMs, _position, _error, max) => ({ attempts: ++attempts, parked: attempts >= max }));
  parking.markPublishedHolding.mockImplementation(async (_holder, _leaseMs, through) => ((publishedThrough = through), true));

  const published: string[] = [];
  const publisher: ConnectorEventPublisher = {
    publish: async (_subject, _event, msgId) => {
      if (msgId === failing) throw failure();
      published.push(msgId);
      return { duplicate: false, seq: published.length };
    },
    status: () => 'up',
    connecting: () => false,
    close: async () => undefined,
  };
  const counter = () => ({ inc: jest.fn() });
  const metrics = { numbered: counter(), published: counter(), publishFailures: counter(), purged: counter(), parked: counter(), relayState: jest.fn() };
  const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };
  const config = { changeEvents: { retentionDays: 7, stream: 'CONNECTOR_EVENTS', maxPublishAttempts: MAX_ATTEMPTS } } as AppConfig;
  const sut = new ConnectorEventRelay(
    events,
    parking,
    strictFake(EventFeedWatcher),
    new EventReads(),
    metrics as unknown as ConnectorEventMetrics,
    config,
    logger as unknown as PinoLogger,
    publisher,
    RELAY_TIMING,
  );
  return { sut, events, parking, metrics, logger, published };
}

async function shutDown(sut: ConnectorEventRelay): Promise<void> {
  const closed = sut.beforeApplicationShutdown();
  await jest.advanceTimersByTimeAsync(RELAY_TIMING.leaseMs);
  await closed;
}

describe(`${ConnectorEventRelay.name} and events JetStream refuses`, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("parks an event at its limit of refusals, holds its connector's later event and marks past both, while the other connector's events go", async () => {
    const { sut, events, parking, metrics, logger, published } = newTestRelay(
      idOf(1),
      () => new ConnectorEventRefusedError('message size exceeds maximum allowed'),
    );
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);

    expect(parking.refused.mock.calls.map(([, , position, error, max]) => [position, error, max])).toEqual(
      Array(MAX_ATTEMPTS).fill([1, 'message size exceeds maximum allowed', MAX_ATTEMPTS]),
    );
    // Below the limit a refusal stops the batch like any failure: nothing was marked before the parking.
    expect(events.markPublished).not.toHaveBeenCalled();
    expect(parking.markPublishedHolding).toHaveBeenCalledTimes(1);
    expect(parking.markPublishedHolding).toHaveBeenCalledWith(sut.holder, RELAY_TIMING.leaseMs, 4, [1, 3], expect.any(Date));
    // B's events went in order; again at each retry until the parking (the mark stopped at A's), which dedup absorbs.
    const ofB = published.filter((id) => id === idOf(2) || id === idOf(4));
    expect(ofB.length).toBeGreaterThanOrEqual(2);
    expect(ofB).toEqual(
      Array<string[]>(ofB.length / 2)
        .fill([idOf(2), idOf(4)])
        .flat(),
    );
    expect(published).not.toContain(idOf(3));
    expect(metrics.parked.inc).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ eventUuid: idOf(1), connectorUuid: A, position: 1, attempts: MAX_ATTEMPTS }),
      expect.stringContaining(`npm run events:replay -- --event ${idOf(1)}`),
    );
    await shutDown(sut);
  });

  it('never counts a failure of the broker against the event: it retries, parks nothing, and publishes nothing past it', async () => {
    const { sut, events, parking, metrics, published } = newTestRelay(idOf(1), () => new Error('connector events: NATS JetStream is not connected'));
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);

    expect(metrics.publishFailures.inc.mock.calls.length).toBeGreaterThan(MAX_ATTEMPTS);
    expect(parking.refused).not.toHaveBeenCalled();
    expect(parking.markPublishedHolding).not.toHaveBeenCalled();
    expect(events.markPublished).not.toHaveBeenCalled();
    expect(published).not.toContain(idOf(3));
    await shutDown(sut);
  });

  it('holds every event of a batch whose connector has held ones, and publishes the others', async () => {
    const { sut, parking, published } = newTestRelay('none', () => new Error('unused'));
    parking.heldAmong.mockResolvedValue(new Set([A]));
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);

    expect(parking.heldAmong).toHaveBeenCalledWith([A, B]);
    expect(parking.markPublishedHolding).toHaveBeenCalledWith(sut.holder, RELAY_TIMING.leaseMs, 4, [1, 3], expect.any(Date));
    expect(published).toEqual([idOf(2), idOf(4)]);
    expect(parking.refused).not.toHaveBeenCalled();
    await shutDown(sut);
  });

  it('publishes the events a replay released before the batch, clearing their hold, then the batch', async () => {
    // A's event 1 was held (the mark is past it) and a replay released it.
    const { sut, parking, published } = newTestRelay('none', () => new Error('unused'), 1);
    parking.releasedSizes.mockResolvedValueOnce([{ position: 1, bytes: 100 }]).mockResolvedValue([]);
    parking.released.mockResolvedValueOnce([BATCH[0]]);
    parking.unhold.mockResolvedValue(true);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);

    expect(parking.released).toHaveBeenCalledWith({ after: 0, through: 1, limit: 1 });
    expect(parking.unhold).toHaveBeenCalledWith(sut.holder, RELAY_TIMING.leaseMs, [1]);
    expect(published).toEqual([idOf(1), idOf(2), idOf(3), idOf(4)]);
    await shutDown(sut);
  });
});

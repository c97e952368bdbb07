import { EVENT_READ_BYTES, EventRange, EventSize, RecordedEvent } from '@app/domain';
import { ServiceUnavailableException } from '@nestjs/common';
import { EVENT_ENVELOPE_BYTES, EVENT_READ_WAIT_MS, EVENT_READS_IN_FLIGHT_BYTES, EventReads, EventSource } from './event-reads';

const MIB = 1024 * 1024;

/** A source of events at positions 10, 20, 30…, each weighing what `weights` says (in MiB). */
function aSource(weights: number[]): EventSource & { loaded: EventRange[] } {
  const sizes: EventSize[] = weights.map((mib, i) => ({ position: (i + 1) * 10, bytes: mib * MIB - EVENT_ENVELOPE_BYTES }));
  const inRange = ({ after, through, limit }: EventRange) => sizes.filter(({ position }) => position > after && position <= through).slice(0, limit);
  const loaded: EventRange[] = [];
  return {
    loaded,
    sizes: async (range) => inRange(range),
    events: async (range) => {
      loaded.push(range);
      return inRange(range).map(({ position }) => ({ position }) as RecordedEvent);
    },
  };
}

const positions = (events: RecordedEvent[]) => events.map(({ position }) => position);

describe(EventReads.name, () => {
  let sut: EventReads;

  beforeEach(() => {
    sut = new EventReads();
  });

  it('loads only the first events that fit in EVENT_READ_BYTES, and goes on after the last of them', async () => {
    expect(EVENT_READ_BYTES).toBe(4 * MIB);
    const source = aSource([1, 1, 1, 1, 1]);
    const batch = await sut.read(source, { after: 0, through: 50, limit: 1000 });
    expect(positions(batch.events)).toEqual([10, 20, 30, 40]);
    expect(batch.through).toBe(40);
    expect(source.loaded).toEqual([{ after: 0, through: 40, limit: 4 }]);
    batch.release();
  });

  it('reads one event larger than the budget alone, so a read always advances', async () => {
    const source = aSource([9, 1]);
    const batch = await sut.read(source, { after: 0, through: 20, limit: 1000 });
    expect(positions(batch.events)).toEqual([10]);
    expect(batch.through).toBe(10);
    batch.release();
  });

  it('goes on to the end of the range when it read all of it, and after the last event when the count cut it', async () => {
    const whole = await sut.read(aSource([0.1, 0.1]), { after: 0, through: 95, limit: 1000 });
    expect(positions(whole.events)).toEqual([10, 20]);
    expect(whole.through).toBe(95);
    const counted = await sut.read(aSource([0.1, 0.1, 0.1]), { after: 0, through: 95, limit: 2 });
    expect(positions(counted.events)).toEqual([10, 20]);
    expect(counted.through).toBe(20);
    const none = await sut.read(aSource([]), { after: 0, through: 95, limit: 2 });
    expect(none).toEqual({ events: [], through: 95, release: expect.any(Function) });
    for (const batch of [whole, counted, none]) batch.release();
  });

  it('holds the bytes of the reads in flight until released: a read past EVENT_READS_IN_FLIGHT_BYTES waits, then is a 503', async () => {
    expect(EVENT_READS_IN_FLIGHT_BYTES).toBe(12 * MIB);
    const held = await Promise.all([1, 2, 3].map(() => sut.read(aSource([2, 2]), { after: 0, through: 20, limit: 1000 })));
    jest.useFakeTimers();
    try {
      const refused = expect(sut.read(aSource([1]), { after: 0, through: 10, limit: 1000 })).rejects.toEqual(
        new ServiceUnavailableException('This replica is busy reading other large change events; retry in a few seconds'),
      );
      await jest.advanceTimersByTimeAsync(EVENT_READ_WAIT_MS);
      await refused;
    } finally {
      jest.useRealTimers();
    }
    held[0].release();
    const next = await sut.read(aSource([1]), { after: 0, through: 10, limit: 1000 });
    expect(positions(next.events)).toEqual([10]);
    for (const batch of [...held, next]) batch.release();
  });

  it("holds one tenant's reads to one full page at a time: its clients that read nothing never keep another tenant waiting", async () => {
    // Tenant A's clients take pages and never read them (held up to FEED_SEND_MS each); before, three of them held the
    // whole budget and every other tenant's read waited, then was a 503.
    const held = await sut.read(aSource([2, 2]), { after: 0, through: 20, limit: 1000 }, undefined, 'org-a');
    jest.useFakeTimers();
    try {
      const more = [1, 2].map(() => sut.read(aSource([2, 2]), { after: 0, through: 20, limit: 1000 }, undefined, 'org-a'));
      const refused = Promise.all(more.map((read) => expect(read).rejects.toBeInstanceOf(ServiceUnavailableException)));
      const other = await sut.read(aSource([2, 2]), { after: 0, through: 20, limit: 1000 }, undefined, 'org-b');
      expect(positions(other.events)).toEqual([10, 20]);
      other.release();
      await jest.advanceTimersByTimeAsync(EVENT_READ_WAIT_MS);
      await refused;
    } finally {
      jest.useRealTimers();
    }
    held.release();
    // Its share is free again once it released what it held.
    const next = await sut.read(aSource([2, 2]), { after: 0, through: 20, limit: 1000 }, undefined, 'org-a');
    expect(positions(next.events)).toEqual([10, 20]);
    next.release();
  });

  it('reads nothing, without an error, when its caller leaves while it waits for room (an abandoned long poll is no 500)', async () => {
    const held = await Promise.all([1, 2, 3].map(() => sut.read(aSource([2, 2]), { after: 0, through: 20, limit: 1000 })));
    const callerGone = new AbortController();
    const source = aSource([1]);

    const waiting = sut.read(source, { after: 5, through: 10, limit: 1000 }, callerGone.signal);
    callerGone.abort(new Error('The caller disconnected'));

    await expect(waiting).resolves.toEqual({ events: [], through: 5, release: expect.any(Function) });
    expect(source.loaded).toEqual([]);
    for (const batch of held) batch.release();
  });

  it('gives the bytes back when loading the events fails', async () => {
    const failing: EventSource = { sizes: aSource([4]).sizes, events: () => Promise.reject(new Error('database gone')) };
    for (let i = 0; i < 4; i++) await expect(sut.read(failing, { after: 0, through: 10, limit: 1000 })).rejects.toThrow('database gone');
    const batch = await sut.read(aSource([4, 4, 4]), { after: 0, through: 30, limit: 1000 });
    expect(positions(batch.events)).toEqual([10]);
    batch.release();
  });
});
